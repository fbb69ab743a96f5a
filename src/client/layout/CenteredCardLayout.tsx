/** Basic centred card layout with the logo linking home (SPEC section 2, layouts). */

import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useConfig } from '../app/hooks';
import { FirstPaintMark } from './firstPaint';

export function CenteredCardLayout({ children }: { children: ReactNode }) {
  const config = useConfig();
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 3,
        px: 2,
        bgcolor: 'background.default',
      }}
    >
      <Box
        component={RouterLink}
        to="/"
        aria-label={`${config.name} home`}
        sx={{ display: 'flex', alignItems: 'center', gap: 1.5, textDecoration: 'none', color: 'text.primary' }}
      >
        <Box component="img" src={config.logo_url || '/logo.svg'} alt="" sx={{ width: 48, height: 48 }} />
        <Typography component="span" variant="h6" sx={{ fontWeight: 700 }}>
          {config.name}
        </Typography>
      </Box>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 480, p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
        {children}
      </Paper>
      <FirstPaintMark />
    </Box>
  );
}
