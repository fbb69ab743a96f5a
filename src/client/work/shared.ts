/** What the work screens share: the owner of notes, tasks and documents, and keeping the sidebar counts current. */
import { reloadMainData } from '../app/hooks';

export interface Owner {
  /** Record type (`site`, `vehicle`). */
  type: string;
  id: number | string;
}

export { TASK_TYPES, taskTypeLabel } from '../../common/task-types';

/** Our own changes are not echoed to this tab, so the sidebar counts (open tasks, unread notifications) reload here. */
export function refreshCounts() {
  void reloadMainData('statistics');
}

export function formatSize(bytes: unknown): string {
  const size = Number(bytes);
  if (!Number.isFinite(size)) return '';
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}
