/**
 * The routes of the dashboard's neighbours: the activity feed and the reports, each loaded on demand. The shell puts
 * `insightRoutes` inside its layout routes (resources/registry.tsx `layoutRoutes`).
 */
import { Route } from 'react-router-dom';
import { lazyPage } from '../routing/lazyPage';

const ActivityPage = lazyPage('ActivityPage', () => import('../activity/ActivityPage'));
const MarketSharePage = lazyPage('MarketSharePage', () => import('./MarketSharePage'));
const MarketShareSitesPage = lazyPage('MarketShareSitesPage', () => import('./MarketShareSitesPage'));
const ClassificationsReportPage = lazyPage('ClassificationsReportPage', () => import('./ClassificationsReportPage'));
const TaskPerformancePage = lazyPage('TaskPerformancePage', () => import('./TaskPerformancePage'));
const UserPerformancePage = lazyPage('UserPerformancePage', () => import('./UserPerformancePage'));

/** Paths of these screens (SPEC section 2 names /actions and /reports/market-share; the others are ours). */
export const INSIGHT_PATHS = ['/actions', '/reports/market-share', '/reports/market-share/sites', '/reports/classifications', '/reports/task-performance', '/reports/user-performance'] as const;

export const insightRoutes = [
  <Route key="actions" path="/actions" element={<ActivityPage />} />,
  <Route key="market-share" path="/reports/market-share" element={<MarketSharePage />} />,
  <Route key="market-share-sites" path="/reports/market-share/sites" element={<MarketShareSitesPage />} />,
  <Route key="classifications" path="/reports/classifications" element={<ClassificationsReportPage />} />,
  <Route key="task-performance" path="/reports/task-performance" element={<TaskPerformancePage />} />,
  <Route key="user-performance" path="/reports/user-performance" element={<UserPerformancePage />} />,
  <Route key="goals" path="/reports/goals" element={<UserPerformancePage />} />,
];
