/**
 * `/unsubscribe?token=` (no sign-in): where an email's unsubscribe link leads. Nothing changes until the person
 * presses the button, so a mail scanner that opens links unsubscribes nobody.
 */
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useMessagesApi } from './api';

export default function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const api = useMessagesApi();
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const stop = async () => {
    setPending(true);
    setError(null);
    try {
      setDone(await api.unsubscribe(token));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'That did not work. Try again.');
    } finally {
      setPending(false);
    }
  };
  return (
    <Stack component="main" sx={{ minHeight: '100vh', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 480, width: '100%' }}>
        <Stack spacing={2}>
          <Typography variant="h5" component="h1">
            Unsubscribe
          </Typography>
          {done ? (
            <Typography role="status">{done}</Typography>
          ) : (
            <>
              <Typography>Stop getting emails from us at this address?</Typography>
              {error && (
                <Typography color="error" role="alert">
                  {error}
                </Typography>
              )}
              <div>
                <Button variant="contained" onClick={() => void stop()} disabled={pending || !token}>
                  Stop the emails
                </Button>
              </div>
            </>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
