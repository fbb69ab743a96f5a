/** The 'Your session is about to expire' (Inactivity Notice) and 'Session Timeout' modals. */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useLogout, useTranslate } from 'react-admin';
import { activeTimer } from './InactivityWatcher';
import { notices, useNotices } from './notices';

export default function SessionDialogs() {
  const { expiringIn, timedOut } = useNotices();
  const translate = useTranslate();
  const logout = useLogout();
  return (
    <>
      <Dialog
        open={expiringIn !== null}
        aria-labelledby="inactivity-title"
        aria-describedby="inactivity-text"
        data-testid="inactivity-notice"
      >
        <DialogTitle id="inactivity-title">{translate('app.session.expiring_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText id="inactivity-text" aria-live="polite">
            {translate('app.session.expiring_message', { seconds: expiringIn ?? 0, smart_count: expiringIn ?? 0 })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() => {
              activeTimer.current?.stop();
              notices.setExpiringIn(null);
              void logout();
            }}
          >
            {translate('app.session.sign_out')}
          </Button>
          <Button variant="contained" autoFocus onClick={() => activeTimer.current?.stay()}>
            {translate('app.session.stay')}
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog
        open={timedOut}
        onClose={notices.dismissTimedOut}
        aria-labelledby="timeout-title"
        data-testid="session-timeout"
      >
        <DialogTitle id="timeout-title">{translate('app.session.timeout_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('app.session.timeout_message')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" autoFocus onClick={notices.dismissTimedOut}>
            {translate('app.session.ok')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
