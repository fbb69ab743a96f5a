import os from 'node:os';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.generated.js';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface Job<P = Record<string, any>> {
  id: number;
  type: string;
  payload: P;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  locked_by: string | null;
  locked_at: Date | null;
  progress: unknown;
  error: string | null;
}

/** This process's name in `jobs.locked_by`: host and pid, so a restarted process can tell its dead predecessor's jobs. */
export const WORKER_ID = `${os.hostname()}:${process.pid}`;

/**
 * Adds a job; it runs as soon as a worker is free (or at `runAt`). Pass a transaction to enqueue atomically with other
 * writes. `startedBy`: the person whose heavy work it is (an import, export, bulk edit), counted against their share
 * until it ends (http/heavy-work.ts).
 */
export async function enqueueJob(
  db: Kysely<DB>,
  type: string,
  payload: Record<string, unknown>,
  options: { runAt?: Date; maxAttempts?: number; startedBy?: number } = {},
): Promise<number> {
  const withStarter = options.startedBy === undefined ? payload : { ...payload, started_by: options.startedBy };
  const [id] = await enqueueJobs(db, type, [{ payload: withStarter, runAt: options.runAt }], options);
  return id!;
}

/** Adds several jobs of one type in one statement (as enqueueJob, each with its payload and time); their ids in order. */
export async function enqueueJobs(
  db: Kysely<DB>,
  type: string,
  jobs: ReadonlyArray<{ payload: Record<string, unknown>; runAt?: Date | null }>,
  options: { maxAttempts?: number } = {},
): Promise<number[]> {
  if (!jobs.length) return [];
  const now = new Date();
  const rows = await db
    .insertInto('jobs')
    .values(
      jobs.map((job) => ({
        type,
        payload: JSON.stringify(job.payload),
        run_at: job.runAt ?? now,
        max_attempts: options.maxAttempts ?? 5,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((row) => Number(row.id));
}

/** Queues a job of `type` to run now, unless one of that type is already queued or running. */
export async function enqueueUnlessPending(db: Kysely<DB>, type: string): Promise<void> {
  await sql`insert into jobs (type, payload, run_at)
    select ${type}, '{}'::jsonb, now() where not exists (select 1 from jobs where type = ${type} and status in ('queued', 'running'))`.execute(
    db,
  );
}

/**
 * Claims the next due job with `for update skip locked`, so two workers (processes) never take the same one.
 * Works on PGlite and PostgreSQL alike.
 */
export async function claimJob(db: Kysely<DB>, workerId: string, types: readonly string[]): Promise<Job | null> {
  return (await claimJobs(db, workerId, Object.fromEntries(types.map((type) => [type, 1]))))[0] ?? null;
}

/**
 * Claims, in one statement, the oldest due job of these types and up to `upTo[type]` due jobs of its type in all
 * (oldest first), each with `for update skip locked` (a batch: JobHandlerOptions.batch).
 */
export async function claimJobs(
  db: Kysely<DB>,
  workerId: string,
  upTo: Readonly<Record<string, number>>,
): Promise<Job[]> {
  const types = Object.keys(upTo);
  if (types.length === 0) return [];
  // The first row is locked by this statement, so the second select (same type, skip locked) does not skip it. The
  // statement is an UPDATE of `jobs` from its first word: a poll that claims nothing is then known to have written
  // nothing (db/write-tracking.ts), and the read cache's answers and kept totals outlive it.
  const result = await sql<Job>`
    update jobs set status = 'running', locked_by = ${workerId}, locked_at = now(), attempts = attempts + 1, updated_at = now()
    where id in (
      with first as (
        select id, type from jobs
        where status = 'queued' and run_at <= now() and type in (${sql.join(types)})
        order by run_at, id
        for update skip locked
        limit 1
      )
      select j.id from jobs j join first f on j.type = f.type
      where j.status = 'queued' and j.run_at <= now()
      order by j.run_at, j.id
      for update of j skip locked
      limit (select coalesce((${JSON.stringify(upTo)}::jsonb ->> type)::int, 1) from first)
    )
    returning *`.execute(db);
  return result.rows
    .map((job) => ({ ...job, id: Number(job.id) }))
    .sort((a, b) => +new Date(a.run_at) - +new Date(b.run_at) || a.id - b.id);
}

/** The worker is still on it: refreshes `locked_at` (a job whose heartbeat stops is taken over later). */
export async function heartbeat(
  db: Kysely<DB>,
  jobId: number | readonly number[],
  progress?: unknown,
  workerId?: string,
): Promise<boolean> {
  const ids = typeof jobId === 'number' ? [jobId] : jobId;
  let update = db
    .updateTable('jobs')
    .set({
      locked_at: new Date(),
      updated_at: new Date(),
      ...(progress !== undefined ? { progress: JSON.stringify(progress) } : {}),
    })
    .where('id', 'in', [...ids]);
  if (workerId) update = update.where('status', '=', 'running').where('locked_by', '=', workerId);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0) === ids.length;
}

/** Marks jobs done, in one statement. */
export async function finishJobs(db: Kysely<DB>, jobIds: readonly number[]) {
  if (!jobIds.length) return;
  await db
    .updateTable('jobs')
    .set({ status: 'done', locked_by: null, locked_at: null, error: null, updated_at: new Date() })
    .where('id', 'in', [...jobIds])
    .execute();
}

/** A failed attempt: retried later (backing off) until `max_attempts`, then left `failed`. */
export async function failJob(db: Kysely<DB>, job: Job, error: unknown, options: { retry?: boolean } = {}) {
  const message = error instanceof Error ? error.message : String(error);
  const retry = (options.retry ?? true) && job.attempts < job.max_attempts;
  const delaySeconds = retryDelaySeconds(job.attempts);
  await db
    .updateTable('jobs')
    .set({
      status: retry ? 'queued' : 'failed',
      locked_by: null,
      locked_at: null,
      error: message.slice(0, 2_000),
      run_at: retry ? sql`now() + make_interval(secs => ${delaySeconds})` : sql`run_at`,
      updated_at: new Date(),
    })
    .where('id', '=', job.id)
    .execute();
  return retry;
}

/** Seconds before a failed or stuck job is tried again: 10 s, 20 s, 40 s … at most five minutes. */
export const retryDelaySeconds = (attempts: number) => Math.min(300, 2 ** attempts * 5);

/**
 * Jobs left `running` by a process that died go back to the queue, to resume from their last checkpoint:
 * `everyRunning` (one process owns the embedded database, so at its start nothing else can be running) requeues
 * all; otherwise those of a dead process on this host at once, and those whose heartbeat is older than
 * `staleAfterSeconds` (a process on another host that died, or one stuck) after a back-off. A job that has used
 * its attempts is given up by the worker that claims it next (JobWorker.runOne).
 */
export async function requeueAbandoned(
  db: Kysely<DB>,
  options: { everyRunning?: boolean; staleAfterSeconds?: number; workerId?: string } = {},
): Promise<number> {
  const running = await db
    .selectFrom('jobs')
    .select(['id', 'locked_by', 'locked_at', 'attempts'])
    .where('status', '=', 'running')
    .execute();
  const host = os.hostname();
  const staleAfterSeconds = options.staleAfterSeconds ?? 120;
  const staleSince = Date.now() - staleAfterSeconds * 1000;
  let requeued = 0;
  for (const job of running) {
    if (!options.everyRunning && job.locked_by === options.workerId) continue;
    const [lockHost, pid] = String(job.locked_by ?? '').split(':');
    const died = options.everyRunning || (lockHost === host && Boolean(pid) && !processIsAlive(Number(pid)));
    const stuck = !died && (!job.locked_at || new Date(job.locked_at).getTime() < staleSince);
    if (!died && !stuck) continue;
    let update = db
      .updateTable('jobs')
      .set({
        status: 'queued',
        locked_by: null,
        locked_at: null,
        run_at: died ? new Date() : sql`now() + make_interval(secs => ${retryDelaySeconds(job.attempts)})`,
        error: died ? 'The process running it stopped.' : `It gave no sign of life for ${staleAfterSeconds} s.`,
        updated_at: new Date(),
      })
      // Only if it is still the same claim: its worker may have finished or heartbeated meanwhile.
      .where('id', '=', job.id)
      .where('status', '=', 'running')
      .where('locked_by', job.locked_by === null ? 'is' : '=', job.locked_by);
    if (stuck)
      update = update.where((eb) => eb.or([eb('locked_at', 'is', null), eb('locked_at', '<', new Date(staleSince))]));
    const result = await update.executeTakeFirst();
    requeued += Number(result.numUpdatedRows ?? 0);
  }
  return requeued;
}

/**
 * The jobs `running` in `workerId`'s name that it no longer runs (the database connection under them was lost), back
 * to the queue to run now, their attempt not counted.
 */
export async function requeueStranded(db: Kysely<DB>, workerId: string): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set({
      status: 'queued',
      locked_by: null,
      locked_at: null,
      attempts: sql`greatest(attempts - 1, 0)`,
      run_at: new Date(),
      updated_at: new Date(),
    })
    .where('status', '=', 'running')
    .where('locked_by', '=', workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}

/**
 * Inside a job's transaction: fails unless `workerId` still holds the job (each of the jobs), and keeps it held until
 * the transaction ends (`for share`: requeueAbandoned's update waits), so a worker that lost its claim can never
 * commit work another worker is doing too.
 */
export async function holdsClaim(
  trx: Kysely<DB>,
  jobId: number | readonly number[],
  workerId: string,
): Promise<boolean> {
  const ids = typeof jobId === 'number' ? [jobId] : [...new Set(jobId)];
  const { rows } =
    await sql`select id from jobs where id in (${sql.join(ids)}) and status = 'running' and locked_by = ${workerId} for share`.execute(
      trx,
    );
  return rows.length === ids.length;
}

export function processIsAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error: any) {
    return error.code === 'EPERM';
  }
}

/**
 * The queue as the metrics endpoint tells it: jobs due now that no worker has taken yet, and how long the oldest of
 * them has waited past its time, in seconds (0 when none waits).
 */
export async function jobQueueLag(db: Kysely<DB>): Promise<{ due: number; lagSeconds: number }> {
  const { rows } = await sql<{ due: number; lag: number | null }>`select count(*)::int as due,
      extract(epoch from now() - min(run_at))::float8 as lag
    from jobs where status = 'queued' and run_at <= now()`.execute(db);
  return { due: Number(rows[0]?.due ?? 0), lagSeconds: Math.max(0, Number(rows[0]?.lag ?? 0)) };
}

/** Heavy jobs (those with a `startedBy`) waiting or running: the person's, and everyone's. */
export async function unfinishedJobsStartedBy(db: Kysely<DB>, userId: number): Promise<{ mine: number; all: number }> {
  const { rows } = await sql<{ mine: number; everyone: number }>`
    select count(*) filter (where payload->>'started_by' = ${String(userId)})::int as mine, count(*)::int as everyone
    from jobs where status in ('queued', 'running') and payload->>'started_by' is not null`.execute(db);
  return { mine: Number(rows[0]?.mine ?? 0), all: Number(rows[0]?.everyone ?? 0) };
}

/** Jobs waiting, running and failed, by type (the metrics endpoint's gauges). */
export async function jobCounts(db: Kysely<DB>): Promise<Array<{ type: string; status: JobStatus; count: number }>> {
  const rows = await db
    .selectFrom('jobs')
    .select(['type', 'status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('status', 'in', ['queued', 'running', 'failed'])
    .groupBy(['type', 'status'])
    .execute();
  return rows.map((row) => ({ type: row.type, status: row.status as JobStatus, count: Number(row.count) }));
}
