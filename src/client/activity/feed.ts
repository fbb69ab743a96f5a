/** The activity feed's entries (GET /api/actions) and how they read. */
import type { FeedBatchPart, FeedKind } from '../../common/report-types';

export type { FeedKind };

/** A bulk change shown as one entry (an import, its undo, a region upload or Census load). */
export interface FeedGroup {
  key: string;
  count: number;
  parts: FeedBatchPart[];
  undo: boolean;
  first_at: string;
}

export interface FeedEntry {
  id: number;
  kind: FeedKind;
  action: string;
  type: string;
  type_name: string;
  resource: string | null;
  record_id: number | null;
  record_label: string | null;
  record_deleted: boolean;
  link: string | null;
  parent: { type: string; id: number; label: string; link: string | null } | null;
  user: { id: number; name: string } | null;
  fields: string[];
  import_id: number | null;
  group: FeedGroup | null;
  created_at: string;
}

export interface FeedAnswer {
  data: FeedEntry[];
  meta: { has_more: boolean; next_before: number | null; newest: number | null };
}

export const VERBS: Record<FeedKind, string> = {
  created: 'created',
  updated: 'changed',
  deleted: 'deleted',
  restored: 'restored',
  imported: 'imported',
  'note-added': 'added a note',
  'task-completed': 'completed',
  'import-finished': 'finished',
};

export const COLORS: Partial<Record<FeedKind, 'success' | 'error' | 'info' | 'warning' | 'primary'>> = {
  created: 'success',
  deleted: 'error',
  restored: 'info',
  imported: 'warning',
  'task-completed': 'success',
  'note-added': 'primary',
  'import-finished': 'info',
};

const number = new Intl.NumberFormat('en-US');

/** "a", "a and b", "a, b and c" */
function listOf(items: string[]) {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "imported 3,012 regions", "deleted 36 sites and 2 contacts; changed 4 sites" */
export function partsText(parts: FeedBatchPart[]) {
  const actions = [...new Set(parts.map((p) => p.action))];
  return actions
    .map((action) => {
      const counted = parts
        .filter((p) => p.action === action)
        .map((p) => `${number.format(p.count)} ${(p.count === 1 ? p.type_name : p.type_plural).toLowerCase()}`);
      return `${VERBS[action as FeedKind] ?? action} ${listOf(counted)}`;
    })
    .join('; ');
}

export function describe(entry: FeedEntry): string {
  const who = entry.user?.name || 'The system';
  if (entry.group) {
    const file = entry.record_label;
    if (entry.group.undo) return `${who} undid the import${file ? ` ${file}` : ''}: ${partsText(entry.group.parts)}`;
    return `${who} ${partsText(entry.group.parts)}${file ? ` from ${file}` : ''}`;
  }
  const what = `${entry.type_name.toLowerCase()} ${entry.record_label}`;
  if (entry.kind === 'note-added') return `${who} added a note${entry.parent ? ` on ${entry.parent.label}` : ''}`;
  if (entry.kind === 'updated' && entry.fields.length)
    return `${who} changed ${entry.fields.slice(0, 3).join(', ').replace(/_/g, ' ')}${entry.fields.length > 3 ? '…' : ''} of ${what}`;
  return `${who} ${VERBS[entry.kind]} ${what}`;
}

export function timeAgo(iso: string, now: number) {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export function initials(name: string | undefined) {
  if (!name) return '·';
  const parts = name.split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? parts[parts.length - 1][0] : '')).toUpperCase();
}
