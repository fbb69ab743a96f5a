import { sql } from 'kysely';
import { analyzeChangedTables } from './analyze.js';
import type { Database } from './database.js';

const EVERY_MINUTE = 60_000;
const EVERY_HALF_HOUR = 30 * 60_000;

/**
 * The embedded database has no autovacuum; this does its work. After start and every minute: the tables whose size
 * moved by a fifth are analyzed (analyze.ts), then, when anything was written since the last run, the database is
 * vacuumed (after start every table, then those written since: `vacuum`); every half hour every table is analyzed.
 *
 * VACUUM marks the pages whose rows every transaction sees as all-visible, and only then can a query answer from an
 * index alone (an index-only scan): counting a list's matches up to 10,001 by the type index takes about 1 ms on
 * 100,000 sites instead of 12 ms reading the rows (docs/benchmarks.md, "Records"). It also makes dead rows' space
 * reusable, so updates do not grow the data folder, and merges GIN pending lists. It skips pages already marked:
 * 13 to 31 ms on 100,000 sites when little changed, 190 ms the first time. Returns a function that stops the timers.
 */
export function startEmbeddedMaintenance(database: Database, warn: (error: unknown, what: string) => void): () => void {
  const maintain = embeddedMaintenance(database, warn);
  void maintain();
  const minute = setInterval(() => void maintain(), EVERY_MINUTE).unref();
  const halfHour = setInterval(
    () => void sql`analyze`.execute(database.db).catch((error) => warn(error, 'ANALYZE')),
    EVERY_HALF_HOUR,
  ).unref();
  return () => {
    clearInterval(minute);
    clearInterval(halfHour);
  };
}

/**
 * The database's write count (Database.writes.any) read just before its last VACUUM, whoever ran it (the minute's
 * run or an import's vacuumAfterLargeWrite): a write during a VACUUM is vacuumed by the next one.
 */
const vacuumedAt = new WeakMap<Database, number>();

/**
 * VACUUM of every table (the first run after start: the statistics of a database that stopped without a checkpoint
 * are lost), or of those with rows written since their last VACUUM by the cumulative statistics (dead or inserted
 * rows, as autovacuum reads them). A VACUUM of a table costs even when it finds nothing to do (its visibility and free
 * space maps, its indexes' clean-up): the whole database's took 5-11 s at load 25-60 on the formulas bench's data
 * with nothing written but a session's last activity, and every request waited behind it (one connection).
 */
async function vacuum(database: Database, tables: 'all' | 'written') {
  const writes = database.writes.any;
  if (tables === 'all') await sql`vacuum`.execute(database.db);
  else {
    // This backend's counts reach the statistics at the end of its next transaction: this one.
    await sql`select pg_stat_force_next_flush()`.execute(database.db);
    const { rows } = await sql<{ name: string }>`select relname as name from pg_stat_user_tables
      where schemaname = current_schema() and n_dead_tup + n_ins_since_vacuum > 0 order by relname`.execute(
      database.db,
    );
    if (rows.length) await sql`vacuum ${sql.join(rows.map((row) => sql.table(row.name)))}`.execute(database.db);
  }
  vacuumedAt.set(database, writes);
}

/** One run of the minute's work, as a function that skips a run while the previous one is still going. */
export function embeddedMaintenance(
  database: Database,
  warn: (error: unknown, what: string) => void,
): () => Promise<void> {
  let running = false;
  return async () => {
    if (running) return;
    running = true;
    try {
      await analyzeChangedTables(database.db).catch((error) => warn(error, 'ANALYZE'));
      const last = vacuumedAt.get(database);
      if (database.writes.any !== last) await vacuum(database, last === undefined ? 'all' : 'written');
    } catch (error) {
      warn(error, 'VACUUM');
    } finally {
      running = false;
    }
  };
}

/**
 * After a large write (an import): on the embedded database, VACUUM at once rather than at the next minute's run, so
 * the lists read afterwards answer from their indexes and the next piece of work does not wait for it (one
 * connection; about 0.6 s after 100,000 rows). Marking the pages writes them to the WAL again, so a checkpoint follows
 * (the driver checkpoints only after transactions): the WAL went to 256 MB without it. The minute's run then has
 * nothing to vacuum unless something else was written. PostgreSQL's autovacuum does this there.
 */
export async function vacuumAfterLargeWrite(database: Database) {
  if (database.kind !== 'pglite') return;
  await vacuum(database, 'written');
  await sql`checkpoint`.execute(database.db);
}
