/**
 * `npm run backup [-- FILE]` and `npm run restore -- FILE` (docs/operations.md "Backups"), for both databases.
 *
 * backup: one tar.gz with the database, every stored file (data folder or bucket) and a manifest of checksums and
 * row counts (backups/backup.ts). With the embedded database and its server running, the server makes it (asked
 * through its control socket: the database is that process's alone); with the server stopped, or with PostgreSQL,
 * this command makes it itself.
 * restore: checks the archive against its manifest before changing anything, puts the database and files in place,
 * and checks the row counts (backups/restore.ts). The app's processes must be stopped.
 */
import path from 'node:path';
import { DamagedArchiveError } from '../backups/archive.js';
import { makeBackup } from '../backups/backup.js';
import { answerOf, askServerToBackUp, type BackupAnswer } from '../backups/control-socket.js';
import { restoreBackup } from '../backups/restore.js';
import { loadConfig } from '../config/config.js';
import { openFileStore } from '../files/file-store.js';
import { openDatabase } from './database.js';
import { migrate } from './migrate.js';

const [command, fileArg] = process.argv.slice(2);
const config = loadConfig();
const stamp = new Date()
  .toISOString()
  .replace(/\.\d+Z$/, 'Z')
  .replace(/:/g, '-');

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

async function backUpHere(file: string): Promise<BackupAnswer> {
  const database = await openDatabase(config);
  try {
    // The backup_runs table: a data folder last served by an older version may not have it yet.
    await migrate(database.db);
    return answerOf(
      await makeBackup({ database, files: await openFileStore(config), config }, { file }, { trigger: 'manual' }),
    );
  } finally {
    await database.close();
  }
}

async function main() {
  if (command === 'backup') {
    const file = path.resolve(fileArg ?? `organizing-map-backup-${stamp}.tar.gz`);
    const answer = (!config.databaseUrl && (await askServerToBackUp(config.dataDir, file))) || (await backUpHere(file));
    const rows = Object.values(answer.tables).reduce((sum, count) => sum + count, 0);
    console.log(
      `Backup written to ${answer.file} (${megabytes(answer.size_bytes)} in ${answer.seconds.toFixed(1)} s): ` +
        `${Object.keys(answer.tables).length} tables, ${rows} rows, ${answer.files} files; ` +
        `the database was held ${answer.held_seconds.toFixed(2)} s.`,
    );
  } else if (command === 'restore') {
    if (!fileArg) throw new Error('Name the backup file to restore: npm run restore -- path/to/backup.tar.gz');
    const manifest = await restoreBackup(config, path.resolve(fileArg), console.log);
    console.log(
      `Restored from ${fileArg}: ${Object.keys(manifest.database.tables).length} tables with the counts of the manifest, ` +
        `${manifest.files.count} files with their checksums.`,
    );
  } else {
    throw new Error('Use "backup [file]" or "restore file".');
  }
}

main().catch((error) => {
  const message =
    error instanceof DamagedArchiveError
      ? `The archive ${fileArg} is damaged: ${error.message}. Nothing was restored.`
      : error.message;
  console.error(`\n${command ?? 'backup'} failed: ${message}\n`);
  process.exit(1);
});
