/**
 * `npm run bench -- turf`: (1) point-in-polygon of 100,000 sites for a drawn turf of 1,000 vertices (what
 * POST /api/regions/preview and placing the sites of a drawn region do): target under 200 ms; (2) a page of the site
 * list as a person limited to a turf (`site:read:turf`) against the same page for a person who reads every site, p95
 * over unique requests through the record service, on the embedded database and on a throwaway PostgreSQL server when
 * one is installed (BENCH_DATABASES=pglite or postgres for one of them): target within 20 % of the unscoped one.
 * The load average is printed beside every figure. BENCH_SITES=5000 makes a quick run; TURF_EXPLAIN=1 prints the
 * plan (EXPLAIN ANALYZE) of every statement of a few list requests, scoped and unscoped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type CompiledQuery, DefaultQueryExecutor, type Kysely, sql } from 'kysely';
import { buildApp } from '../../src/server/app.js';
import type { AuthUser } from '../../src/server/auth/auth-user.js';
import { loadConfig } from '../../src/server/config/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { assignRegionSites } from '../../src/server/regions/assign.js';
import type { AreaGeometry } from '../../src/server/regions/geometry.js';
import { idsInside } from '../../src/server/regions/turf.js';
import { ensureAppKey, seedDatabase } from '../../src/server/seed/seed.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';
import { benchDatabases, loadAverage } from './lib/server.js';
import { drawnTurf } from './lib/turf-shape.js';
import { type BenchRow, row } from './types.js';

const AREA = 'turf';
const SITES = Number(process.env.BENCH_SITES ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const VERTICES = 1_000;

function percentile(values: number[], fraction: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)];
}

/** The sites' coordinates as one packed string, as the preview reads them. */
function pointsOf(n: number): string {
  const parts: string[] = [];
  for (let g = 1; g <= n; g++) parts.push(`${g},${32 + (g % 1000) / 100},${-124 + (g % 1300) / 100}`);
  return parts.join(';');
}

export async function benchTurf(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const turf = drawnTurf(37, -118, VERTICES);

  // (1) point-in-polygon, the pure part: best of five runs (the first compiles the code).
  const packed = pointsOf(100_000);
  const times: number[] = [];
  let inside = 0;
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    inside = idsInside(packed, turf).length;
    times.push(performance.now() - started);
  }
  console.error(`[bench] turf: ${inside} of 100,000 points inside a ${VERTICES}-corner turf; load ${loadAverage()}`);
  rows.push(
    row(
      AREA,
      `point-in-polygon 100,000 sites, ${VERTICES}-vertex turf (median of 5; load ${loadAverage()})`,
      percentile(times, 0.5),
      'ms',
      { below: 200 },
    ),
  );

  // (2) the turf-scoped list against the unscoped one, through the record service, on each database.
  for (const kind of benchDatabases()) await listsOn(kind, turf, rows);
  return rows;
}

const NAMES = { pglite: 'embedded', postgres: 'PostgreSQL' };

