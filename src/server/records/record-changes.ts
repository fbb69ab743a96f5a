import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.generated.js';
import type { WriteCause } from '../events/app-events.js';

/** The job that turns record changes into automation runs and webhook deliveries (automations/change-listeners.ts). */
export const RECORD_CHANGES_JOB = 'record-changes';

export type ChangeEvent = 'created' | 'updated' | 'deleted' | 'restored';

/** A committed change of one record, as automations and webhooks read it from the outbox. */
export interface RecordChange {
  id: number;
  record_type: string;
  record_id: number;
  event: ChangeEvent;
  changes: Record<string, [unknown, unknown]>;
  user_id: number | null;
  cause: WriteCause | null;
  /** A deleted record as it was. */
  record: Record<string, unknown> | null;
}

export interface NewRecordChange {
  type: string;
  id: number;
  event: ChangeEvent;
  changes: Record<string, unknown>;
  cause?: WriteCause;
  record?: Record<string, unknown>;
}

/**
 * Writes record changes to the outbox (`record_changes`, migration 071) inside the transaction of the write they
 * describe, for the record types an enabled record-event automation or an active webhook watches (asked of the
 * database in the same statement, so one made a moment ago counts at once), and queues the job that acts on them
 * unless one is already waiting. An update that changed nothing is no change.
 */
export async function writeRecordChanges(
  trx: Kysely<DB>,
  userId: number | null,
  changes: readonly NewRecordChange[],
): Promise<void> {
  const rows = changes
    .filter((change) => change.event !== 'updated' || Object.keys(change.changes).length > 0)
    .map((change) => ({
      type: change.type,
      id: change.id,
      event: change.event,
      changes: change.changes,
      cause: change.cause ?? null,
      record: change.record ?? null,
    }));
  if (!rows.length) return;
  // One plain INSERT, not a WITH: the write tracking (db/write-tracking.ts) knows the one table it writes, where a
  // statement of unknown tables would count as a write to the account tables and drop every kept session.
  const { rows: written } = await sql<{ one: number }>`insert into record_changes
      (record_type, record_id, event, changes, user_id, cause, record)
    select x.type, x.id, x.event, x.changes, ${userId}::integer, x.cause, x.record
    from json_to_recordset(${JSON.stringify(rows)}::json)
      as x(type text, id integer, event text, changes jsonb, cause jsonb, record jsonb)
    where x.type in (
      select record_type from automations
      where enabled and deleted_at is null and trigger->>'kind' in ('created', 'updated', 'deleted', 'field_changed')
      union select record_type from webhooks where deleted_at is null and paused_at is null
    )
    returning 1 as one`.execute(trx);
  if (!written.length) return;
  // A job already running may have read the outbox before this commits: only a queued one is sure to see it.
  await sql`insert into jobs (type, payload, run_at)
    select ${RECORD_CHANGES_JOB}, '{}'::jsonb, now()
    where not exists (select 1 from jobs where type = ${RECORD_CHANGES_JOB} and status = 'queued')`.execute(trx);
}

/** The oldest `limit` changes in the outbox (read outside the transaction that takes them: see takeRecordChanges). */
export async function pendingRecordChanges(db: Kysely<DB>, limit: number): Promise<RecordChange[]> {
  const rows = await db.selectFrom('record_changes').selectAll().orderBy('id').limit(limit).execute();
  return rows.map(
    (row) => ({ ...row, id: Number(row.id), record_id: Number(row.record_id) }) as unknown as RecordChange,
  );
}

/**
 * Inside the transaction that writes the runs and deliveries of these changes: deletes them from the outbox and
 * answers the ids this transaction took (another worker may have taken some first: those are not to be acted on).
 */
export async function takeRecordChanges(trx: Kysely<DB>, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await trx.deleteFrom('record_changes').where('id', 'in', ids).returning('id').execute();
  return new Set(rows.map((row) => Number(row.id)));
}
