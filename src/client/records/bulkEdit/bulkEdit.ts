/**
 * What a bulk edit asks and says (POST /api/bulk-edits, docs/api.md): the fields a person may set in bulk (those
 * the form edits, with an input from the field-type table), the selection as the API takes it (the rows chosen,
 * or the list's own query for "all matching"), and the sentences that report progress and outcome.
 */
import type { Identifier } from 'react-admin';
import { listQuery } from '../../providers/dataProvider';
import type { FieldDescriptor } from '../fieldTypes';

/** Field types whose value is one thing a person can pick once for many records. */
const NOT_IN_BULK = new Set<FieldDescriptor['type']>(['attachment', 'addresses', 'note', 'head-count', 'slug']);

export const bulkEditableFields = (descriptors: readonly FieldDescriptor[]) =>
  descriptors.filter(
    (descriptor) => !descriptor.readOnly && !descriptor.withTrade && !NOT_IN_BULK.has(descriptor.type),
  );

export type BulkSelection = { ids: Identifier[] } | { query: { filter?: Record<string, unknown>; search?: string } };

/** The chosen rows, or with `all` every record the list's filter values (search `q` included) find. */
export function bulkSelection(
  selectedIds: readonly Identifier[],
  filterValues: Record<string, unknown> | undefined,
  all: boolean,
): BulkSelection {
  if (!all) return { ids: [...selectedIds] };
  const { filter, search } = listQuery({ filter: filterValues ?? {} }) as {
    filter?: Record<string, unknown>;
    search?: string;
  };
  return { query: { ...(filter ? { filter } : {}), ...(search ? { search } : {}) } };
}

export interface BulkEditRecord {
  id: number;
  resource: string;
  field: string;
  status: 'pending' | 'processing' | 'complete' | 'failed';
  total: number;
  processed: number;
  changed_count: number;
  unchanged_count: number;
  refused_count: number;
  message: string | null;
  undo_status: 'pending' | 'processing' | 'complete' | 'failed' | null;
  restored_count: number;
  kept_count: number;
  progress: number;
  refusals?: Array<{ id: number; name: string; reason: string }>;
}

export type BulkEditStage = 'running' | 'done' | 'undoing' | 'undone';

export function bulkEditStage(record: Pick<BulkEditRecord, 'status' | 'undo_status'>): BulkEditStage {
  if (record.undo_status === 'complete') return 'undone';
  if (record.undo_status === 'pending' || record.undo_status === 'processing') return 'undoing';
  return record.status === 'pending' || record.status === 'processing' ? 'running' : 'done';
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** "120 of 500 sites (24%)", or the undo's "40 of 490 put back (8%)". */
export function bulkProgressText(record: BulkEditRecord, plural: string): string {
  if (bulkEditStage(record) === 'undoing')
    return `${(record.restored_count + record.kept_count).toLocaleString('en')} of ${record.changed_count.toLocaleString('en')} put back (${record.progress}%)`;
  const waiting = record.status === 'pending' ? ', waiting for the worker' : '';
  return `${record.processed.toLocaleString('en')} of ${record.total.toLocaleString('en')} ${plural} (${record.progress}%)${waiting}`;
}

/** The outcome in sentences: what changed, what already held the value, what was refused. */
export function bulkResultText(record: BulkEditRecord, singular: string, plural: string): string[] {
  if (record.status === 'failed') return [record.message ?? 'The bulk edit stopped.'];
  const lines = [`${count(record.changed_count, singular, plural)} changed.`];
  if (record.unchanged_count) lines.push(`${count(record.unchanged_count, 'already had', 'already had')} this value.`);
  if (record.refused_count)
    lines.push(`${count(record.refused_count, `${singular} was`, `${plural} were`)} not changed:`);
  return lines;
}

export function bulkUndoText(record: BulkEditRecord, singular: string, plural: string): string[] {
  const lines = [
    `${count(record.restored_count, singular, plural)} got ${record.restored_count === 1 ? 'its' : 'their'} value back.`,
  ];
  if (record.kept_count)
    lines.push(
      `${count(record.kept_count, `${singular} was`, `${plural} were`)} changed again since and kept that change.`,
    );
  return lines;
}
