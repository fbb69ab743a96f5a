import type { FeatureMenuItems } from '../layout/menuModel';
import { readableReports } from './catalogue';

/** The sidebar's Reports group: the reports this person may open (none, and no group, when there are none). */
export const reportsMenu: FeatureMenuItems = ({ user, features, translate }) => {
  const reports = readableReports(user, features);
  if (!reports.length) return [];
  return [
    {
      key: 'reports',
      label: translate('app.menu.reports', 'Reports'),
      icon: 'reports',
      children: reports.map((report) => ({
        key: `reports-${report.key}`,
        label: translate(`app.reports.${report.key}`, report.label),
        to: report.path,
        icon: 'category' as const,
      })),
    },
  ];
};
