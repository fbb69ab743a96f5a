/**
 * /imports/{id}/show: status with live progress (ImportProcessing / ImportComplete refetch this record; it also
 * polls every 2 s while running in case the realtime socket is away), the counts, what was imported (links to
 * the records), each failed row with its line and reason, the error report download, and undo.
 */

import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import UndoIcon from '@mui/icons-material/Undo';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Pagination from '@mui/material/Pagination';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Loading, Title, useGetOne, useNotify, useRefresh } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import type { ImportFailure as Failure, ImportRecord } from '../providers/importMethods';
import { type TableColumn, TableGrid } from '../records/grid/TableGrid';
import { useAppDataProvider } from '../records/hooks';
import { formatBytes } from './formatBytes';
import { ImportProgress } from './ImportProgress';
import { StatusChip } from './StatusChip';

const failureKey = (failure: Failure) => String(failure.id);

/** The failed rows' columns; the line names its file when the import had several. */
const failureColumns = (severalFiles: boolean): TableColumn<Failure>[] => [
  {
    header: 'Line',
    align: 'left',
    minWidth: severalFiles ? 180 : 80,
    value: (failure) => (severalFiles ? `${failure.file_name}: ${failure.line}` : failure.line),
  },
  { header: 'Reason', align: 'left', minWidth: 240, wrap: true, value: (failure) => failure.reason },
  { header: 'Row', align: 'left', minWidth: 240, value: (failure) => failure.cells.join(', ') },
];