async function listsOn(kind: 'pglite' | 'postgres', turf: AreaGeometry, rows: BenchRow[]) {
  let postgres: PostgresServer | null = null;
  if (kind === 'postgres') {
    postgres = await (startPostgres() ?? Promise.resolve(null));
    if (!postgres) {
      console.error('[bench] turf: no PostgreSQL server binaries installed; the PostgreSQL figures are skipped');
      return;
    }
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'om-bench-turf-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'bench-admin-password',
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  });
  const database = await openDatabase(config);
  const name = NAMES[kind];
  try {
    await migrate(database.db);
    config.appKey ??= await ensureAppKey(database.db);
    await seedDatabase(database.db, config);
    const { app, ctx } = await buildApp({ config, database, logger: false, sendMail: async () => undefined });
    const db = ctx.db;
    const started = performance.now();
    await sql`insert into sites (name, type, city, latitude, longitude, created_at, updated_at)
      select 'Turf Project ' || g, (array['union','non-union','pla'])[1 + g % 3], 'City ' || g % 300,
        32 + (g % 1000) / 100.0, -124 + (g % 1300) / 100.0, now() - (g % 1000) * interval '1 day', now() - (g % 1000) * interval '1 day'
      from generate_series(1, ${SITES}) g`.execute(db);
    const region = await db
      .insertInto('regions')
      .values({
        name: 'Bench turf',
        geometry_type: 'drawn',
        geometry: JSON.stringify(turf),
        min_lat: 34.4,
        max_lat: 39.6,
        min_lng: -120.6,
        max_lng: -115.4,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const placeStarted = performance.now();
    const pairs = await db.transaction().execute((trx) => assignRegionSites(trx, [region.id]));
    const placeMs = performance.now() - placeStarted;
    const role = await db
      .insertInto('roles')
      .values({ slug: 'bench-turf', name: 'Bench turf', permissions: JSON.stringify(['site:read:turf']) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await db
      .insertInto('users')
      .values({
        first_name: 'Bench',
        last_name: 'Organizer',
        email: 'bench-turf@example.com',
        password: 'x',
        role_id: role.id,
        realtime_key: 'bench-turf-key',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('region_users').values({ region_id: region.id, user_id: user.id }).execute();
    // As the running server leaves them within a minute: statistics, and pages marked all-visible (the embedded
    // database's maintenance, db/embedded-maintenance.ts; PostgreSQL's autovacuum).
    await sql`vacuum analyze`.execute(db);
    console.error(
      `[bench] turf (${name}): ${SITES} sites written, ${pairs} placed in the turf in ${placeMs.toFixed(0)} ms (${((performance.now() - started) / 1000).toFixed(1)} s in all)`,
    );
    rows.push(
      row(
        AREA,
        `${name}: placing ${SITES.toLocaleString('en')} sites in a ${VERTICES}-vertex drawn region (${pairs} inside; load ${loadAverage()})`,
        placeMs,
        'ms',
      ),
    );

    const admin = { id: 1, role_id: 1, permissions: ['site:read'], team_id: null, team_ids: [] } as unknown as AuthUser;
    const organizer = {
      id: user.id,
      role_id: role.id,
      permissions: ['site:read:turf'],
      team_id: null,
      team_ids: [],
    } as unknown as AuthUser;
    const sites = ctx.resources.get('sites')!;
    const query = (i: number) => ({
      sort: i % 2 ? 'name' : 'created_at',
      order: 'desc',
      page: String(1 + (i % 40)),
      per_page: '25',
      total: 'estimate',
      ...(i % 3 === 0 ? { 'filter[type]': 'union' } : {}),
    });
    if (process.env.TURF_EXPLAIN) {
      // Page 1 and page 40, by date and by name, with and without the type filter.
      const cases = ['created_at', 'name'].flatMap((sort) =>
        ['1', '40'].flatMap((page) =>
          [{}, { 'filter[type]': 'union' }].map((filter) => ({
            sort,
            order: 'desc',
            page,
            per_page: '25',
            total: 'estimate',
            ...filter,
          })),
        ),
      );
      for (const person of [admin, organizer]) {
        for (const q of cases)
          await explainList(
            db,
            `${name}, ${person === admin ? 'every site' : 'turf-scoped'}, ${JSON.stringify(q)}`,
            () => ctx.records.list(person, sites, q),
          );
      }
    }
    // Wall time, and the CPU time the request took (this process, plus the PostgreSQL server's): the CPU figure
    // says less about the machine's other work, which on a shared machine dominates the wall time. The two people's
    // requests alternate, so that a spell of other work on the machine falls on both alike.
    const serverCpu = () => postgres?.cpuMs() ?? 0;
    for (let i = 0; i < 10; i++)
      for (const person of [admin, organizer]) await ctx.records.list(person, sites, query(i + 1000));
    const times = new Map([admin, organizer].map((person) => [person, { wall: [] as number[], cpu: [] as number[] }]));
    for (let i = 0; i < SAMPLES; i++) {
      for (const person of i % 2 ? [organizer, admin] : [admin, organizer]) {
        const server = serverCpu();
        const own = process.cpuUsage();
        const at = performance.now();
        await ctx.records.list(person, sites, query(i));
        times.get(person)!.wall.push(performance.now() - at);
        const used = process.cpuUsage(own);
        times.get(person)!.cpu.push((used.user + used.system) / 1000 + serverCpu() - server);
      }
    }
    const p95 = (person: AuthUser) => ({
      wall: percentile(times.get(person)!.wall, 0.95),
      cpu: percentile(times.get(person)!.cpu, 0.95),
    });
    const unscoped = p95(admin);
    const scoped = p95(organizer);
    const load = loadAverage();
    rows.push(row(AREA, `${name}: site list p95, every site (load ${load})`, unscoped.wall, 'ms'));
    rows.push(row(AREA, `${name}: site list p95, turf-scoped (load ${load})`, scoped.wall, 'ms'));
    rows.push(
      row(AREA, `${name}: turf-scoped p95 over unscoped p95 (load ${load})`, (100 * scoped.wall) / unscoped.wall, '%', {
        atMost: 120,
      }),
    );
    rows.push(
      row(
        AREA,
        `${name}: CPU time p95, every site / turf-scoped: ${unscoped.cpu.toFixed(1)} / ${scoped.cpu.toFixed(1)} ms`,
        (100 * scoped.cpu) / unscoped.cpu,
        '%',
      ),
    );
    await app.close();
  } finally {
    await database.close().catch(() => undefined);
    await postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs `work` once to record its statements, then prints each one's EXPLAIN ANALYZE (run again, with its parameters). */
async function explainList(db: Kysely<any>, title: string, work: () => Promise<unknown>) {
  const statements: CompiledQuery[] = [];
  const original = DefaultQueryExecutor.prototype.executeQuery;
  DefaultQueryExecutor.prototype.executeQuery = function (
    this: DefaultQueryExecutor,
    compiled: CompiledQuery,
    ...rest: unknown[]
  ) {
    statements.push(compiled);
    return (original as any).call(this, compiled, ...rest);
  } as typeof original;
  try {
    await work();
  } finally {
    DefaultQueryExecutor.prototype.executeQuery = original;
  }
  console.error(`\n===== ${title}`);
  for (const statement of statements) {
    if (!/^\s*(select|with)/i.test(statement.sql)) continue;
    const { rows } = await sql<
      Record<string, string>
    >`explain (analyze, buffers) ${sql.raw(statement.sql.replace(/\$(\d+)/g, (_m, n) => literal(statement.parameters[Number(n) - 1])))}`.execute(
      db,
    );
    console.error(`--- ${statement.sql}\n    [${statement.parameters.map((p) => JSON.stringify(p)).join(', ')}]`);
    console.error(rows.map((r) => Object.values(r)[0]).join('\n'));
  }
}

/** A parameter as an SQL literal, for the EXPLAIN of a recorded statement (bench values only: numbers and plain text). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `array[${value.map(literal).join(',')}]`;
  return `'${String(value).replace(/'/g, "''")}'`;
}
