/**
 * The top bar's offline indicator (docs/offline.md): says "Offline" with no connection and how many changes wait to
 * be sent or need the person (a conflict, a refusal); nothing when all is sent. It is a live region, so the change is
 * read out, and a button opening the outbox: what waits, "Send now", conflicts to resolve, the sites on this device.
 */

import CloudOffIcon from '@mui/icons-material/CloudOffOutlined';
import CloudUploadIcon from '@mui/icons-material/CloudUploadOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Popover from '@mui/material/Popover';
import { lazy, Suspense, useState } from 'react';
import type { OutboxItem } from './database';
import { OutboxPanel } from './OutboxPanel';
import { offlineSummary, useOffline } from './useOffline';

const ConflictDialog = lazy(() => import('./ConflictDialog'));

export function OfflineIndicator() {
  const state = useOffline();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [resolving, setResolving] = useState<OutboxItem | null>(null);
  const text = offlineSummary(state);
  return (
    <Box component="span" role="status" aria-live="polite" sx={{ display: 'inline-flex', flexShrink: 0 }}>
      {text && (
        <Button
          size="small"
          variant={state.online ? 'outlined' : 'contained'}
          color={state.items.some((item) => item.state !== 'waiting') ? 'error' : 'warning'}
          startIcon={state.online ? <CloudUploadIcon /> : <CloudOffIcon />}
          onClick={(event) => setAnchor(event.currentTarget)}
          aria-haspopup="dialog"
          aria-expanded={Boolean(anchor)}
          data-testid="offline-indicator"
          sx={{ whiteSpace: 'nowrap', flexShrink: 0, minHeight: 36 }}
        >
          {text}
        </Button>
      )}
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            sx: { width: 'min(380px, calc(100vw - 16px))' },
            role: 'dialog',
            'aria-label': 'Changes on this device',
          } as object,
        }}
      >
        <OutboxPanel
          state={state}
          onNavigate={() => setAnchor(null)}
          onResolve={(item) => {
            setAnchor(null);
            setResolving(item);
          }}
        />
      </Popover>
      {resolving && (
        <Suspense fallback={null}>
          <ConflictDialog item={resolving} onClose={() => setResolving(null)} />
        </Suspense>
      )}
    </Box>
  );
}
