/** Pure helpers of the history (revisions: who changed what and when, GET /api/revisions). */

import type { FieldDescriptor } from '../fieldTypes/describe';
import { fieldTypeUIOf } from '../fieldTypes/ui';

export interface Revision {
  id: number;
  revisionable_type: string;
  revisionable_id: number;
  action: 'created' | 'updated' | 'deleted' | 'restored' | 'imported';
  user_id: number | null;
  user_name: string | null;
  /** `{field: [before, after]}` */
  changes: Record<string, [unknown, unknown]> | null;
  import_id: number | null;
  /** `assistant`: the person approved a change the assistant proposed. */
  via?: 'assistant' | null;
  created_at: string;
}

/** Who made a change, as the history shows it. */
export const revisionAuthor = (revision: Pick<Revision, 'user_name' | 'via'>) =>
  `${revision.user_name ?? 'System'}${revision.via === 'assistant' ? ', proposed by the assistant' : ''}`;

export const ACTION_LABELS: Record<Revision['action'], string> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Deleted',
  restored: 'Restored',
  imported: 'Imported',
};

/**
 * The values that bring a record back to how it was right after `revisions[index]` (revisions newest first): for
 * every field changed by a later revision, the value it had before the earliest of those changes. Only `editable`
 * fields are returned (the rest cannot be written back).
 */
export function valuesToRestore(
  revisions: readonly Revision[],
  index: number,
  editable: ReadonlySet<string>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (let i = 0; i < index; i++) {
    for (const [field, change] of Object.entries(revisions[i]?.changes ?? {})) {
      if (!editable.has(field) || !Array.isArray(change)) continue;
      // Older revisions come later in the loop and win: the value before the first later change.
      values[field] = change[0];
    }
  }
  return values;
}

/** Can the version after `revisions[index]` be restored? (Not the current one, and something changed since.) */
export function canRestoreVersion(
  revisions: readonly Revision[],
  index: number,
  editable: ReadonlySet<string>,
): boolean {
  if (index <= 0) return false;
  const action = revisions[index]?.action;
  if (action === 'deleted') return false;
  return Object.keys(valuesToRestore(revisions, index, editable)).length > 0;
}

/** A value as text for the history: lists joined, each value as its field type writes it (choices by label, dates formatted). */
export function historyText(value: unknown, descriptor?: FieldDescriptor): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length ? value.map((item) => historyText(item, descriptor)).join(', ') : '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return descriptor ? fieldTypeUIOf(descriptor.type).history(value, descriptor) : String(value);
}
