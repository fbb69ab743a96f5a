/**
 * A server with many sites (100,000 by default) for the tests and benchmarks that need a large list: the sites are
 * written with one SQL `insert ... select from generate_series` while the server is stopped (the embedded database
 * has one owner at a time), then the server starts again on them. Names are "<word> Project <n>", types cycle
 * through the site categories, cities through 300 "City <n>". With `postgres`, the server runs on a throwaway
 * PostgreSQL server when one is installed (100,000 rows go in within seconds there, against minutes in the embedded
 * database on a busy machine), else on the embedded database.
 */
import { performance } from 'node:perf_hooks';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../../src/server/db/database.js';
import {
  freePort,
  makeTempFolder,
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

/** Writes `count` sites (and, when given, a custom dropdown's value on each, cycling through its choices). */
export async function fillSites(
  databaseUrl: string | undefined,
  dataDir: string,
  count: number,
  custom?: { slug: string; choices: readonly string[] },
) {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    await insertSites(database.db, count, custom);
  } finally {
    await database.close();
  }
}

/** The sites of fillSites, written into a database already open (a benchmark that builds the app in its process). */
export async function insertSites(
  db: Kysely<any>,
  count: number,
  custom?: { slug: string; choices: readonly string[] },
) {
  const started = performance.now();
  const customValue = custom
    ? sql`jsonb_build_object(${custom.slug}::text, (${sql.val(custom.choices)}::text[])[1 + g % ${custom.choices.length}])`
    : sql`'{}'::jsonb`;
  await sql`insert into sites (name, type, city, postal_code, latitude, longitude, estimated_value, custom, created_at, updated_at)
    select (${sql.val(SITE_WORDS)}::text[])[1 + g % 10] || ' Project ' || g,
      (${sql.val(SITE_TYPES)}::text[])[1 + g % 6],
      'City ' || g % 300, lpad((90000 + g % 9000)::text, 5, '0'), 32 + (g % 1000) / 100.0, -124 + (g % 1300) / 100.0,
      (g * 7919) % 1000003 * 100,
      ${customValue},
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

/** A fresh server (its own folder and port) holding `count` sites and the administrator given. */
export async function startServerWithSites(
  count: number,
  admin: { email: string; password: string },
  { postgres: usePostgres = false }: { postgres?: boolean } = {},
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
    };
    // The first start makes the database (tables, the administrator); the sites go in while it is stopped.
    const first = await startServer({ ...options, port: await freePort() });
    await first.stop();
    await fillSites(options.databaseUrl, dataDir, count);
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
