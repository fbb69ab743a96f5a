/**
 * Rendered once beside the routes (as react-admin's `notification` slot, so inside every context):
 * notifications, session notices, live updates, analytics, and statistics reloads on route changes.
 */
import { Suspense, lazy, useEffect } from 'react';
import { Notification } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { useSession } from './hooks';
import { mainData } from './services';
import { InactivityWatcher } from '../session/InactivityWatcher';
import { useNotices } from '../session/notices';
import { RealtimeConnector } from '../realtime/RealtimeConnector';
import { SystemUpdatedOverlay } from '../realtime/SystemUpdatedOverlay';
import { PageViewTracker } from '../analytics/PageViewTracker';
import { AssistantPanelHost } from '../assistant/AssistantPanelHost';

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
      <RealtimeConnector />
      <SystemUpdatedOverlay />
      <PageViewTracker />
      <StatisticsOnNavigation />
      <AssistantPanelHost />
    </>
  );
}
