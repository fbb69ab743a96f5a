import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.js';

const run = promisify(execFile);

/** The files of the database part of an archive, under `database/` in it. */
export const PGLITE_FOLDER = 'pglite';
export const PG_DUMP_FILE = 'postgres.pgdump';

export interface DatabaseCopy {
  /** Rows of every table at the moment of the copy. */
  tables: Record<string, number>;
  snapshotAt: Date;
}

/**
 * Copies the database into `folder` as it is at one moment, with every table's row count at that same moment.
 *
 * - Embedded (PGlite): this process is the database's only user, through one connection. Holding that connection,
 *   nothing else runs: a CHECKPOINT writes what PostgreSQL holds in memory to the data folder, the tables are
 *   counted, and the data folder's files are copied. Requests wait meanwhile: the length of a local file copy
 *   (docs/benchmarks.md "Backup"); packing and compressing happen afterwards, from the copy, with the server free.
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
    return database.db.connection().execute(async (held) => {
      await sql`checkpoint`.execute(held);
      const snapshotAt = new Date();
      const tables = await countTables(held);
      await cp(path.join(dataDir, 'db'), path.join(folder, PGLITE_FOLDER), {
        recursive: true,
        // The pid file belongs to this running instance; the copy opens without it.
        filter: (source) => path.basename(source) !== 'postmaster.pid',
        mode: constants.COPYFILE_FICLONE,
      });
      return { tables, snapshotAt };
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
      return { tables, snapshotAt };
    });
}

/** Every table of the app's schema with its number of rows. */
export async function countTables(db: Kysely<any>): Promise<Record<string, number>> {
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
