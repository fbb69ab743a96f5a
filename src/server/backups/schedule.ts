import { Cron } from 'croner';
import { type BackupSources, makeBackup } from './backup.js';
import { claimScheduledRun } from './runs.js';

/** Where scheduled archives are kept in the file store: DATA_DIR/files/backups/ or the bucket's backups/. */
export const SCHEDULED_PREFIX = 'backups/';
const SCHEDULED_NAME = /^backups\/organizing-map-backup-[\dTZ-]+\.tar\.gz$/;

export const scheduledKey = (slot: Date) =>
  `${SCHEDULED_PREFIX}organizing-map-backup-${slot
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-')}.tar.gz`;

/**
 * Makes a backup at each time of BACKUP_CRON (croner: the server's time zone) into the file store, then keeps the
 * newest BACKUP_KEEP scheduled archives there. With several processes on one PostgreSQL each one's timer fires; the
 * first to claim that time makes the backup (backup_runs.scheduled_for is unique). A backup still running when the
 * next time comes makes that time skipped (`protect`).
 */
export function scheduleBackups(sources: BackupSources, onError: (error: unknown) => void): { stop(): void } {
  const pattern = sources.config.backup.cron;
  if (!pattern) return { stop() {} };
  const times = new Cron(pattern, { paused: true });
  const job = new Cron(pattern, { protect: true, catch: onError, unref: true }, async () => {
    // The time this run is for (croner fires at or just after it): the same in every process.
    const slot = times.previousRuns(1, new Date(Date.now() + 1))[0] ?? new Date();
    const runId = await claimScheduledRun(sources.database.db, slot);
    if (runId === null) return;
    await makeBackup(sources, { key: scheduledKey(slot) }, { trigger: 'schedule', runId });
    await keepNewest(sources, sources.config.backup.keep);
  });
  return {
    stop() {
      job.stop();
      times.stop();
    },
  };
}

/** Removes the oldest scheduled archives beyond `keep` (their names sort by time). */
export async function keepNewest({ files }: BackupSources, keep: number) {
  const keys: string[] = [];
  for await (const object of files.list(SCHEDULED_PREFIX)) if (SCHEDULED_NAME.test(object.key)) keys.push(object.key);
  keys.sort();
  for (const key of keys.slice(0, Math.max(0, keys.length - keep))) await files.remove(key);
}

/** When the next scheduled backup is due, or null without BACKUP_CRON. */
export function nextScheduled(pattern: string | undefined): Date | null {
  if (!pattern) return null;
  const times = new Cron(pattern, { paused: true });
  const next = times.nextRun();
  times.stop();
  return next;
}
