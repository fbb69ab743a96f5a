import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { FileStore } from '../files/file-store.js';
import { ArchiveWriter, FORMAT, type Manifest } from './archive.js';
import { copyDatabase } from './database-copy.js';
import { finishRun, startRun } from './runs.js';

/** What a backup copies: the database, the stored files (data folder or bucket), with the app's settings. */
export interface BackupSources {
  database: Database;
  files: FileStore;
  config: Config;
}

/** Keys of the file store that are not the app's files: unfinished uploads, and the scheduled backups themselves. */
const NOT_BACKED_UP = ['tmp/', 'backups/'];
export const isBackedUp = (key: string) => !NOT_BACKED_UP.some((prefix) => key.startsWith(prefix));

export interface BackupResult {
  runId: number;
  /** The archive's file, or its key in the file store. */
  target: string;
  sizeBytes: number;
  manifest: Manifest;
  seconds: number;
  /** How long requests waited for the database copy (the embedded database's held connection; PostgreSQL: 0). */
  heldSeconds: number;
}

let queue: Promise<unknown> = Promise.resolve();

/** Where the archive goes: a file of this machine, or a key of the file store (the data folder's files or the bucket). */
export type Destination = { file: string } | { key: string };

/**
 * Writes one archive (tar.gz) to `destination`: the database as it was at one moment (database-copy.ts), then every stored
 * file, then the manifest with each entry's sha-256 and each table's row count. Runs while the app serves: one
 * backup at a time in this process (a second waits for the first). Recorded in backup_runs (`runId`: a run already
 * claimed, as a scheduled one is).
 */
export function makeBackup(
  sources: BackupSources,
  destination: Destination,
  run: { trigger: 'schedule' | 'manual'; runId?: number },
): Promise<BackupResult> {
  const next = queue.then(() => backUp(sources, destination, run));
  queue = next.catch(() => {});
  return next;
}

async function backUp(
  { database, files, config }: BackupSources,
  destination: Destination,
  run: { trigger: 'schedule' | 'manual'; runId?: number },
): Promise<BackupResult> {
  const started = new Date();
  const runId = run.runId ?? (await startRun(database.db, run.trigger));
  const staging = await mkdtemp(path.join(config.dataDir, 'backup-staging-'));
  const partial = 'file' in destination ? `${destination.file}.partial` : path.join(staging, 'archive.tar.gz');
  let writer: ArchiveWriter | undefined;
  try {
    const databaseCopy = path.join(staging, 'database');
    await mkdir(databaseCopy);
    const copy = await copyDatabase(database, config.dataDir, config.databaseUrl, databaseCopy);
    writer = new ArchiveWriter(partial);
    await writer.addFolder('database', databaseCopy);
    let count = 0;
    let bytes = 0;
    for await (const object of files.list('')) {
      if (!isBackedUp(object.key)) continue;
      // Gone since it was listed: only expired import uploads are ever removed.
      const stored = await files.read(object.key);
      if (!stored) continue;
      await writer.add(`files/${object.key}`, stored.size, stored.stream);
      count++;
      bytes += stored.size;
    }
    const manifest = await writer.finish({
      format: FORMAT,
      version: 1,
      app_version: config.version,
      run_id: runId,
      started_at: started.toISOString(),
      snapshot_at: copy.snapshotAt.toISOString(),
      finished_at: new Date().toISOString(),
      database: { kind: database.kind, tables: copy.tables },
      files: { count, bytes },
    });
    const { size } = await stat(partial);
    const target = 'file' in destination ? destination.file : destination.key;
    if ('file' in destination) await rename(partial, destination.file);
    else await files.putFile(destination.key, partial, 'application/gzip');
    await finishRun(database.db, runId, { status: 'succeeded', target, sizeBytes: size, fileCount: count });
    return {
      runId,
      target,
      sizeBytes: size,
      manifest,
      seconds: (Date.now() - started.getTime()) / 1000,
      heldSeconds: copy.heldSeconds,
    };
  } catch (error) {
    writer?.abort(error as Error);
    await rm(partial, { force: true });
    await finishRun(database.db, runId, { status: 'failed', message: (error as Error).message }).catch(() => {});
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
