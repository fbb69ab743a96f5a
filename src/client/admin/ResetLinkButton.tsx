/**
 * Makes a password reset link for a user (POST /api/users/{id}/password-reset-link, needs user:update) and shows it
 * once, with a copy button: for when no mail server is set, or the mail does not arrive. The link is not kept here:
 * closing the dialog forgets it, and making another voids it.
 */

import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import LinkIcon from '@mui/icons-material/Link';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useRef, useState } from 'react';
import { formatDateTime } from '../i18n/dates';
import { copyText } from '../layout/copy-text';
import { useAppDataProvider } from '../records/hooks';

interface Made {
  link: string;
  expires_at: string;
}

export function ResetLinkButton({ user }: { user: { id: number; name: string; first_name?: string } }) {
  const dataProvider = useAppDataProvider();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<Made | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const firstName = user.first_name || user.name.split(' ')[0];

  const close = () => {
    setOpen(false);
    setMade(null);
    setError(null);
    setCopied(null);
  };
  const make = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await dataProvider.action('users', { id: user.id, action: 'password-reset-link' });
      setMade(answer.data as Made);
    } catch (failure) {
      setError((failure as Error).message || 'The link could not be made. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size="small" variant="outlined" startIcon={<LinkIcon />} onClick={() => setOpen(true)}>
        Reset link
      </Button>
      <Dialog open={open} onClose={close} maxWidth="sm" fullWidth aria-labelledby="reset-link-title">
        <DialogTitle id="reset-link-title">Password reset link for {user.name}</DialogTitle>
        <DialogContent>
          {made ? (
            <>
              <DialogContentText sx={{ mb: 2 }}>
                Send this link to {firstName} through a channel you trust. It works once, until{' '}
                {formatDateTime(made.expires_at)}. It is shown only now: once you close this window it cannot be seen
                again.
              </DialogContentText>
              <TextField
                inputRef={field}
                value={made.link}
                label="Reset link"
                fullWidth
                multiline
                slotProps={{
                  htmlInput: { readOnly: true, spellCheck: false },
                  input: { sx: { fontFamily: 'monospace' } },
                }}
                onFocus={(event) => event.target.select()}
              />
              {copied !== null && (
                <Alert severity={copied ? 'success' : 'warning'} sx={{ mt: 2 }} role="status">
                  {copied ? 'Copied.' : 'Copying did not work here: select the link and copy it.'}
                </Alert>
              )}
            </>
          ) : (
            <>
              <DialogContentText>
                Make a link with which {firstName} chooses a new password, for when the reset mail does not reach them.
                Any earlier reset link of theirs stops working.
              </DialogContentText>
              {error && (
                <Alert severity="error" sx={{ mt: 2 }}>
                  {error}
                </Alert>
              )}
            </>
          )}
        </DialogContent>
        <DialogActions>
          {made ? (
            <>
              <Button onClick={close}>Done</Button>
              <Button
                variant="contained"
                startIcon={<ContentCopyIcon />}
                onClick={async () => setCopied(await copyText(made.link, field.current))}
              >
                Copy link
              </Button>
            </>
          ) : (
            <>
              <Button onClick={close}>Cancel</Button>
              <Button variant="contained" onClick={make} disabled={busy}>
                Make the link
              </Button>
            </>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
