import os from 'node:os';
import type { Kysely } from 'kysely';
import type { BackupRun } from '../../common/system-status.js';
import type { DB } from '../db/schema.generated.js';
import { processIsAlive, WORKER_ID } from '../jobs/queue.js';
import type { Manifest } from './archive.js';

/** Records a backup being made now; returns its id. */
export async function startRun(db: Kysely<DB>, trigger: 'schedule' | 'manual'): Promise<number> {
  const row = await db
    .insertInto('backup_runs')
    .values({ trigger, process: WORKER_ID })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Claims the scheduled backup of `slot` (its time by BACKUP_CRON): the id of the run, or null when another process
 * claimed that time first.
 */
export async function claimScheduledRun(db: Kysely<DB>, slot: Date): Promise<number | null> {
  const row = await db
    .insertInto('backup_runs')
    .values({ trigger: 'schedule', scheduled_for: slot, process: WORKER_ID })
    .onConflict((conflict) => conflict.column('scheduled_for').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

export async function finishRun(
  db: Kysely<DB>,
  id: number,
  result:
    | { status: 'succeeded'; target: string; sizeBytes: number; fileCount: number }
    | { status: 'failed'; message: string },
) {
  await db
    .updateTable('backup_runs')
    .set({
      status: result.status,
      finished_at: new Date(),
      ...(result.status === 'succeeded'
        ? { target: result.target, size_bytes: result.sizeBytes, file_count: result.fileCount, message: null }
        : { message: result.message.slice(0, 2_000) }),
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Runs left `running` by a process that died are failed: all of them with the embedded database (one process owns
 * it: at its start nothing else can be making one), those of a process of this host that no longer runs otherwise.
 */
export async function failInterruptedRuns(db: Kysely<DB>, everyRunning: boolean) {
  const running = await db
    .selectFrom('backup_runs')
    .select(['id', 'process'])
    .where('status', '=', 'running')
    .execute();
  for (const run of running) {
    const [host, pid] = String(run.process ?? '').split(':');
    if (!everyRunning && !(host === os.hostname() && !processIsAlive(Number(pid)))) continue;
    await db
      .updateTable('backup_runs')
      .set({ status: 'failed', finished_at: new Date(), message: 'The process making it stopped before the end.' })
      .where('id', '=', run.id)
      .where('status', '=', 'running')
      .execute();
  }
}

export async function lastRun(db: Kysely<DB>): Promise<BackupRun | null> {
  const row = await db
    .selectFrom('backup_runs')
    .select(['id', 'trigger', 'status', 'started_at', 'finished_at', 'target', 'size_bytes', 'file_count', 'message'])
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);
  return {
    id: Number(row.id),
    trigger: row.trigger as BackupRun['trigger'],
    status: row.status as BackupRun['status'],
    started_at: iso(row.started_at)!,
    finished_at: iso(row.finished_at),
    file: row.target ? String(row.target).split(/[\\/]/).pop()! : null,
    size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
    file_count: row.file_count,
    message: row.message,
  };
}

/** After a restore: the run whose archive was restored ended well (its row in the copy still says `running`). */
export async function markRestoredRun(db: Kysely<DB>, manifest: Manifest, file: string, sizeBytes: number) {
  if (manifest.run_id === null) return;
  await db
    .updateTable('backup_runs')
    .set({
      status: 'succeeded',
      finished_at: new Date(manifest.finished_at),
      target: file,
      size_bytes: sizeBytes,
      file_count: manifest.files.count,
      message: null,
    })
    .where('id', '=', manifest.run_id)
    .where('status', '=', 'running')
    .execute();
}
