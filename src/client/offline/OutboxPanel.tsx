/** The outbox as the person sees it (the offline indicator's popover): what waits, what needs them, and what to do. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { formatDateTime } from '../i18n/dates';
import type { OutboxItem } from './database';
import type { OfflineState } from './runtime';
import { offline } from './runtime';

export const OFFLINE_SITES_PATH = '/offline-sites';

export function OutboxPanel({
  state,
  onResolve,
  onNavigate,
}: {
  state: OfflineState;
  onResolve: (item: OutboxItem) => void;
  onNavigate: () => void;
}) {
  const waiting = state.items.filter((item) => item.state === 'waiting');
  const attention = state.items.filter((item) => item.state !== 'waiting');
  return (
    <Box sx={{ p: 2 }} data-testid="outbox-panel">
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {state.online ? 'Online' : 'Offline'}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {state.online
          ? waiting.length
            ? 'Changes made on this device are being sent.'
            : 'Everything made on this device has been sent.'
          : 'Visits, notes and site changes you save are kept on this device and sent when the connection returns.'}
      </Typography>
      {attention.length > 0 && (
        <>
          <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
            Needs you
          </Typography>
          <List dense disablePadding>
            {attention.map((item) => (
              <ListItem key={item.key} disableGutters sx={{ display: 'block' }} data-testid="outbox-attention">
                <ListItemText
                  primary={item.label}
                  secondary={
                    item.state === 'conflict' ? 'Someone else changed this record after you did.' : item.message
                  }
                />
                <Box sx={{ display: 'flex', gap: 1 }}>
                  {item.state === 'conflict' ? (
                    <Button size="small" variant="contained" onClick={() => onResolve(item)}>
                      Resolve
                    </Button>
                  ) : (
                    <Button size="small" onClick={() => void offline.discard(item)}>
                      Discard
                    </Button>
                  )}
                </Box>
              </ListItem>
            ))}
          </List>
        </>
      )}
      {waiting.length > 0 && (
        <>
          <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
            Waiting to be sent
          </Typography>
          <List dense disablePadding data-testid="outbox-waiting">
            {waiting.map((item) => (
              <ListItem key={item.key} disableGutters>
                <ListItemText
                  primary={item.label}
                  secondary={`Saved ${formatDateTime(new Date(item.createdAt).toISOString())}`}
                />
              </ListItem>
            ))}
          </List>
        </>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
        {state.online && waiting.length > 0 && (
          <Button size="small" variant="contained" onClick={() => void offline.flush()} disabled={state.sending}>
            Send now
          </Button>
        )}
        <Button size="small" component={RouterLink} to={OFFLINE_SITES_PATH} onClick={onNavigate}>
          Sites on this device
        </Button>
      </Box>
    </Box>
  );
}
