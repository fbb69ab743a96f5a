/**
 * A record shown in the shell's side panel from the map: its fields as the record's show page displays them (the
 * field type table), read with react-admin's `useGetOne`, so a change saved anywhere refreshes it live; and a link
 * to its page.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { RecordContextProvider, useGetOne } from 'react-admin';
import { useDescriptors, useLiveSchema } from '../records/hooks';
import { DetailsTab } from '../records/show/DetailsTab';

export function RecordPanel({ resource, id, onOpen }: { resource: string; id: number; onOpen: () => void }) {
  const schema = useLiveSchema(resource);
  const descriptors = useDescriptors(schema);
  const { data: record, error, isPending } = useGetOne(resource, { id });
  if (error)
    return (
      <Alert severity="warning">{(error as { message?: string }).message ?? 'The record could not be loaded.'}</Alert>
    );
  if (isPending || !record) return <CircularProgress size={24} />;
  return (
    <Box data-testid="map-record-panel">
      {schema && (
        <RecordContextProvider value={record}>
          <DetailsTab schema={schema} descriptors={descriptors} compact />
        </RecordContextProvider>
      )}
      <Button sx={{ mt: 2 }} variant="contained" onClick={onOpen}>
        Open the full page
      </Button>
    </Box>
  );
}
