/**
 * The values schema changes took out of a record (a field deleted, a value its field's new type could not hold, a
 * relation pointed elsewhere, values after the first of a field made single): listed on the record's history, each
 * put back through an ordinary update by a person who may edit the record (GET /api/archived-values,
 * POST /api/archived-values/{id}/restore; docs/records.md "Changing a record type").
 */
import RestoreIcon from '@mui/icons-material/Restore';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify } from 'react-admin';
import { formatDateTime } from '../../i18n/dates';
import type { FieldDescriptor } from '../fieldTypes/describe';
import { useAppDataProvider } from '../hooks';
import { historyText } from './history';

interface ArchivedValue {
  id: number;
  field: { slug: string; name: string; type: string };
  value: unknown;
  reason: string;
  archived_at: string;
  archived_by: { id: number; name: string } | null;
  restored_at: string | null;
  restorable: boolean;
}

export const ARCHIVED_KEY = 'archived-values';

export function ArchivedValues({
  type,
  recordId,
  descriptors,
  canUpdate,
  onRestored,
}: {
  type: string;
  recordId: number | string;
  descriptors: ReadonlyMap<string, FieldDescriptor>;
  canUpdate: boolean;
  onRestored: () => Promise<void>;
}) {
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [busy, setBusy] = useState<number | null>(null);
  const { data, error } = useQuery({
    queryKey: [ARCHIVED_KEY, type, recordId],
    queryFn: ({ signal }) => dataProvider.archivedValues<ArchivedValue>(type, recordId, signal),
  });
  const entries = data ?? [];
  if (error) return <Alert severity="error">{(error as Error).message}</Alert>;
  if (!entries.length) return null;

  const restore = async (entry: ArchivedValue) => {
    setBusy(entry.id);
    try {
      notify(await dataProvider.restoreArchivedValue(entry.id), { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: [ARCHIVED_KEY] });
      await onRestored();
    } catch (failure) {
      notify((failure as Error).message, { type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }} data-testid="archived-values">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Archived values
      </Typography>
      <Stack spacing={1}>
        {entries.map((entry) => (
          <Stack
            key={entry.id}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ alignItems: { sm: 'center' } }}
          >
            <Typography variant="body2" sx={{ flex: 1 }}>
              <strong>{entry.field.name}</strong>: {historyText(entry.value, descriptors.get(entry.field.slug))}
              <Typography component="span" variant="caption" color="text.secondary">
                {' '}
                — {entry.reason}, {formatDateTime(entry.archived_at)}
                {entry.archived_by ? ` by ${entry.archived_by.name}` : ''}
                {entry.restored_at ? ` · restored ${formatDateTime(entry.restored_at)}` : ''}
              </Typography>
            </Typography>
            {canUpdate && entry.restorable && (
              <Button
                size="small"
                startIcon={<RestoreIcon />}
                disabled={busy !== null}
                onClick={() => void restore(entry)}
              >
                Put back
              </Button>
            )}
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