function Count({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Box sx={{ minWidth: 110 }}>
      <Typography
        variant="h4"
        component="p"
        sx={{ color, fontWeight: 500 }}
        data-testid={`count-${label.toLowerCase()}`}
      >
        {value.toLocaleString('en')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Box>
  );
}

export function ImportShow() {
  const { id } = useParams();
  const dataProvider = useAppDataProvider();
  const notify = useNotify();
  const refresh = useRefresh();
  const [confirmUndo, setConfirmUndo] = useState(false);
  const [failurePage, setFailurePage] = useState(1);
  const [recordPage, setRecordPage] = useState(1);
  const {
    data: record,
    isPending,
    error,
  } = useGetOne<ImportRecord & { id: number }>('imports', { id: Number(id) }, {
    refetchInterval: (query: any) => {
      const data = query?.state?.data;
      return data &&
        (data.status === 'pending' ||
          data.status === 'processing' ||
          data.undo_status === 'pending' ||
          data.undo_status === 'processing')
        ? 2000
        : false;
    },
  } as any);
  const running = record?.status === 'pending' || record?.status === 'processing';
  const failures = useQuery({
    queryKey: ['imports', 'failures', id, failurePage, record?.failed_count, record?.status],
    queryFn: () => dataProvider.importFailures(String(id), failurePage),
    enabled: Boolean(record),
  });
  const imported = useQuery({
    queryKey: ['imports', 'records', id, recordPage, record?.created_count, record?.updated_count, record?.undone_at],
    queryFn: () => dataProvider.importedRecords(String(id), recordPage),
    enabled: Boolean(record),
  });
  useEffect(() => setFailurePage(1), [id]);

  if (isPending) return <Loading />;
  if (error || !record)
    return <Alert severity="error">{(error as Error)?.message ?? 'This import could not be loaded.'}</Alert>;

  const undo = async () => {
    setConfirmUndo(false);
    try {
      const answer = await dataProvider.action('imports', { id: record.id, action: 'undo' });
      notify(answer.meta?.message ?? 'The import is being undone.', { type: 'info' });
      refresh();
    } catch (e: any) {
      notify(e?.message ?? 'The import could not be undone.', { type: 'error' });
    }
  };
  const undoing = record.undo_status === 'pending' || record.undo_status === 'processing';

  return (
    <Box sx={{ mt: 1 }}>
      <Title title={`Import: ${record.name}`} />
      <Button component={RouterLink} to="/imports" startIcon={<ArrowBackIcon />} size="small" sx={{ mb: 1 }}>
        All imports
      </Button>
      <Card variant="outlined">
        <CardContent>
          <Stack
            sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
          >
            <Box>
              <Typography variant="h5" component="h1" sx={{ wordBreak: 'break-word' }}>
                {record.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {record.importer_name ?? 'Importer deleted'} ·{' '}
                {record.files
                  .map(
                    (f) =>
                      `${f.name} (${formatBytes(f.size)}${f.encoding === 'windows-1252' ? ', Windows-1252' : ''}${f.kept === false ? ', file no longer kept' : ''})`,
                  )
                  .join(', ')}
                {record.user_name ? ` · by ${record.user_name}` : ''}
              </Typography>
            </Box>
            <Box data-testid="import-status">
              <StatusChip status={record.status} undone={Boolean(record.undone_at)} />
            </Box>
          </Stack>

          {running && <ImportProgress record={record} />}
          {record.message && (
            <Alert severity={record.status === 'failed' ? 'error' : 'info'} sx={{ mt: 2 }}>
              {record.message}
            </Alert>
          )}
          {undoing && (
            <Alert severity="info" sx={{ mt: 2 }}>
              Undoing this import...
            </Alert>
          )}
          {record.undone_at && (
            <Alert severity="success" sx={{ mt: 2 }}>
              This import was undone on {new Date(record.undone_at).toLocaleString()}: what it created was removed and
              what it changed put back.
            </Alert>
          )}

          <Box
            sx={{
              mt: 2,
              display: 'grid',
              gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(4, max-content)' },
              columnGap: 5,
              rowGap: 2,
            }}
          >
            <Count label="Created" value={record.created_count} color="success.main" />
            <Count label="Updated" value={record.updated_count} color="info.main" />
            <Count label="Skipped" value={record.skipped_count} />
            <Count label="Failed" value={record.failed_count} color={record.failed_count ? 'error.main' : undefined} />
          </Box>

          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 2 }}>
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              href={`/api/imports/${record.id}/download`}
              disabled={!record.failed_count}
            >
              Download error report (CSV)
            </Button>
            <Button
              variant="outlined"
              color="warning"
              startIcon={<UndoIcon />}
              onClick={() => setConfirmUndo(true)}
              disabled={
                running || undoing || Boolean(record.undone_at) || record.created_count + record.updated_count === 0
              }
            >
              Undo import
            </Button>
          </Stack>
        </CardContent>
      </Card>

      {imported.data && imported.data.meta.total > 0 && (
        <Card variant="outlined" sx={{ mt: 2 }}>
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              Imported records ({imported.data.meta.total.toLocaleString('en')})
            </Typography>
            <Stack component="ul" sx={{ pl: 2, m: 0 }} spacing={0.5} aria-label="Imported records">
              {imported.data.data.map((item) => (
                <li key={item.id}>
                  {item.deleted ? (
                    <Typography component="span" color="text.secondary">
                      {item.name} (removed)
                    </Typography>
                  ) : (
                    <Link component={RouterLink} to={`/${item.resource}/${item.id}/show`}>
                      {item.name}
                    </Link>
                  )}{' '}
                  <Typography component="span" variant="caption" color="text.secondary">
                    {item.created ? 'created' : 'updated'}
                  </Typography>
                </li>
              ))}
            </Stack>
            {imported.data.meta.last_page > 1 && (
              <Pagination
                sx={{ mt: 1 }}
                count={imported.data.meta.last_page}
                page={recordPage}
                onChange={(_, page) => setRecordPage(page)}
                size="small"
              />
            )}
          </CardContent>
        </Card>
      )}

      {record.failed_count > 0 && (
        <Card variant="outlined" sx={{ mt: 2 }}>
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              Failed rows ({record.failed_count.toLocaleString('en')})
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              Lines are as the file has them (the header is line 1). Fix these rows in the file and import it again:
              rows already imported are matched, not duplicated.
            </Typography>
            <TableGrid
              label="Failed rows"
              fileName={`failed-rows-${record.id}-page-${failurePage}`}
              columns={failureColumns(record.files.length > 1)}
              rows={failures.data?.data ?? []}
              rowKey={failureKey}
              empty={null}
            />
            {(failures.data?.meta.last_page ?? 1) > 1 && (
              <Pagination
                sx={{ mt: 1 }}
                count={failures.data!.meta.last_page}
                page={failurePage}
                onChange={(_, page) => setFailurePage(page)}
                size="small"
              />
            )}
          </CardContent>
        </Card>
      )}

      <Dialog open={confirmUndo} onClose={() => setConfirmUndo(false)}>
        <DialogTitle>Undo this import?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            The {record.created_count.toLocaleString('en')} records it created will be deleted and the{' '}
            {record.updated_count.toLocaleString('en')} it changed put back as they were before. Changes people made
            since are kept where the import did not touch them.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmUndo(false)}>Cancel</Button>
          <Button onClick={undo} color="warning" variant="contained">
            Undo import
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

export default ImportShow;
