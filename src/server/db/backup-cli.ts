/**
 * `npm run backup [-- file]` and `npm run restore -- file`, for both databases.
 * Embedded (PGlite): a gzipped tarball of the data folder, made with PGlite's own dump; the server must be
 * stopped (the data folder lock enforces it). PostgreSQL (DATABASE_URL): pg_dump / pg_restore in custom format.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../config/config.js';
import { acquireLock } from './database.js';

const [command, fileArg] = process.argv.slice(2);
const config = loadConfig();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');

async function backupPGlite(file: string) {
  const folder = path.join(config.dataDir, 'db');
  if (!existsSync(folder)) throw new Error(`There is no database in ${folder} to back up.`);
  const release = acquireLock(folder);
  try {
    const db = await PGlite.create(folder);
    await db.exec('checkpoint');
    const dump = await db.dumpDataDir('gzip');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await db.close();
  } finally {
    release();
  }
}

async function restorePGlite(file: string) {
  const folder = path.join(config.dataDir, 'db');
  const release = acquireLock(folder);
  try {
    // The current database is kept beside the restored one, never deleted.
    if (existsSync(folder) && readdirSync(folder).length > 0) renameSync(folder, `${folder}.before-restore-${stamp}`);
    const db = await PGlite.create(folder, { loadDataDir: new Blob([readFileSync(file)]) });
    await db.query('select 1');
    await db.close();
  } finally {
    release();
  }
}

function postgresTool(tool: string, args: string[]) {
  execFileSync(tool, args, { stdio: 'inherit' });
}

async function main() {
  if (command === 'backup') {
    const file = path.resolve(fileArg ?? `backup-${stamp}.${config.databaseUrl ? 'pgdump' : 'tar.gz'}`);
    if (config.databaseUrl) postgresTool('pg_dump', ['--format=custom', `--file=${file}`, config.databaseUrl]);
    else await backupPGlite(file);
    console.log(`Backup written to ${file}`);
  } else if (command === 'restore') {
    if (!fileArg || !existsSync(fileArg))
      throw new Error('Name the backup file to restore: npm run restore -- path/to/backup');
    if (config.databaseUrl)
      postgresTool('pg_restore', ['--clean', '--if-exists', '--no-owner', `--dbname=${config.databaseUrl}`, fileArg]);
    else await restorePGlite(path.resolve(fileArg));
    console.log(`Restored from ${fileArg}`);
  } else {
    throw new Error('Use "backup [file]" or "restore file".');
  }
}

main().catch((error) => {
  console.error(`\n${command ?? 'backup'} failed: ${error.message}\n`);
  process.exit(1);
});
