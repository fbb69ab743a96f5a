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
 * The record types an enabled record-event automation or an active webhook watches, asked of the database inside the
 * writing transaction, so one made a moment ago counts at once.
 */
const WATCHED_TYPES = sql`select record_type from automations
  where enabled and deleted_at is null and trigger->>'kind' in ('created', 'updated', 'deleted', 'field_changed')
  union select record_type from webhooks where deleted_at is null and paused_at is null`;

/**
 * A batch of at least this many changes asks which of its types are watched before it serialises anything: an import
 * nobody listens to then builds, sends and parses no outbox rows (10,000 rows' changes are megabytes of JSON). A
 * single write keeps one statement, the watched types asked inside it.
 */
const ASK_FIRST_FROM = 50;

/**
 * Writes record changes to the outbox (`record_changes`, migration 071) inside the transaction of the write they
 * describe, for the record types an enabled record-event automation or an active webhook watches, and queues the job
 * that acts on them unless one is already waiting. An update that changed nothing is no change.
 */
export async function writeRecordChanges(
  trx: Kysely<DB>,
  userId: number | null,
  changes: readonly NewRecordChange[],
): Promise<void> {
  let kept = changes.filter((change) => change.event !== 'updated' || Object.keys(change.changes).length > 0);
  if (kept.length >= ASK_FIRST_FROM) {
    const watched = await watchedTypes(trx, kept);
    kept = kept.filter((change) => watched.has(change.type));
  }
  if (!kept.length) return;
  const rows = kept.map((change) => ({
    type: change.type,
    id: change.id,
    event: change.event,
    changes: change.changes,
    cause: change.cause ?? null,
    record: change.record ?? null,
  }));
  // One plain INSERT, not a WITH: the write tracking (db/write-tracking.ts) knows the one table it writes, where a
  // statement of unknown tables would count as a write to the account tables and drop every kept session.
  const { rows: written } = await sql<{ one: number }>`insert into record_changes
      (record_type, record_id, event, changes, user_id, cause, record)
    select x.type, x.id, x.event, x.changes, ${userId}::integer, x.cause, x.record
    from json_to_recordset(${JSON.stringify(rows)}::json)
      as x(type text, id integer, event text, changes jsonb, cause jsonb, record jsonb)
    where x.type in (${WATCHED_TYPES})
    returning 1 as one`.execute(trx);
  if (!written.length) return;
  // A job already running may have read the outbox before this commits: only a queued one is sure to see it.
  await sql`insert into jobs (type, payload, run_at)
    select ${RECORD_CHANGES_JOB}, '{}'::jsonb, now()
    where not exists (select 1 from jobs where type = ${RECORD_CHANGES_JOB} and status = 'queued')`.execute(trx);
}

/** Which of the changes' record types are watched (WATCHED_TYPES). */
async function watchedTypes(trx: Kysely<DB>, changes: readonly NewRecordChange[]): Promise<Set<string>> {
  const types = [...new Set(changes.map((change) => change.type))];
  const { rows } = await sql<{ record_type: string }>`select record_type from (${WATCHED_TYPES}) as watched
    where record_type = any(${types}::text[])`.execute(trx);
  return new Set(rows.map((row) => row.record_type));
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
