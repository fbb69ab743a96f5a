/**
 * The reports as a list: where each lives and who may open it. The sidebar, the dashboard and the links between
 * the reports all read it, so a report is offered exactly to the people the server answers (report-routes.ts:
 * `report:read`, the reports feature, and reading what the report counts).
 */
import { can, canOnEntity, type PermissionSubject } from '../../common/permissions';

export interface ReportPage {
  key: string;
  path: string;
  label: string;
  /** Besides `report:read`: the record types the report counts (any one of them suffices). */
  reads: readonly string[];
}

export const REPORT_PAGES: readonly ReportPage[] = [
  { key: 'market-share', path: '/reports/market-share', label: 'Market share', reads: ['site'] },
  { key: 'classifications', path: '/reports/classifications', label: 'Classifications', reads: ['member', 'contact'] },
  { key: 'task-performance', path: '/reports/task-performance', label: 'Task performance', reads: ['task'] },
  { key: 'user-performance', path: '/reports/user-performance', label: 'User performance', reads: [] },
];

/** The reports this person may open: none when the reports feature is switched off (as the server decides). */
export function readableReports(
  user: PermissionSubject | null | undefined,
  features: ReadonlyArray<{ slug: string; enabled: boolean }>,
): ReportPage[] {
  const switchedOff = features.some((feature) => feature.slug === 'reports' && !feature.enabled);
  if (switchedOff || !can(user, 'report:read')) return [];
  return REPORT_PAGES.filter(
    (page) => page.reads.length === 0 || page.reads.some((entity) => canOnEntity(user, entity, 'read')),
  );
}
