/**
 * What writing imported sites costs the database beyond the rows themselves: the same 1,000-row statements as the
 * import's batch writer (sites, then their trades), timed with every index and trigger of a new installation, then
 * without the sort indexes (src/server/schemas/indexes.ts ensureSortIndexes), then also without the statement
 * triggers that keep the market share and the site labour counted (migrations 006, 009), then without both.
 * BENCH_COST_ROWS sites per variant (default 10,000), on a table that already holds as many; BENCH_DATABASES as
 * for the other benches. Each variant's figures: seconds per 10,000 sites, and the load average.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../../src/server/db/database.js';
import { countMarketShareOnce } from '../../src/server/db/market-share-once.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';
import { benchDatabases, freePort, loadAverage, makeTempFolder, removeTempFolder, startServer } from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'import-costs';
const ROWS = Number(process.env.BENCH_COST_ROWS ?? 10_000);
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };

export async function benchImportCosts(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const kind of benchDatabases()) await costsOn(kind, rows);
  return rows;
}

async function costsOn(kind: 'pglite' | 'postgres', rows: BenchRow[]) {
  const folder = makeTempFolder('om-bench-import-costs-');
  let postgres: PostgresServer | null = null;
  try {
    if (kind === 'postgres') {
      postgres = await (startPostgres() ?? Promise.resolve(null));
      if (!postgres) return;
    }
    const dataDir = path.join(folder, 'data');
    // The server makes the database as an installation has it (migrations, seed, indexes), then stops.
    const server = await startServer({
      dataDir,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      databaseUrl: postgres?.url,
      port: await freePort(),
    });
    await server.stop();
    const database = await openDatabase({ databaseUrl: postgres?.url, dataDir });
    const db = database.db;
    try {
      const indexes = await sql<{
        name: string;
        def: string;
      }>`select indexname as name, indexdef as def from pg_indexes where tablename = 'sites'`.execute(db);
      const sortIndexes = indexes.rows.filter((i) => i.name.startsWith('sites_sort_'));
      const triggers = await sql<{
        name: string;
      }>`select tgname as name from pg_trigger where tgrelid = 'sites'::regclass and not tgisinternal`.execute(db);
      const db_ = kind === 'pglite' ? 'embedded' : 'PostgreSQL';
      rows.push(
        row(
          AREA,
          `${db_}: indexes on sites (of which sort indexes); triggers`,
          indexes.rows.length,
          `(${sortIndexes.length}); ${triggers.rows.length} triggers`,
        ),
      );
      await writeSites(db, ROWS, 0); // the table holds as many sites as each variant writes
      const variants: Array<[string, () => Promise<void>, boolean?]> = [
        ['every index and trigger', async () => {}],
        [
          'every index and trigger, the market share counted once per transaction (as the import writes)',
          async () => {},
          true,
        ],
        [
          'without the sort indexes',
          async () => {
            for (const index of sortIndexes) await sql`drop index ${sql.id(index.name)}`.execute(db);
          },
        ],
        [
          'without the sort indexes and the market share and labour triggers',
          async () => {
            await sql`alter table sites disable trigger user`.execute(db);
            await sql`alter table site_trades disable trigger user`.execute(db);
          },
        ],
        [
          'without the market share and labour triggers (sort indexes back)',
          async () => {
            for (const index of sortIndexes) await sql.raw(index.def).execute(db);
          },
        ],
      ];
      let offset = ROWS;
      for (const [name, prepare, countedOnce] of variants) {
        await prepare();
        const started = performance.now();
        await writeSites(db, ROWS, offset, countedOnce);
        const seconds = (performance.now() - started) / 1000;
        offset += ROWS;
        const load = loadAverage();
        console.error(
          `[bench] import-costs, ${db_}: ${name}: ${seconds.toFixed(1)} s for ${ROWS} sites (load ${load})`,
        );
        rows.push(
          row(
            AREA,
            `${db_}: ${ROWS.toLocaleString('en')} sites and their trades, ${name} (load ${load})`,
            seconds,
            's',
          ),
        );
      }
    } finally {
      await database.close();
    }
  } finally {
    await postgres?.stop();
    removeTempFolder(folder);
  }
}

/** `count` sites in 1,000-row statements, one transaction each, with two trades each, as an import chunk writes them. */
async function writeSites(db: Kysely<any>, count: number, offset: number, countedOnce = false) {
  const trades = (await sql<{ id: number }>`select id from trades order by id limit 8`.execute(db)).rows.map(
    (t) => t.id,
  );
  for (let start = 0; start < count; start += 1_000) {
    await db
      .transaction()
      .execute((trx) =>
        countedOnce
          ? countMarketShareOnce(trx, () => writeThousand(trx, trades, count, offset, start))
          : writeThousand(trx, trades, count, offset, start),
      );
  }
}

/** One transaction's 1,000 sites (fewer at the end) and two trades each. */
async function writeThousand(trx: Kysely<any>, trades: number[], count: number, offset: number, start: number) {
  const list = Array.from({ length: Math.min(1_000, count - start) }, (_, i) => {
    const n = offset + start + i;
    return {
      name: `Harbor Project ${n}`,
      external_id: `X${n}`,
      type: ['union', 'non-union', 'pending'][n % 3],
      street: `${n} Main St`,
      city: `City ${n % 300}`,
      county: 'County',
      state: 'CA',
      postal_code: String(90000 + (n % 9000)),
      latitude: 32 + (n % 1000) / 100,
      longitude: -124 + (n % 1300) / 100,
      estimated_value: (n * 7919) % 1000003,
      source: 'dodge-data',
      owner: `Owner ${n % 50}`,
      notes: 'A building',
      custom: {},
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    };
  });
  const inserted = await sql<{
    id: number;
  }>`insert into sites (name, external_id, type, street, city, county, state, postal_code, latitude, longitude, estimated_value, source, owner, notes, custom, created_at, updated_at)
    select name, external_id, type, street, city, county, state, postal_code, latitude, longitude, estimated_value, source, owner, notes, custom, created_at, updated_at
    from json_to_recordset(${JSON.stringify(list)}::json) as x(name text, external_id text, type text, street text, city text, county text, state text, postal_code text, latitude float8, longitude float8, estimated_value numeric, source text, owner text, notes text, custom jsonb, created_at timestamptz, updated_at timestamptz)
    returning id`.execute(trx);
  const links = inserted.rows.flatMap((site, i) => [
    { site_id: site.id, trade_id: trades[i % trades.length] },
    { site_id: site.id, trade_id: trades[(i + 3) % trades.length] },
  ]);
  await sql`insert into site_trades (site_id, trade_id) select site_id, trade_id from json_to_recordset(${JSON.stringify(links)}::json) as x(site_id integer, trade_id integer) on conflict do nothing`.execute(
    trx,
  );
}
