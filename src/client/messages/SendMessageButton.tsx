/**
 * "Text or email" on a list of contacts, recruits or members: one message, with merge fields, to the people the
 * list shows now (its filters and search). The server sends each person's copy within the rate and outside their
 * quiet hours, never to someone who opted out (docs/messages.md).
 */
import SendIcon from '@mui/icons-material/ForwardToInboxOutlined';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useCreate, useListContext, useNotify } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { MessageChannel, MessageSend } from '../../common/messages';
import { can } from '../../common/permissions';
import { useSession } from '../app/hooks';
import { peopleCount } from '../callLists/types';
import type { PersonType } from '../conversations/shared';
import { isApiError } from '../http/errors';
import { useSavedView } from '../views/useSavedView';

/** Merge fields offered as buttons; the server accepts any field of the person the sender may read. */
const MERGE_FIELDS = [
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
] as const;

/** What became of a message just written, in a sentence. */
function sentNotice(sent: MessageSend) {
  const what = sent.channel === 'sms' ? 'texts' : 'emails';
  const queued = sent.counts.queued ?? 0;
  if (queued) return `${queued.toLocaleString('en-US')} ${what} on their way.`;
  if (sent.counts.not_sent)
    return `Kept, not sent: no ${sent.channel === 'sms' ? 'SMS provider' : 'mail server'} is configured yet.`;
  return `No ${what} could be sent: see why beside each person.`;
}

export function SendMessageButton({ personType }: { personType: PersonType }) {
  const { filterValues, total } = useListContext();
  const { id: viewId } = useSavedView();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const [channel, setChannel] = useState<MessageChannel>('sms');
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const bodyInput = useRef<HTMLTextAreaElement>(null);
  const [create, { isPending }] = useCreate<MessageSend>();
  const notify = useNotify();
  const navigate = useNavigate();
  if (!can(user, 'message:send')) return null;

  const insert = (field: string) => {
    const input = bodyInput.current;
    const at = input?.selectionStart ?? body.length;
    const next = `${body.slice(0, at)}{{${field}}}${body.slice(input?.selectionEnd ?? at)}`;
    setBody(next);
    requestAnimationFrame(() => {
      input?.focus();
      const caret = at + field.length + 4;
      input?.setSelectionRange(caret, caret);
    });
  };

  const send = () =>
    create(
      'message-sends',
      {
        data: {
          channel,
          person_type: personType,
          query: { filter: filterValues ?? {}, ...(viewId ? { view: viewId } : {}) },
          subject: channel === 'email' ? subject : null,
          body,
        },
      },
      {
        onSuccess: (sent) => {
          setOpen(false);
          notify(sentNotice(sent), { type: sent.counts.queued ? 'info' : 'warning' });
          void navigate(`/messages/${sent.id}`);
        },
        onError: (failure) => {
          setErrors(isApiError(failure) ? (failure.body?.errors ?? {}) : {});
          notify(failure instanceof Error ? failure.message : 'The message could not be sent.', { type: 'error' });
        },
      },
    );

  const count = typeof total === 'number' ? peopleCount(total, personType) : 'the people';
  return (
    <>
      <Button size="small" startIcon={<SendIcon />} onClick={() => (setErrors({}), setOpen(true))}>
        Text or email
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby="send-message-title">
        <DialogTitle id="send-message-title">Text or email {count}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography>
              To the {count} this list shows now. Nobody who opted out gets it, and nobody gets it during quiet hours:
              theirs wait until morning.
            </Typography>
            <RadioGroup row value={channel} onChange={(event) => setChannel(event.target.value as MessageChannel)}>
              <FormControlLabel value="sms" control={<Radio />} label="Text message" />
              <FormControlLabel value="email" control={<Radio />} label="Email" />
            </RadioGroup>
            {channel === 'email' && (
              <TextField
                label="Subject"
                value={subject}
                onChange={(event) => setSubject(event.target.value)}
                required
                error={Boolean(errors.subject)}
                helperText={errors.subject}
              />
            )}
            <TextField
              label="Message"
              value={body}
              onChange={(event) => setBody(event.target.value)}
              inputRef={bodyInput}
              multiline
              minRows={4}
              required
              error={Boolean(errors.body)}
              helperText={
                errors.body ??
                (channel === 'sms'
                  ? `${body.length} characters. "Reply STOP to opt out." is added at the end.`
                  : 'An unsubscribe link is added at the end.')
              }
            />
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography variant="body2" color="text.secondary">
                Insert:
              </Typography>
              {MERGE_FIELDS.map(([field, label]) => (
                <Chip key={field} label={label} size="small" onClick={() => insert(field)} />
              ))}
            </Stack>
            {errors.query && <Typography color="error">{errors.query}</Typography>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button
            variant="contained"
            onClick={send}
            disabled={isPending || !body.trim() || (channel === 'email' && !subject.trim())}
          >
            Send
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
