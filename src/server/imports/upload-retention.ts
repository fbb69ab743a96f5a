import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { StoredFile } from './import-service.js';

export const UPLOAD_RETENTION_JOB = 'upload-retention';
/** How often the job looks for files past their time. */
export const UPLOAD_RETENTION_EVERY_MS = 6 * 3_600_000;
const DAY_MS = 86_400_000;

/** An import's file as `imports.files` keeps it once the file itself is removed. */
export type KeptFile = StoredFile & { removed_at?: string };

/**
 * Removes the uploaded files of imports older than `days` (UPLOAD_RETENTION_DAYS) that are done with them (complete
 * or failed), and marks them removed in `imports.files` (`removed_at`); the import rows, their counts, failed rows
 * and undo entries stay. Then any file under `folder` older than `days` that no import waiting or running names (an
 * upload whose import was deleted, a process stopped mid-upload). Returns how many files it removed.
 */
export async function removeExpiredUploads(db: Kysely<any>, folder: string, days: number, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  let removed = 0;
  const done = await db.selectFrom('imports').select(['id', 'files']).where('created_at', '<', cutoff).where('status', 'in', ['complete', 'failed']).execute();
  for (const row of done) {
    const files = (row.files ?? []) as KeptFile[];
    if (files.every((file) => file.removed_at)) continue;
    for (const file of files) if (!file.removed_at) await rm(file.path, { force: true });
    removed += files.filter((file) => !file.removed_at).length;
    const kept = files.map((file) => (file.removed_at ? file : { ...file, removed_at: now.toISOString() }));
    await db.updateTable('imports').set({ files: JSON.stringify(kept) }).where('id', '=', row.id).execute();
  }

  const waiting = await db.selectFrom('imports').select('files').where('status', 'in', ['pending', 'processing']).execute();
  const inUse = new Set(waiting.flatMap((row) => ((row.files ?? []) as StoredFile[]).map((file) => path.resolve(file.path))));
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.resolve(folder, name);
    if (inUse.has(file)) continue;
    const facts = await stat(file).catch(() => null);
    if (!facts?.isFile() || facts.mtime >= cutoff) continue;
    await rm(file, { force: true });
    removed++;
  }
  return removed;
}
