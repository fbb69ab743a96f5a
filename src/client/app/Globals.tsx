/**
 * Rendered once beside the routes (as react-admin's `notification` slot, so inside every context):
 * notifications, session notices, statistics reloads on route changes, and what each feature mounts there
 * (`globals`: live updates, analytics, the assistant's panel).
 */
import { lazy, Suspense, useEffect } from 'react';
import { Notification } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { InactivityWatcher } from '../session/InactivityWatcher';
import { useNotices } from '../session/notices';
import { FEATURES } from './features';
import { useSession } from './hooks';
import { mainData } from './services';

const SessionDialogs = lazy(() => import('../session/SessionDialogs'));

/** Statistics reload on every route path change (SPEC section 4). */
function StatisticsOnNavigation() {
  const { pathname } = useLocation();
  const { user } = useSession();
  const signedIn = user !== null;
  useEffect(() => {
    if (signedIn) void mainData.load('statistics');
  }, [pathname, signedIn]);
  return null;
}

function SessionNotices() {
  const { expiringIn, timedOut } = useNotices();
  if (expiringIn === null && !timedOut) return null;
  return (
    <Suspense fallback={null}>
      <SessionDialogs />
    </Suspense>
  );
}

export function Globals() {
  return (
    <>
      <Notification />
      <SessionNotices />
      <InactivityWatcher />
      <StatisticsOnNavigation />
      {FEATURES.flatMap((feature) => feature.globals ?? [])}
    </>
  );
}
