/** While an administrator acts as someone else: a bar across the top of every page saying so, with the way back. */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useSession } from '../app/hooks';
import { useLeaveImpersonation } from './useLeaveImpersonation';

export function ImpersonationBar() {
  const { user } = useSession();
  const leaveImpersonation = useLeaveImpersonation();
  if (!user?.impersonator) return null;
  return (
    <Alert
      severity="warning"
      variant="filled"
      square
      data-testid="impersonation-bar"
      sx={{
        position: 'sticky',
        top: { xs: 56, sm: 64 },
        zIndex: (theme) => theme.zIndex.appBar - 1,
        borderRadius: 0,
        alignItems: 'center',
      }}
      action={
        <Button
          color="inherit"
          size="small"
          variant="outlined"
          onClick={() => void leaveImpersonation()}
          data-testid="impersonation-leave"
        >
          Back to {user.impersonator.name}
        </Button>
      }
    >
      You are acting as {user.name}
      {user.role?.name ? ` (${user.role.name})` : ''}: you see and do what they may.
    </Alert>
  );
}
