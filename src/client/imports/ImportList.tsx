/** /imports: the upload card, then every import with its status, progress and counts (live: ImportProcessing refetches the list). */
import { Datagrid, DateField, FunctionField, List, SimpleList, TextField, useCanAccess } from 'react-admin';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { ImportUpload } from './ImportUpload';
import { StatusChip } from './StatusChip';
import type { ImportRecord } from './api';
import { ImportProgress } from './ImportProgress';
import { useDocumentTitle } from '../layout/useDocumentTitle';

function Progress({ record }: { record: ImportRecord }) {
  if (record.status === 'processing' || record.status === 'pending') {
    return <ImportProgress record={record} compact />;
  }
  return (
    <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {record.created_count.toLocaleString('en')} created · {record.updated_count.toLocaleString('en')} updated · {record.failed_count.toLocaleString('en')} failed
    </Typography>
  );
}

export function ImportList() {
  const { canAccess: canImport } = useCanAccess({ resource: 'imports', action: 'create' });
  const small = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
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
        sort={{ field: 'created_at', order: 'DESC' }} perPage={25} exporter={false} actions={false} queryOptions={{ refetchInterval: (query: any) => (query?.state?.data?.data?.some((r: ImportRecord) => r.status === 'pending' || r.status === 'processing') ? 3000 : false) } as any}>
        {small ? (
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
        ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <TextField source="name" label="File" />
          <TextField source="importer_name" label="Importer" sortable={false} />
          <FunctionField label="Status" source="status" render={(record: ImportRecord) => <StatusChip status={record.status} undone={Boolean(record.undone_at)} />} />
          <FunctionField label="Rows" sortable={false} render={(record: ImportRecord) => <Progress record={record} />} />
          <TextField source="user_name" label="By" sortable={false} />
          <DateField source="created_at" label="Started" showTime />
        </Datagrid>
        )}
      </List>
    </Box>
  );
}

export default ImportList;
