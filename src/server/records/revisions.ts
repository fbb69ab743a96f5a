import { type Kysely, sql } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import type { WriteCause } from '../events/app-events.js';
import { type ChangeEvent, writeRecordChanges } from './record-changes.js';

export type RevisionAction = 'created' | 'updated' | 'deleted' | 'restored' | 'imported';

/** One entry of a record's history: what changed, as `{field: [before, after]}`. */
export interface Revision {
  type: string;
  id: number;
  action: RevisionAction;
  changes: Record<string, unknown>;
  /** The import that made the change (imports, undo and the protected-fields rule read it). */
  importId?: number | null;
  /** `assistant` when the person approved a change the assistant proposed. */
  via?: 'assistant' | null;
  /** The bulk change the revision belongs to (a region load, an undo): the activity feed shows a batch as one entry. */
  batchId?: string | null;
  /**
   * What automations and webhooks hear of it (records/record-changes.ts): by default the action itself; an import's
   * row says `created` or `updated`; null: nothing (a field's values rewritten because its record type changed).
   */
  event?: ChangeEvent | null;
  /** The automation run that made the write: how deep a chain of automations it is (loop protection). */
  cause?: WriteCause;
  /** A deleted record as it was (what a webhook's message and an automation's run of the deletion read). */
  record?: Record<string, unknown>;
}

/** Rows per statement: the whole slice travels as one JSON parameter, not thousands of bound values. */
const SLICE = 1_000;

/**
 * The one writer of `revisions` rows, used by single writes (one row) and batch writes (thousands) alike, inside the
 * transaction of the write they describe. The author is the person acting: the administrator when impersonating,
 * nobody (null) when the server acts on its own. The record changes automations and webhooks wait for are written
 * beside them (the outbox), in the same transaction.
 */
export async function writeRevisions(
  trx: Kysely<DB>,
  user: AuthUser | null,
  revisions: readonly Revision[],
): Promise<void> {
  const userId = authorOf(user);
  for (let start = 0; start < revisions.length; start += SLICE) {
    const rows = revisions.slice(start, start + SLICE).map((r) => ({
      type: r.type,
      id: r.id,
      action: r.action,
      changes: r.changes,
      import_id: r.importId ?? null,
      via: r.via ?? null,
      batch_id: r.batchId ?? null,
    }));
    await sql`insert into revisions (revisionable_type, revisionable_id, action, user_id, changes, import_id, via, batch_id)
      select x.type, x.id, x.action, ${userId}::integer, x.changes, x.import_id, x.via, x.batch_id
      from json_to_recordset(${JSON.stringify(rows)}::json) as x(type text, id integer, action text, changes jsonb, import_id integer, via text, batch_id text)`.execute(
      trx,
    );
  }
  await writeRecordChanges(
    trx,
    user?.id ?? null,
    revisions.flatMap((r) => {
      const event = r.event === undefined ? (r.action === 'imported' ? null : r.action) : r.event;
      return event ? [{ type: r.type, id: r.id, event, changes: r.changes, cause: r.cause, record: r.record }] : [];
    }),
  );
}

/** Who a change is kept as made by: the administrator when impersonating, nobody (null) when the server acts. */
export const authorOf = (user: AuthUser | null): number | null => user?.impersonator?.id ?? user?.id ?? null;

/** `{field: [before, after]}` for every value that differs. */
export function changesOf(before: Record<string, any>, after: Record<string, any>) {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [key, value] of Object.entries(after)) {
    if (key === 'password') {
      if (before[key] !== value) changes[key] = ['••••', '••••'];
      continue;
    }
    const old = before[key] ?? null;
    // A value where there was none (every value of a record created, row after row of an import): nothing to compare.
    if (old === null) {
      if (value !== undefined && value !== null) changes[key] = [null, value];
      continue;
    }
    if (!sameValue(old, value ?? null)) changes[key] = [old, value ?? null];
  }
  return changes;
}

function sameValue(a: unknown, b: unknown) {
  if (a instanceof Date || b instanceof Date) return new Date(a as any).getTime() === new Date(b as any).getTime();
  if (typeof a === 'number' || typeof b === 'number') return a !== null && b !== null && Number(a) === Number(b);
  return JSON.stringify(a) === JSON.stringify(b);
}
