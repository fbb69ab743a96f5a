/**
 * A server with many sites (100,000 by default) for the tests and benchmarks that need a large list: the sites are
 * written with one SQL `insert ... select from generate_series` while the server is stopped (the embedded database
 * has one owner at a time), then the server starts again on them. Names are "<word> Project <n>", types cycle
 * through the site categories, cities through 300 "City <n>". With `postgres`, the server runs on a throwaway
 * PostgreSQL server when one is installed (100,000 rows go in within seconds there, against minutes in the embedded
 * database on a busy machine), else on the embedded database. With `keep` (embedded database only), the data
 * folder so made is kept between runs (see keptSitesFolder) and each run starts on a copy of it.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, lstatSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../../src/server/db/database.js';
import {
  freePort,
  makeTempFolder,
  ROOT,
  type RunningServer,
  removeTempFolder,
  type ServerOptions,
  startServer,
} from '../bench/lib/server.js';
import { type PostgresServer, startPostgres } from './postgres-server.js';

export const SITE_WORDS = [
  'Harbor',
  'Mission',
  'Summit',
  'Pacific',
  'Golden',
  'Sierra',
  'Bayview',
  'Canyon',
  'Civic',
  'Oak',
];
export const SITE_TYPES = ['union', 'non-union', 'pla', 'public-works', 'development', 'pending'];

/** What a fill writes beside the sites' own columns. */
export interface SiteFill {
  /** A custom dropdown's value on each site, cycling through its choices. */
  custom?: { slug: string; choices: readonly string[] };
  /**
   * This many contractors (of four types: union, non-union, general, union) written first; then two sites in three
   * have one of them as general contractor and every site a bid date from a year ago to a year ahead, all in the
   * sites' one insert (set after it, an UPDATE of 100,000 sites fires a per-row trigger on the general contractor
   * and rewrites every index: it ran 81 minutes in the embedded database at a load of 25).
   */
  contractors?: number;
}

/** Writes `count` sites (and what `fill` asks for). */
export async function fillSites(databaseUrl: string | undefined, dataDir: string, count: number, fill: SiteFill = {}) {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    await insertSites(database.db, count, fill);
  } finally {
    await database.close();
  }
}

