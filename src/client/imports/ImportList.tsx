/** /imports: the upload card, then every import with its status, progress and counts (live: ImportProcessing refetches the list). */

import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { List, SimpleList, useCanAccess } from 'react-admin';
import { formatDateTime } from '../i18n/dates';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import type { ImportRecord } from '../providers/importMethods';
import ListGrid from '../records/grid/ListGrid';
import { SmallScreenPagination, useSmallScreen } from '../records/grid/smallScreen';
import { ImportProgress } from './ImportProgress';
import { ImportUpload } from './ImportUpload';
import { StatusChip } from './StatusChip';

function Progress({ record }: { record: ImportRecord }) {
  if (record.status === 'processing' || record.status === 'pending') {
    return <ImportProgress record={record} compact />;
  }
  return (
    <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {record.created_count.toLocaleString('en')} created · {record.updated_count.toLocaleString('en')} updated ·{' '}
      {record.failed_count.toLocaleString('en')} failed
    </Typography>
  );
}

const COLUMNS = (
  [
    { field: 'name', headerName: 'File', minWidth: 200, flex: 2 },
    { field: 'importer_name', headerName: 'Importer', sortable: false, minWidth: 140, flex: 1 },
    {
      field: 'status',
      headerName: 'Status',
      minWidth: 130,
      renderCell: ({ row }) => <StatusChip status={row.status} undone={Boolean(row.undone_at)} />,
    },
    {
      field: 'rows',
      headerName: 'Rows',
      sortable: false,
      minWidth: 300,
      flex: 2,
      renderCell: ({ row }) => <Progress record={row as ImportRecord} />,
    },
    { field: 'user_name', headerName: 'By', sortable: false, minWidth: 120, flex: 1 },
    {
      field: 'created_at',
      headerName: 'Started',
      minWidth: 170,
      valueGetter: (value) => (value ? formatDateTime(String(value)) : ''),
    },
  ] satisfies GridColDef[]
).map((column): GridColDef => ({ filterable: false, ...column }));
const DEFAULTS = COLUMNS.map((column) => column.field);

function ImportListBody() {
  if (!useSmallScreen()) return <ListGrid resource="imports" columns={COLUMNS} defaults={DEFAULTS} label="Imports" />;
  return (
    <SimpleList
      linkType="show"
      primaryText={(record: ImportRecord) => record.name}
      secondaryText={(record: ImportRecord) =>
        record.status === 'processing' || record.status === 'pending'
          ? `${record.importer_name ?? ''} · ${record.processed_rows.toLocaleString('en')} rows so far`
          : `${record.importer_name ?? ''} · ${record.created_count} created, ${record.updated_count} updated, ${record.failed_count} failed`
      }
      tertiaryText={(record: ImportRecord) => <StatusChip status={record.status} undone={Boolean(record.undone_at)} />}
    />
  );
}

export function ImportList() {
  const { canAccess: canImport } = useCanAccess({ resource: 'imports', action: 'create' });
  useDocumentTitle('Imports');
  return (
    <Box>
      {canImport !== false && <ImportUpload />}
      <List
        resource="imports"
        title="Imports"
        empty={
          // react-admin's own empty page greys its text out below AA contrast.
          <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="imports-empty">
            No imports yet.
          </Typography>
        }
        sort={{ field: 'created_at', order: 'DESC' }}
        perPage={25}
        pagination={<SmallScreenPagination />}
        exporter={false}
        actions={false}
        sx={{ '& .RaList-main': { minWidth: 0 } }}
        queryOptions={
          {
            refetchInterval: (query: any) =>
              query?.state?.data?.data?.some((r: ImportRecord) => r.status === 'pending' || r.status === 'processing')
                ? 3000
                : false,
          } as any
        }
      >
        <ImportListBody />
      </List>
    </Box>
  );
}

export default ImportList;
