/**
 * Reusable slide-in side panel (SPEC section 2): from the right (or left), a title, a close button, over a
 * dimmed backdrop; full width on small screens, 450 px from the medium breakpoint up. `onOpened` and
 * `onClosed` fire when the slide has finished (SPEC section 4: opened and closed notifications).
 */

import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { SIDE_PANEL_WIDTH } from '../theme/theme';

export interface SidePanelProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  anchor?: 'right' | 'left';
  children?: ReactNode;
  onOpened?: () => void;
  onClosed?: () => void;
}

export function SidePanel({ open, onClose, title, anchor = 'right', children, onOpened, onClosed }: SidePanelProps) {
  const translate = useTranslate();
  return (
    <Drawer
      anchor={anchor}
      open={open}
      onClose={onClose}
      slotProps={{
        paper: {
          sx: { width: { xs: '100%', md: SIDE_PANEL_WIDTH } },
          role: 'dialog',
          'aria-label': typeof title === 'string' ? title : undefined,
        } as object,
        transition: { onEntered: onOpened, onExited: onClosed } as object,
      }}
    >
      <Box
        sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}
      >
        <Typography component="h2" variant="h6" sx={{ flex: 1, minWidth: 0 }} noWrap>
          {title}
        </Typography>
        <IconButton onClick={onClose} aria-label={translate('app.panel.close')} edge="end">
          <CloseIcon />
        </IconButton>
      </Box>
      <Box sx={{ p: 2, overflowY: 'auto', flex: 1 }}>{children}</Box>
    </Drawer>
  );
}
