import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config/config.js';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import { embeddedMaintenance, vacuumAfterLargeWrite } from '../../src/server/db/embedded-maintenance.js';
import { migrate } from '../../src/server/db/migrate.js';
import { seedDatabase } from '../../src/server/seed/seed.js';
import { ADMIN_PASSWORD, createPostgresDatabase, testDatabaseUrl } from '../support/test-app.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
let database: Database;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'om-maintenance-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const serverUrl = testDatabaseUrl();
  const created = serverUrl ? await createPostgresDatabase(serverUrl) : null;
  if (created) cleanups.push(() => created.drop());
  const config = loadConfig({
    DATA_DIR: dir,
    ...(created ? { DATABASE_URL: created.url } : {}),
    ADMIN_PASSWORD,
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
  });
  database = await openDatabase(config);
  cleanups.push(() => database.close());
  await migrate(database.db);
  await seedDatabase(database.db, config);
  await sql`insert into sites (name, type, created_at, updated_at)
    select 'Maintained ' || g, (array['union','non-union','pla'])[1 + g % 3], now(), now() from generate_series(1, 3000) g`.execute(
    database.db,
  );
  await sql`analyze sites`.execute(database.db);
}, 120_000);

afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** How many rows a count by type read from the table itself, rather than from the type index alone. */
async function heapFetches(db: Kysely<any>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_bitmapscan = off`.execute(trx);
    const { rows } = await sql<
      Record<string, string>
    >`explain (analyze, costs off) select count(*) from sites t where t.deleted_at is null and t.type = 'union'`.execute(
      trx,
    );
    const plan = rows.map((row) => Object.values(row)[0]).join('\n');
    expect(plan).toContain('Index Only Scan');
    return Number(/Heap Fetches: (\d+)/.exec(plan)?.[1]);
  });
}

describe('the embedded database maintenance', () => {
  it('vacuums after writes, so a count by an indexed column reads the index alone', async () => {
    const warnings: unknown[] = [];
    const maintain = embeddedMaintenance(database, (error) => warnings.push(error));
    if (database.kind === 'pglite') expect(await heapFetches(database.db)).toBe(1000);
    await maintain();
    expect(await heapFetches(database.db)).toBe(0);

    // An update clears the pages' visibility; the next run (there was a write) marks them again.
    await database.db.updateTable('sites').set({ city: 'Duluth' }).where('type', '=', 'union').execute();
    expect(await heapFetches(database.db)).toBeGreaterThan(0);
    await maintain();
    expect(await heapFetches(database.db)).toBe(0);
    expect(warnings).toEqual([]);
  });

  it('does not vacuum again at the next minute what an import has just vacuumed', async () => {
    if (database.kind !== 'pglite') return;
    const maintain = embeddedMaintenance(database, (error) => {
      throw error;
    });
    const vacuums = async () => {
      await sql`select pg_stat_force_next_flush()`.execute(database.db);
      const { rows } = await sql<{
        count: number;
      }>`select vacuum_count::int as count from pg_stat_user_tables where relname = 'sites'`.execute(database.db);
      return rows[0].count;
    };
    await database.db.updateTable('sites').set({ city: 'Fargo' }).where('type', '=', 'pla').execute();
    await vacuumAfterLargeWrite(database);
    const afterImport = await vacuums();
    await maintain();
    expect(await vacuums()).toBe(afterImport);

    await database.db.updateTable('sites').set({ city: 'Moorhead' }).where('type', '=', 'pla').execute();
    await maintain();
    expect(await vacuums()).toBe(afterImport + 1);
  });

  it('vacuums, after its first run, only the tables written since', async () => {
    if (database.kind !== 'pglite') return;
    const maintain = embeddedMaintenance(database, (error) => {
      throw error;
    });
    await maintain();
    const vacuumCounts = async () => {
      await sql`select pg_stat_force_next_flush()`.execute(database.db);
      const { rows } = await sql<{ relname: string; count: number }>`select relname, vacuum_count::int as count
        from pg_stat_user_tables where relname in ('sites', 'users', 'roles')`.execute(database.db);
      return Object.fromEntries(rows.map((row) => [row.relname, row.count]));
    };
    const before = await vacuumCounts();
    await database.db.updateTable('sites').set({ city: 'Bemidji' }).where('type', '=', 'union').execute();
    await maintain();
    expect(await vacuumCounts()).toEqual({ ...before, sites: before.sites + 1 });
    expect(await heapFetches(database.db)).toBe(0);
  });
});
