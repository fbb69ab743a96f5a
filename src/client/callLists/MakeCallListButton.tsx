/**
 * "Call list" on a list of contacts, recruits or members: the people the list shows now (its filters and search)
 * become a call list with a name and a script, and the caller starts on it at once.
 */
import PhoneInTalkIcon from '@mui/icons-material/PhoneInTalk';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useCanAccess, useCreate, useListContext, useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { PersonType } from '../conversations/shared';
import { ApiError } from '../http/errors';
import { formatDate } from '../i18n/dates';
import { useSavedView } from '../views/useSavedView';
import { type CallList, peopleCount } from './types';

export function MakeCallListButton({ personType }: { personType: PersonType }) {
  const { filterValues, total } = useListContext();
  const { id: viewId } = useSavedView();
  const { canAccess } = useCanAccess({ resource: 'conversations', action: 'create' });
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [script, setScript] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [create, { isPending }] = useCreate<CallList>();
  const notify = useNotify();
  const navigate = useNavigate();
  if (!canAccess) return null;

  const start = () => {
    setName(`Calls of ${formatDate(new Date())}`);
    setErrors({});
    setOpen(true);
  };
  const save = () =>
    create(
      'call-lists',
      {
        data: {
          name,
          person_type: personType,
          query: { filter: filterValues ?? {}, ...(viewId ? { view: viewId } : {}) },
          script,
        },
      },
      {
        onSuccess: (list) => {
          notify(`Call list made: ${peopleCount(list.progress.total, personType)}.`, { type: 'info' });
          void navigate(`/call-lists/${list.id}`);
        },
        onError: (failure) => {
          setErrors(failure instanceof ApiError ? (failure.body?.errors ?? {}) : {});
          notify(failure instanceof Error ? failure.message : 'The call list could not be made.', { type: 'error' });
        },
      },
    );

  return (
    <>
      <Button size="small" startIcon={<PhoneInTalkIcon />} onClick={start}>
        Call list
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby="make-call-list">
        <DialogTitle id="make-call-list">Make a call list</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography>
              The {typeof total === 'number' ? peopleCount(total, personType) : 'people'} this list shows now, as you
              filtered it, to call one after the other. Others can call from it at the same time: nobody is called
              twice.
            </Typography>
            <TextField
              label="Name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              required
              error={Boolean(errors.name)}
              helperText={errors.name}
              autoFocus
            />
            <TextField
              label="Script"
              value={script}
              onChange={(event) => setScript(event.target.value)}
              multiline
              minRows={4}
              error={Boolean(errors.script)}
              helperText={errors.script ?? 'What callers say; they see it beside each person.'}
            />
            {errors.query && <Typography color="error">{errors.query}</Typography>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button variant="contained" onClick={save} disabled={isPending || !name.trim()}>
            Start calling
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
