/** Why figures are missing: a 403 is said plainly (the person may not see them), anything else as a failure. */
import Alert from '@mui/material/Alert';

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const status = (error as { status?: number }).status;
  const message = (error as { message?: string }).message;
  return (
    <Alert severity={status === 403 ? 'info' : 'error'} sx={{ mb: 2 }}>
      {status === 403
        ? (message ?? 'You do not have permission to see this.')
        : `This could not be loaded. ${message ?? ''}`}
    </Alert>
  );
}
