/** Notes on a record: the list (newest first), a box to add one, marking one complete, deleting one's notes. */

import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useCanAccess, useGetList } from 'react-admin';
import { formatDateTime } from '../i18n/dates';
import { useWaitingCreates } from '../offline/useOffline';
import { AskBeforeDelete } from '../records/DeleteConfirm';
import { useRecordMutations } from '../records/mutations';
import { type Owner, refreshCounts } from './shared';

export function NotesPanel({ owner }: { owner: Owner }) {
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const { create, action, remove } = useRecordMutations('notes');
  const {
    data = [],
    total,
    isPending,
  } = useGetList('notes', {
    filter: { notable_type: owner.type, notable_id: owner.id },
    sort: { field: 'created_at', order: 'DESC' },
    pagination: { page: 1, perPage: 100 },
  });
  const { canAccess: canCreate } = useCanAccess({ resource: 'notes', action: 'create' });
  const { canAccess: canUpdate } = useCanAccess({ resource: 'notes', action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: 'notes', action: 'delete' });
  const waiting = useWaitingCreates('notes', { notable_type: owner.type, notable_id: owner.id });

  const add = async () => {
    if (!body.trim()) return;
    setBusy(true);
    const outcome = await create(
      { body, notable_type: owner.type, notable_id: Number(owner.id) },
      'Note created successfully.',
    );
    setBusy(false);
    if (outcome.record) {
      setBody('');
      setError(undefined);
      refreshCounts();
    } else setError(outcome.errors?.body ?? outcome.conflict);
  };

  return (
    <Stack spacing={2} data-testid="notes">
      {canCreate && (
        <Box>
          <TextField
            label="New note"
            value={body}
            onChange={(event) => setBody(event.target.value)}
            multiline
            minRows={2}
            fullWidth
            size="small"
            error={Boolean(error)}
            helperText={error}
          />
          <Button
            variant="contained"
            size="small"
            sx={{ mt: 1 }}
            onClick={() => void add()}
            disabled={busy || !body.trim()}
          >
            Add note
          </Button>
        </Box>
      )}
      {waiting.map((note) => (
        <Box
          key={note.key}
          sx={{ border: 1, borderStyle: 'dashed', borderColor: 'warning.main', borderRadius: 1, p: 1.5 }}
          data-testid="note-waiting"
        >
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
            {String(note.data.body ?? '')}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            Saved on this device · waiting to be sent
          </Typography>
        </Box>
      ))}
      {!isPending && !data.length && !waiting.length && (
        <Typography color="text.secondary" variant="body2">
          No notes yet.
        </Typography>
      )}
      {data.map((note) => (
        <Box
          key={note.id}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, opacity: note.completed ? 0.7 : 1 }}
          data-note={note.id}
        >
          <Typography
            variant="body2"
            sx={{ whiteSpace: 'pre-wrap', textDecoration: note.completed ? 'line-through' : undefined }}
          >
            {note.body}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
            <Typography variant="caption" color="text.secondary" sx={{ flex: 1 }}>
              {note.user_name ?? 'Someone'} · {formatDateTime(note.created_at)}
            </Typography>
            {canUpdate && (
              <FormControlLabel
                control={
                  <Checkbox
                    size="small"
                    checked={Boolean(note.completed)}
                    onChange={(event) =>
                      void action(note.id, 'complete', { completed: event.target.checked }).then(refreshCounts)
                    }
                  />
                }
                label={<Typography variant="caption">Complete</Typography>}
              />
            )}
            {canDelete && (
              <AskBeforeDelete
                title="Delete this note?"
                restorable={false}
                onConfirm={() => remove(note, 'Note deleted successfully.')}
                button={(ask) => (
                  <Tooltip title="Delete note">
                    <IconButton size="small" onClick={ask} aria-label="Delete note">
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )}
              />
            )}
          </Stack>
        </Box>
      ))}
      {total !== undefined && total > data.length && (
        <Typography variant="caption" color="text.secondary">
          Showing the latest {data.length} of {total} notes.
        </Typography>
      )}
    </Stack>
  );
}
