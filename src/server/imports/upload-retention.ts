import type { Kysely } from 'kysely';
import { storedJson } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import type { FileStore } from '../files/file-store.js';
import { IMPORT_FILES_PREFIX, importFileKey, type StoredFile } from './import-files.js';

export const UPLOAD_RETENTION_JOB = 'upload-retention';
/** How often the job looks for files past their time. */
export const UPLOAD_RETENTION_EVERY_MS = 6 * 3_600_000;
const DAY_MS = 86_400_000;

/** An import's file as `imports.files` keeps it once the file itself is removed. */
export type KeptFile = StoredFile & { removed_at?: string };

/**
 * Removes the uploaded files of imports older than `days` (UPLOAD_RETENTION_DAYS) that are done with them (complete
 * or failed), and marks them removed in `imports.files` (`removed_at`); the import rows, their counts, failed rows
 * and undo entries stay. Then any import file in the store older than `days` that no import waiting or running
 * names (an upload whose import was deleted, a process stopped mid-upload). Returns how many files it removed.
 */
export async function removeExpiredUploads(
  db: Kysely<DB>,
  files: FileStore,
  days: number,
  now: Date = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  let removed = 0;
  const done = await db
    .selectFrom('imports')
    .select(['id', 'files'])
    .where('created_at', '<', cutoff)
    .where('status', 'in', ['complete', 'failed'])
    .execute();
  for (const row of done) {
    const stored = storedJson<KeptFile[] | null>(row.files) ?? [];
    if (stored.every((file) => file.removed_at)) continue;
    for (const file of stored) if (!file.removed_at) await files.remove(importFileKey(file));
    removed += stored.filter((file) => !file.removed_at).length;
    const kept = stored.map((file) => (file.removed_at ? file : { ...file, removed_at: now.toISOString() }));
    await db
      .updateTable('imports')
      .set({ files: JSON.stringify(kept) })
      .where('id', '=', row.id)
      .execute();
  }

  const waiting = await db
    .selectFrom('imports')
    .select('files')
    .where('status', 'in', ['pending', 'processing'])
    .execute();
  const inUse = new Set(
    waiting.flatMap((row) => (storedJson<StoredFile[] | null>(row.files) ?? []).map(importFileKey)),
  );
  const expired: string[] = [];
  for await (const object of files.list(IMPORT_FILES_PREFIX)) {
    if (!inUse.has(object.key) && object.modifiedAt < cutoff) expired.push(object.key);
  }
  for (const key of expired) await files.remove(key);
  return removed + expired.length;
}
