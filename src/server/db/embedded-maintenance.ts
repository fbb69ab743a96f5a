import { sql } from 'kysely';
import { analyzeChangedTables } from './analyze.js';
import type { Database } from './database.js';

const EVERY_MINUTE = 60_000;
const EVERY_HALF_HOUR = 30 * 60_000;

/**
 * The embedded database has no autovacuum; this does its work. After start and every minute: the tables whose size
 * moved by a fifth are analyzed (analyze.ts), then, when anything was written since the last run, the database is
 * vacuumed; every half hour every table is analyzed.
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

async function vacuum(database: Database) {
  const writes = database.writes.any;
  await sql`vacuum`.execute(database.db);
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
      if (database.writes.any !== vacuumedAt.get(database)) await vacuum(database);
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
  await vacuum(database);
  await sql`checkpoint`.execute(database.db);
}
