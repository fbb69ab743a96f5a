import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';
import type { DB } from '../db/schema.generated.js';

const run = promisify(execFile);

/** The files of the database part of an archive, under `database/` in it. */
export const PGLITE_FOLDER = 'pglite';
export const PG_DUMP_FILE = 'postgres.pgdump';

export interface DatabaseCopy {
  /** Rows of every table at the moment of the copy. */
  tables: Record<string, number>;
  snapshotAt: Date;
  /** How long other work had to wait for the copy: the embedded database's held connection (PostgreSQL: 0). */
  heldSeconds: number;
}

/**
 * Copies the database into `folder` as it is at one moment, with every table's row count at that same moment.
 *
 * - Embedded (PGlite): this process is the database's only user, through one connection. The data folder's files
 *   are first copied while the server serves (a file written meanwhile may be copied half old, half new). Then,
 *   in a transaction, which has the connection to itself so that nothing else runs: a CHECKPOINT writes what PostgreSQL holds in memory to the
 *   files, the tables are counted, and every file changed since the first pass began (its modification time, or its
 *   size) is copied again, new ones added and removed ones dropped: the copy is then the folder of that moment.
 *   PostgreSQL writes its files in place and its WAL ahead, so the second pass is the WAL segment in use and the
 *   pages written since: requests wait for that, not for the whole folder (docs/benchmarks.md "Backup"). Packing
 *   and compressing happen afterwards, from the copy, with the server free.
 * - PostgreSQL: a REPEATABLE READ transaction exports its snapshot, counts the tables in it, and pg_dump reads the
 *   same snapshot (`--snapshot`), so the dump and the counts agree while other processes keep writing.
 */
export async function copyDatabase(
  database: Database,
  dataDir: string,
  databaseUrl: string | undefined,
  folder: string,
): Promise<DatabaseCopy> {
  if (database.kind === 'pglite') {
    const source = path.join(dataDir, 'db');
    const target = path.join(folder, PGLITE_FOLDER);
    // Modification times can be as coarse as a second or two on some file systems: a margin, not a race.
    const firstPassFrom = Date.now() - 3_000;
    await syncFolder(source, target, null);
    // A transaction has the one connection to itself: statements sent before it have run, later ones wait for it
    // (db/pglite-dialect.ts), so nothing writes while the second pass copies.
    return database.db.transaction().execute(async (held) => {
      const heldFrom = performance.now();
      await sql`checkpoint`.execute(held);
      const snapshotAt = new Date();
      const tables = await countTables(held);
      await syncFolder(source, target, firstPassFrom);
      return { tables, snapshotAt, heldSeconds: (performance.now() - heldFrom) / 1000 };
    });
  }
  if (!databaseUrl) throw new Error('No DATABASE_URL to dump.');
  return database.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const { rows } = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
      const snapshotAt = new Date();
      const tables = await countTables(trx);
      await runPgTool('pg_dump', databaseUrl, [
        '--format=custom',
        `--snapshot=${rows[0].id}`,
        `--file=${path.join(folder, PG_DUMP_FILE)}`,
      ]);
      return { tables, snapshotAt, heldSeconds: 0 };
    });
}

/**
 * Makes `target` a copy of `source`: every file copied (`changedSince` null), or only those modified since then or of
 * another size than their copy, plus new ones; files and folders no longer in `source` are removed from `target`.
 */
async function syncFolder(source: string, target: string, changedSince: number | null) {
  await mkdir(target, { recursive: true });
  const names = new Set<string>();
  for (const entry of await readdir(source, { withFileTypes: true })) {
    // The pid file belongs to this running instance; the copy opens without it.
    if (entry.name === 'postmaster.pid') continue;
    names.add(entry.name);
    const from = path.join(source, entry.name);
    const to = path.join(target, entry.name);
    if (entry.isDirectory()) await syncFolder(from, to, changedSince);
    else if (entry.isFile()) {
      if (changedSince !== null) {
        const [was, now] = await Promise.all([stat(to).catch(() => null), stat(from).catch(() => null)]);
        if (!now || (was && was.size === now.size && now.mtimeMs < changedSince)) continue;
      }
      await copyFile(from, to, constants.COPYFILE_FICLONE).catch((error) => {
        // Removed by the server during the first pass (a recycled WAL segment): the second pass settles it.
        if (!(changedSince === null && error.code === 'ENOENT')) throw error;
      });
    }
  }
  for (const name of await readdir(target))
    if (!names.has(name)) await rm(path.join(target, name), { recursive: true });
}

/** Every table of the app's schema with its number of rows. */
export async function countTables(db: Kysely<DB>): Promise<Record<string, number>> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p') order by c.relname`.execute(db);
  const counts: Record<string, number> = {};
  for (const { name } of rows) {
    const result = await sql<{ count: number }>`select count(*)::int8 as count from ${sql.table(name)}`.execute(db);
    counts[name] = Number(result.rows[0].count);
  }
  return counts;
}

/**
 * Runs pg_dump or pg_restore on the database at `databaseUrl`, saying what to install when it is missing. The password
 * goes in the environment (PGPASSWORD), not on the command line where `ps` would show it.
 */
export async function runPgTool(tool: 'pg_dump' | 'pg_restore', databaseUrl: string, args: string[]) {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  try {
    await run(tool, [...args, `--dbname=${url.toString()}`], {
      maxBuffer: 16 * 1_048_576,
      env: password ? { ...process.env, PGPASSWORD: password } : process.env,
    });
  } catch (caught) {
    const error = caught as { code?: string; stderr?: string; message: string };
    if (error.code === 'ENOENT')
      throw new Error(
        `${tool} is not installed: install the PostgreSQL client tools of your server's version (postgresql-client).`,
      );
    throw new Error(`${tool} failed: ${String(error.stderr || error.message).trim()}`);
  }
}
