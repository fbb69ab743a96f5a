/** The reports, each loaded on demand (SPEC section 2 names /reports/market-share; the others are ours). */
import { Route } from 'react-router-dom';
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';
import { reportsMenu } from './menu';

const MarketSharePage = lazyPage('MarketSharePage', () => import('./MarketSharePage'));
const MarketShareSitesPage = lazyPage('MarketShareSitesPage', () => import('./MarketShareSitesPage'));
const ClassificationsReportPage = lazyPage('ClassificationsReportPage', () => import('./ClassificationsReportPage'));
const TaskPerformancePage = lazyPage('TaskPerformancePage', () => import('./TaskPerformancePage'));
const UserPerformancePage = lazyPage('UserPerformancePage', () => import('./UserPerformancePage'));

const reports: ClientFeature = {
  menuItems: reportsMenu,
  routes: [
    <Route key="market-share" path="/reports/market-share" element={<MarketSharePage />} />,
    <Route key="market-share-sites" path="/reports/market-share/sites" element={<MarketShareSitesPage />} />,
    <Route key="classifications" path="/reports/classifications" element={<ClassificationsReportPage />} />,
    <Route key="task-performance" path="/reports/task-performance" element={<TaskPerformancePage />} />,
    <Route key="user-performance" path="/reports/user-performance" element={<UserPerformancePage />} />,
    <Route key="goals" path="/reports/goals" element={<UserPerformancePage />} />,
  ],
};

export default reports;
