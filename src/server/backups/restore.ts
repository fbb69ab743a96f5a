import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { acquireLock, openDatabase } from '../db/database.js';
import { type FileStore, FolderStore, openFileStore } from '../files/file-store.js';
import { extractArchive, type Manifest } from './archive.js';
import { isBackedUp } from './backup.js';
import { countTables, PG_DUMP_FILE, PGLITE_FOLDER, runPgTool } from './database-copy.js';
import { markRestoredRun } from './runs.js';

/** The restored data does not match the manifest of the archive it came from. */
export class RestoreMismatchError extends Error {}

/**
 * `npm run restore -- FILE` (the app's processes stopped): extracts the archive, checking every entry against the
 * manifest before anything is replaced (a damaged archive changes nothing), then puts the database and the files in
 * place and checks every table's row count against the manifest. With the embedded database the folders replaced
 * are kept beside the new ones (`db.before-restore-*`, `files.before-restore-*`) and put back if the check fails.
 */
export async function restoreBackup(config: Config, file: string, log: (line: string) => void): Promise<Manifest> {
  await mkdir(config.dataDir, { recursive: true });
  const dbFolder = path.join(config.dataDir, 'db');
  // The embedded database's lock: refused while a server runs on this folder.
  const release = config.databaseUrl ? () => {} : acquireLock(dbFolder);
  const staging = await mkdtemp(path.join(config.dataDir, 'restore-staging-'));
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const replaced: Replaced[] = [];
  try {
    log(`Reading ${file} and checking every entry against its manifest...`);
    const manifest = await extractArchive(file, staging);
    const kind = config.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.database.kind !== kind)
      throw new RestoreMismatchError(
        manifest.database.kind === 'pglite'
          ? 'This archive holds an embedded database: restore it without DATABASE_URL.'
          : 'This archive holds a PostgreSQL dump: restore it with DATABASE_URL set to the database to fill.',
      );
    log(`The archive is whole: ${manifest.entries.length} entries, made ${manifest.snapshot_at}.`);

    if (config.databaseUrl) {
      await runPgTool('pg_restore', config.databaseUrl, [
        '--clean',
        '--if-exists',
        '--no-owner',
        path.join(staging, 'database', PG_DUMP_FILE),
      ]);
    } else {
      await replaceFolder(path.join(staging, 'database', PGLITE_FOLDER), dbFolder, stamp, replaced);
    }

    const files = await openFileStore(config);
    const restoredFiles = path.join(staging, 'files');
    if (files.kind === 'folder') {
      if (existsSync(restoredFiles))
        await replaceFolder(restoredFiles, path.join(config.dataDir, 'files'), stamp, replaced);
    } else {
      for await (const object of new FolderStore(restoredFiles).list(''))
        await files.putFile(object.key, path.join(restoredFiles, ...object.key.split('/')));
    }

    const database = await openDatabase(config).catch((error) => {
      throw new RestoreMismatchError(`The restored database does not open: ${error.message}`);
    });
    try {
      const counts = await countTables(database.db);
      for (const [table, rows] of Object.entries(manifest.database.tables)) {
        if (counts[table] !== rows)
          throw new RestoreMismatchError(
            `After the restore the table ${table} has ${counts[table] ?? 'no'} rows; the manifest says ${rows}.`,
          );
      }
      await markRestoredRun(database.db, manifest, path.basename(file), (await stat(file)).size);
    } finally {
      await database.close();
    }
    const stored = await countStored(await openFileStore(config));
    if (stored < manifest.files.count)
      throw new RestoreMismatchError(
        `After the restore ${stored} files are stored; the manifest says ${manifest.files.count}.`,
      );
    for (const { target, aside } of replaced) if (aside) log(`The previous ${target} is kept as ${aside}.`);
    return manifest;
  } catch (error) {
    // Put back what was replaced: the data folder is as it was before.
    for (const { target, aside } of replaced.reverse()) {
      await rm(target, { recursive: true, force: true });
      if (aside) await rename(aside, target);
    }
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
    release();
  }
}

/** A folder the restore put in place, and where the one it replaced was kept (null: there was none). */
interface Replaced {
  target: string;
  aside: string | null;
}

/** Moves `restored` to `target`, keeping what was at `target` (if anything) as `target.before-restore-<stamp>`. */
async function replaceFolder(restored: string, target: string, stamp: string, replaced: Replaced[]) {
  let aside: string | null = null;
  if (existsSync(target) && readdirSync(target).length > 0) {
    aside = `${target}.before-restore-${stamp}`;
    await rename(target, aside);
  } else {
    await rm(target, { recursive: true, force: true });
  }
  replaced.push({ target, aside });
  await rename(restored, target);
}

async function countStored(files: FileStore) {
  let count = 0;
  for await (const object of files.list('')) if (isBackedUp(object.key)) count++;
  return count;
}
