/**
 * Route guards. Custom routes are not protected by react-admin's requireAuth, so every guarded route goes
 * through RequireAuth (it wraps the default layout) and guest routes through GuestOnly.
 */
import { type ReactNode, useEffect, useLayoutEffect } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../app/hooks';
import { session } from '../app/services';
import { LoadingScreen } from '../layout/LoadingScreen';

/** Signed-out visitors: the full intended path goes to local storage, then to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, checked, endedBy } = useSession();
  useEffect(() => {
    if (!checked && !endedBy) void session.check();
  }, [checked, endedBy]);
  if (user) return <>{children}</>;
  if (endedBy) return <Navigate to="/login" replace />;
  if (!checked) return <LoadingScreen />;
  return <RedirectToLogin />;
}

function RedirectToLogin() {
  const location = useLocation();
  const intended = `${location.pathname}${location.search}${location.hash}`;
  useLayoutEffect(() => {
    session.setIntendedUrl(intended);
  }, [intended]);
  return <Navigate to="/login" replace />;
}

/**
 * Guest routes: a signed-in visitor goes to the dashboard. `holdRedirect` keeps the page while it is
 * itself navigating after a sign-in (the login page sends the person to their intended path).
 */
export function GuestOnly({ children, holdRedirect = false }: { children: ReactNode; holdRedirect?: boolean }) {
  const { user, checked } = useSession();
  useEffect(() => {
    if (!checked) void session.check();
  }, [checked]);
  if (user && !holdRedirect) return <Navigate to="/" replace />;
  return <>{children}</>;
}
