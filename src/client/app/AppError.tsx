/** Last-resort error screen for errors outside the layout (inside it, react-admin's Error shows). */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';

export function AppError({ error }: { error: Error }) {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Alert
        severity="error"
        sx={{ maxWidth: 560 }}
        action={
          <Button color="inherit" onClick={() => window.location.reload()}>
            Reload
          </Button>
        }
      >
        Something went wrong: {error.message}
      </Alert>
    </Box>
  );
}
