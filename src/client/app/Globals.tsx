/**
 * Rendered once beside the routes (as react-admin's `notification` slot, so inside every context):
 * notifications, session notices, live updates, analytics, and statistics reloads on route changes.
 */
import { lazy, Suspense, useEffect } from 'react';
import { Notification } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { PageViewTracker } from '../analytics/PageViewTracker';
import { AssistantPanelHost } from '../assistant/AssistantPanelHost';
import { useFirstPaintDone } from '../layout/firstPaint';
import { RealtimeConnector } from '../realtime/RealtimeConnector';
import { SystemUpdatedOverlay } from '../realtime/SystemUpdatedOverlay';
import { InactivityWatcher } from '../session/InactivityWatcher';
import { useNotices } from '../session/notices';
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
  // The assistant's panel renders once the first screen has painted (layout/firstPaint.ts). The realtime connection
  // starts with the app: its code loads on demand after the first commit, and a screen opened at once must not miss
  // the changes made meanwhile.
  const painted = useFirstPaintDone();
  return (
    <>
      <Notification />
      <SessionNotices />
      <InactivityWatcher />
      <RealtimeConnector />
      <SystemUpdatedOverlay />
      <PageViewTracker />
      <StatisticsOnNavigation />
      {painted && <AssistantPanelHost />}
    </>
  );
}
