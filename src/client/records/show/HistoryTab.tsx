/**
 * A record's history: every revision (who, when, what changed, before and after), newest first. "Restore this
 * version" writes back, through an ordinary update, the values the record had right after that revision.
 */

import RestoreIcon from '@mui/icons-material/History';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Confirm, useCanAccess, useRecordContext } from 'react-admin';
import { formatDateTime } from '../../i18n/dates';
import { titleCase } from '../../i18n/labels';
import { describeField } from '../fieldTypes/describe';
import { ArchivedValues } from '../history/ArchivedValues';
import { ACTION_LABELS, canRestoreVersion, type Revision, revisionAuthor, valuesToRestore } from '../history/history';
import { RevisionChanges } from '../history/RevisionChanges';
import { useAppDataProvider } from '../hooks';
import { useRecordMutations } from '../mutations';
import { editableFields, type RecordSchema } from '../schema';

export const REVISIONS_KEY = 'revisions';

export function HistoryTab({ schema }: { schema: RecordSchema }) {
  const record = useRecordContext();
  const { canAccess: canUpdate } = useCanAccess({ resource: schema.resource, action: 'edit' });
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const { update } = useRecordMutations(schema.resource);
  const [confirm, setConfirm] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const descriptors = useMemo(
    () => new Map(schema.fields.map((field) => [field.slug, describeField(field)])),
    [schema.fields],
  );
  const editable = useMemo(() => new Set(editableFields(schema).map((field) => field.slug)), [schema]);
  const { data, error, isPending } = useQuery({
    queryKey: [REVISIONS_KEY, schema.type, record?.id, record?.updated_at],
    queryFn: ({ signal }) =>
      dataProvider.revisions<Revision>({ type: schema.type, revisionable_id: record!.id, per_page: 200 }, signal),
    enabled: Boolean(record),
  });
  if (!record) return null;
  if (error) return <Alert severity="error">{(error as Error).message}</Alert>;
  if (isPending) return <Typography color="text.secondary">Loading the history…</Typography>;
  const revisions = data?.data ?? [];

  const restore = async (index: number) => {
    setBusy(true);
    const values = valuesToRestore(revisions, index, editable);
    const outcome = await update(
      record.id,
      { ...values, updated_at: record.updated_at },
      record,
      `${titleCase(schema.name_singular)} updated successfully.`,
    );
    if (outcome.conflict) {
      // Someone saved meanwhile: the page reloads the record (realtime) and the person can try again.
      await queryClient.invalidateQueries({ queryKey: [schema.resource] });
    }
    await queryClient.invalidateQueries({ queryKey: [REVISIONS_KEY] });
    setBusy(false);
    setConfirm(null);
  };

  const archive = (
    <ArchivedValues
      type={schema.type}
      recordId={record.id}
      descriptors={descriptors}
      canUpdate={Boolean(canUpdate)}
      onRestored={async () => {
        await queryClient.invalidateQueries({ queryKey: [schema.resource] });
        await queryClient.invalidateQueries({ queryKey: [REVISIONS_KEY] });
      }}
    />
  );
  if (!revisions.length)
    return (
      <Stack spacing={1.5}>
        {archive}
        <Typography color="text.secondary">No changes have been recorded yet.</Typography>
      </Stack>
    );
  return (
    <Stack spacing={1.5} data-testid="history">
      {archive}
      {revisions.map((revision, index) => (
        <Box
          key={revision.id}
          sx={{
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            p: 1.5,
            bgcolor: index === 0 ? 'action.hover' : undefined,
          }}
          data-revision={revision.action}
        >
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ alignItems: { sm: 'center' }, mb: revision.changes && Object.keys(revision.changes).length ? 1 : 0 }}
          >
            <Chip
              size="small"
              label={ACTION_LABELS[revision.action] ?? revision.action}
              color={revision.action === 'deleted' ? 'error' : revision.action === 'created' ? 'success' : 'default'}
            />
            <Typography variant="body2" sx={{ flex: 1 }}>
              <strong>{revisionAuthor(revision)}</strong> · {formatDateTime(revision.created_at)}
              {index === 0 && (
                <Typography component="span" variant="caption" color="text.secondary">
                  {' '}
                  (current version)
                </Typography>
              )}
            </Typography>
            {canUpdate && canRestoreVersion(revisions, index, editable) && (
              <Button size="small" startIcon={<RestoreIcon />} onClick={() => setConfirm(index)}>
                Restore this version
              </Button>
            )}
          </Stack>
          <RevisionChanges revision={revision} descriptors={descriptors} />
        </Box>
      ))}
      <Confirm
        isOpen={confirm !== null}
        loading={busy}
        title="Restore this version?"
        content={`The ${schema.name_singular.toLowerCase()} gets back the values it had then. The change is saved as a new version, so it can be undone too.`}
        confirm="Restore"
        onConfirm={() => void restore(confirm!)}
        onClose={() => setConfirm(null)}
      />
    </Stack>
  );
}
