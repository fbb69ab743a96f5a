import { useAuthProvider } from 'react-admin';
import type { AppAuthProvider } from '../providers/authProvider';

/** While impersonating: back to the administrator, who lands on the users list they came from. */
export function useLeaveImpersonation(): () => Promise<void> {
  const authProvider = useAuthProvider() as unknown as AppAuthProvider;
  return async () => {
    await authProvider.leaveImpersonation();
    window.location.assign('/users');
  };
}
