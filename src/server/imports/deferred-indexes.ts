import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { DB } from '../db/schema.generated.js';
import { buildIndex, deferrableIndexes, hasTrigram, missingIndexes } from '../schemas/indexes.js';

/**
 * A large import writes its table without the table's sort and search indexes and makes them again before it says it
 * is complete (docs/imports.md "Writing"): keeping the 18 sort indexes of sites and their trigram index up to date
 * row by row cost about a third of writing 100,000 sites, and making them again over the whole table costs a few
 * seconds (docs/benchmarks.md "Imports"). Meanwhile lists of the table still read right, sorting and searching
 * without them.
 *
 * Imports that left a table's indexes out are rows of `import_index_deferrals`: the last of them to end makes the
 * indexes again, so imports at once in several processes (PostgreSQL) never rebuild under each other; both steps run
 * under one advisory lock per table. Should a process stop mid-import, the server's start makes every missing index
 * again (schemas/indexes.ts, at ready), and the import, resumed, leaves them out again or not as it decides anew.
 */

/**
 * Whether an import that will write about `rows` rows into a table of `tableRows` leaves the indexes out: at least
 * `minRows` (IMPORT_DEFER_INDEXES_ROWS, 10,000: below that keeping them costs too little to matter), and many for the
 * table. Making them again reads the whole table, while leaving them out saves each written row its share: on the
 * 2-core bench machine the rows written must be at least about 0.4 of the table already there (docs/benchmarks.md
 * "Imports"), so half.
 */
export function shouldDeferIndexes(rows: number, tableRows: number, minRows: number) {
  return rows >= minRows && rows >= tableRows / 2;
}

/**
 * maintenance_work_mem for the embedded database's rebuilds: its default of 64 MB took the server's peak to 323 MB at
 * 100,000 sites, 16 MB to 302 MB, 4 MB to 299 MB (docs/benchmarks.md "Imports").
 */
const EMBEDDED_BUILD_MEMORY = '4MB';

/** The table's live rows as the planner knows them (0 for a table never analyzed). */
export async function estimatedRows(db: Kysely<DB>, table: string) {
  const { rows } = await sql<{
    n: number;
  }>`select greatest(reltuples, 0)::float8 as n from pg_class where oid = ${table}::regclass`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Leaves out the indexes of `table` for import `importId` (its deferral noted first, so an end never misses it). */
export async function deferIndexes(ctx: AppContext, importId: number, table: string) {
  const indexes = deferrableIndexes(ctx.resources.all(), table);
  if (!indexes.length) return;
  await underTableLock(ctx.db, table, async (conn) => {
    await sql`insert into import_index_deferrals (import_id, table_name) values (${importId}, ${table}) on conflict (import_id) do nothing`.execute(
      conn,
    );
    // Concurrently on PostgreSQL: a plain drop waits for every transaction on the table, and reads wait behind it.
    const concurrently = ctx.database.kind === 'postgres' ? sql`concurrently ` : sql``;
    for (const index of indexes) await sql`drop index ${concurrently}if exists ${sql.id(index.name)}`.execute(conn);
  });
}

/**
 * Import `importId` is over (complete, failed or given up): its deferral ends, and unless another import still
 * writing `table` left its indexes out, every missing one is made again. `table` null: the table the import
 * deferred, if any. Returns the number of indexes made.
 */
export async function endIndexDeferral(ctx: AppContext, importId: number, table: string | null) {
  const { db } = ctx;
  if (table === null) {
    const row = await db
      .selectFrom('import_index_deferrals')
      .select('table_name')
      .where('import_id', '=', importId)
      .executeTakeFirst();
    if (!row) return 0;
    table = row.table_name as string;
  }
  const indexes = deferrableIndexes(ctx.resources.all(), table);
  if (!indexes.length) return 0;
  const tableName = table;
  return underTableLock(db, tableName, async (conn) => {
    // The deferrals of imports no longer running (failed, given up, deleted) end with this one.
    await sql`delete from import_index_deferrals d where d.table_name = ${tableName} and (d.import_id = ${importId}
      or not exists (select 1 from imports i where i.id = d.import_id and i.status = 'processing' and i.deleted_at is null))`.execute(
      conn,
    );
    const others = await sql<{
      n: number;
    }>`select count(*)::int as n from import_index_deferrals where table_name = ${tableName}`.execute(conn);
    if (Number(others.rows[0]?.n) > 0) return 0;
    const trigram = await hasTrigram(conn);
    const missing = await missingIndexes(
      conn,
      indexes.filter((index) => trigram || !index.trigram).map((index) => index.name),
    );
    // Each index is made by a statement of its own: writes to the table wait for one index at a time (the trigram
    // index the longest, about 0.8 s for 100,000 sites on PostgreSQL), reads never. Concurrently, PostgreSQL took
    // 5.4 s for the 20 indexes of 100,000 sites against about 1.6 s (docs/benchmarks.md "Imports").
    // On the embedded database the sort memory is taken from its heap, which never shrinks: kept small.
    const embedded = ctx.database.kind === 'pglite';
    if (embedded && missing.size) await sql`set maintenance_work_mem = ${sql.lit(EMBEDDED_BUILD_MEMORY)}`.execute(conn);
    try {
      for (const index of indexes) {
        if (!missing.has(index.name)) continue;
        // An invalid index of that name (a concurrent build that stopped) would satisfy `if not exists`.
        await sql`drop index if exists ${sql.id(index.name)}`.execute(conn);
        await buildIndex(conn, index);
      }
    } finally {
      if (embedded && missing.size) await sql`reset maintenance_work_mem`.execute(conn);
    }
    return missing.size;
  });
}

/**
 * Runs `work` on one connection holding the session advisory lock of `table`'s deferrals, outside any transaction
 * (`drop index concurrently` needs that). The lock is tried, not waited for: a waiting statement would hold a snapshot
 * that the concurrent drop holding the lock waits for in turn.
 */
async function underTableLock<T>(db: Kysely<DB>, table: string, work: (conn: Kysely<DB>) => Promise<T>): Promise<T> {
  const key = `om.import-index-deferral:${table}`;
  return db.connection().execute(async (conn) => {
    while (!(await sql<{ ok: boolean }>`select pg_try_advisory_lock(hashtext(${key})) as ok`.execute(conn)).rows[0]?.ok)
      await sleep(200);
    try {
      return await work(conn);
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(conn);
    }
  });
}