/** The sites of fillSites, written into a database already open (a benchmark that builds the app in its process). */
export async function insertSites(db: Kysely<any>, count: number, { custom, contractors = 0 }: SiteFill = {}) {
  const started = performance.now();
  const customValue = custom
    ? sql`jsonb_build_object(${custom.slug}::text, (${sql.val(custom.choices)}::text[])[1 + g % ${custom.choices.length}])`
    : sql`'{}'::jsonb`;
  let firstContractor: number | null = null;
  if (contractors > 0) {
    const inserted = await sql<{ first: number }>`with added as (
        insert into contractors (name, type, created_at, updated_at)
        select 'Contractor ' || g, (array['union', 'non-union', 'general', 'union'])[1 + g % 4], now(), now()
        from generate_series(1, ${contractors}) g
        returning id)
      select min(id) as first from added`.execute(db);
    firstContractor = inserted.rows[0].first;
  }
  const bidDate = firstContractor === null ? sql`null::date` : sql`current_date + (g % 730 - 365)`;
  const generalContractor =
    firstContractor === null
      ? sql`null::integer`
      : sql`case when g % 3 = 0 then null else ${firstContractor}::integer + (g * 7) % ${contractors} end`;
  await sql`insert into sites (name, type, city, postal_code, latitude, longitude, estimated_value, custom,
      bid_date, general_contractor_id, created_at, updated_at)
    select (${sql.val(SITE_WORDS)}::text[])[1 + g % 10] || ' Project ' || g,
      (${sql.val(SITE_TYPES)}::text[])[1 + g % 6],
      'City ' || g % 300, lpad((90000 + g % 9000)::text, 5, '0'), 32 + (g % 1000) / 100.0, -124 + (g % 1300) / 100.0,
      (g * 7919) % 1000003 * 100,
      ${customValue}, ${bidDate}, ${generalContractor},
      now() - (g % 1000) * interval '1 day', now() - (g % 1000) * interval '1 day'
    from generate_series(1, ${count}) g`.execute(db);
  // As a running server leaves them within a minute (the embedded database's maintenance, PostgreSQL's autovacuum):
  // counts can then be answered from an index alone, whichever of the two the list meets.
  await sql`vacuum analyze`.execute(db);
  console.error(`[many-sites] ${count} sites written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export interface ServerWithSites {
  server: RunningServer;
  /** The server's data folder (its database, with the embedded one, and files). */
  dataDir: string;
  close: () => Promise<void>;
}

export interface ManySitesOptions {
  /** On a throwaway PostgreSQL server when one is installed. */
  postgres?: boolean;
  /** The demo data too (SEED_DEMO=1: the demo accounts, sites, regions...), under the sites. */
  seedDemo?: boolean;
  /** Keep the filled data folder between runs and start each on a copy (embedded database only): keptSitesFolder. */
  keep?: boolean;
  /** More settings for the server (LOG_LEVEL, ASSISTANT_*...). */
  env?: Record<string, string>;
  /** What the sites hold beside their own columns (contractors and bid dates, a custom dropdown). */
  fill?: SiteFill;
}

/**
 * Puts `count` sites into the database of a server about to be started with `options` for the first time. Embedded
 * with `keep`, the kept folder is copied into its data folder; otherwise a first start makes the database (tables,
 * the administrator) and the sites go in while it is stopped.
 */
export async function putSites(
  options: Omit<ServerOptions, 'port'>,
  count: number,
  admin: { email: string; password: string },
  { seedDemo = false, keep = false, fill = {} }: Pick<ManySitesOptions, 'seedDemo' | 'keep' | 'fill'> = {},
) {
  if (keep && !options.databaseUrl) {
    // Without the control socket a server left in the kept folder (`cp` refuses a socket file).
    cpSync(await keptSitesFolder(count, admin, seedDemo, fill), options.dataDir, {
      recursive: true,
      filter: (source) => !lstatSync(source).isSocket(),
    });
    return;
  }
  const first = await startServer({ ...options, port: await freePort() });
  await first.stop();
  await fillSites(options.databaseUrl, options.dataDir, count, fill);
}

/** A fresh server (its own folder and port) holding `count` sites and the administrator given. */
export async function startServerWithSites(
  count: number,
  admin: { email: string; password: string },
  { postgres: usePostgres = false, seedDemo = false, keep = false, env, fill = {} }: ManySitesOptions = {},
): Promise<ServerWithSites> {
  const dataDir = makeTempFolder('om-many-sites-');
  let postgres: PostgresServer | null = null;
  try {
    if (usePostgres) postgres = await (startPostgres() ?? Promise.resolve(null));
    const options: Omit<ServerOptions, 'port'> = {
      dataDir,
      adminEmail: admin.email,
      adminPassword: admin.password,
      databaseUrl: postgres?.url,
      seedDemo,
      env,
    };
    await putSites(options, count, admin, { seedDemo, keep, fill });
    const server = await startServer({ ...options, port: await freePort() });
    return {
      server,
      dataDir,
      close: async () => {
        await server.stop().catch(() => undefined);
        await postgres?.stop().catch(() => undefined);
        removeTempFolder(dataDir);
      },
    };
  } catch (error) {
    await postgres?.stop().catch(() => undefined);
    removeTempFolder(dataDir);
    throw error;
  }
}

/** What the data of a kept folder comes from: the migrations, the seed and its data, the schema files, this file. */
const KEPT_SOURCES = [
  'src/server/db/migrations',
  'src/server/seed',
  'src/server/regions',
  'schemas',
  'tests/support/many-sites.ts',
];

function filesUnder(entry: string): string[] {
  if (!statSync(entry).isDirectory()) return [entry];
  return readdirSync(entry)
    .sort()
    .flatMap((name) => filesUnder(path.join(entry, name)));
}

/**
 * An embedded database's data folder with the administrator, the demo data when asked, and `count` sites (with `fill`), made once
 * and kept under the system temp folder (`om-kept-sites-<hash>`) for the next runs: filling 100,000 sites into the
 * embedded database takes minutes of CPU (each row's triggers and trigram index entries), copying the folder seconds.
 * The folder's name is a hash of everything its data comes from (KEPT_SOURCES' contents, the count, the seed's
 * settings), so a change to any of them makes a new one. BENCH_FRESH_SITES=1 makes it again anyway.
 */
export async function keptSitesFolder(
  count: number,
  admin: { email: string; password: string },
  seedDemo: boolean,
  fill: SiteFill = {},
): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify({ count, admin, seedDemo, fill }));
  for (const source of KEPT_SOURCES)
    for (const file of filesUnder(path.join(ROOT, source))) hash.update(file).update(readFileSync(file));
  const kept = path.join(os.tmpdir(), `om-kept-sites-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(kept) && process.env.BENCH_FRESH_SITES !== '1') {
    console.error(`[many-sites] ${count} sites from the kept folder ${kept}`);
    return kept;
  }
  const making = makeTempFolder('om-kept-sites-making-');
  const options = { dataDir: making, adminEmail: admin.email, adminPassword: admin.password, seedDemo };
  const first = await startServer({ ...options, port: await freePort(), timeoutMs: 600_000 });
  await first.stop();
  await fillSites(undefined, making, count, fill);
  removeTempFolder(kept);
  renameSync(making, kept);
  console.error(`[many-sites] kept for the next runs: ${kept}`);
  return kept;
}
