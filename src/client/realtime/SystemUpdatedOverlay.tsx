/** Full-screen '{product} has updated. Please refresh your page.' after a system-updated event. */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { useConfig } from '../app/hooks';
import { useNotices } from '../session/notices';

export function SystemUpdatedOverlay() {
  const { systemUpdated } = useNotices();
  const { name } = useConfig();
  const translate = useTranslate();
  if (!systemUpdated) return null;
  return (
    <Box
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="system-updated-text"
      data-testid="system-updated"
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: (theme) => theme.zIndex.tooltip + 10,
        bgcolor: 'rgba(15, 30, 45, 0.92)',
        color: 'common.white',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 3,
        p: 3,
        textAlign: 'center',
      }}
    >
      <Typography id="system-updated-text" variant="h5" component="p">
        {translate('app.system.updated', { product: name })}
      </Typography>
      <Button variant="contained" color="secondary" size="large" onClick={() => window.location.reload()}>
        {translate('app.system.refresh')}
      </Button>
    </Box>
  );
}
