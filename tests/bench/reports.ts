/**
 * `npm run bench -- reports`: p95 latency of the dashboard statistics, the activity feed's first page and each report
 * at its widest grouping, with 100,000 sites, 20,000 contractors and 50,000 tasks (plus their links, regions, 170,000
 * revisions, members and recruits) in the embedded database (PGlite). The server is built in this process and
 * listens on a free port; requests go over HTTP one at a time (the figure is the latency one person sees). Each case
 * also reports the median CPU time of this process per request (server, database and client together), which
 * depends far less on what else runs on the machine than the wall time does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Kysely, sql } from 'kysely';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { ensureAppKey, seedDatabase } from '../../src/server/seed/seed.js';
import { signIn } from './lib/http.js';
import { type BenchRow, row } from './types.js';

const AREA = 'reports';
const SITES = Number(process.env.BENCH_SITES ?? 100_000);
const CONTRACTORS = Number(process.env.BENCH_CONTRACTORS ?? 20_000);
const TASKS = Number(process.env.BENCH_TASKS ?? 50_000);
const PEOPLE = 60;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const WARMUP = 3;
const TARGET_MS = 200;
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'bench-admin-password';

async function fill(db: Kysely<any>) {
  const exec = (query: ReturnType<typeof sql>) => query.execute(db);
  await exec(sql`insert into teams (name) select 'Team ' || g from generate_series(1, 6) g`);
  const roleId = (await db.selectFrom('roles').select('id').where('slug', '=', 'user').executeTakeFirstOrThrow()).id;
  const password = (
    await db.selectFrom('users').select('password').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow()
  ).password;
  await exec(sql`insert into users (first_name, last_name, email, password, role_id, team_id, realtime_key, goals)
    select 'Person', 'No ' || g, 'person' || g || '@example.com', ${password}, ${roleId}, (select min(id) from teams) + g % 6, md5(g::text),
      '{"default": {"calls": 40, "meetings": 10, "visits": 20, "recruits": 4}}'::jsonb
    from generate_series(1, ${PEOPLE}) g`);
  await exec(sql`insert into team_user (team_id, user_id) select team_id, id from users where team_id is not null`);
  await exec(
    sql`insert into regions (name, geometry_type, code) select 'Region ' || g, case when g = 1 then 'state' else 'county' end, g::text from generate_series(1, 20) g`,
  );
  await exec(sql`insert into contractors (name, type, city, created_at)
    select 'Contractor ' || g, (array['union', 'non-union', 'general', 'none', 'union', 'non-union'])[1 + g % 6], 'City ' || g % 50, now() - (g % 1000) * interval '1 day'
    from generate_series(1, ${CONTRACTORS}) g`);
  await exec(sql`insert into sites (name, type, site_status_id, building_type_id, estimated_value, estimated_hours, general_contractor_id, team_id, user_id, city, created_at, updated_at, kickoff_date)
    select 'Site ' || g,
      (array['union', 'union', 'non-union', 'non-union', 'pla', 'public-works', 'development', 'lcmt', 'pending', 'mega', 'residential'])[1 + g % 11],
      (select min(id) from site_statuses) + g % 6, (select min(id) from building_types) + g % 8,
      (g % 400 + 1) * 25000, (g % 200 + 1) * 100,
      case when g % 3 = 0 then null else (select min(id) from contractors) + (g * 7) % ${CONTRACTORS} end,
      (select min(id) from teams) + g % 6, (select min(id) from users) + g % ${PEOPLE}, 'City ' || g % 50,
      now() - (g % 1100) * interval '1 day', now() - (g % 1100) * interval '1 day', (now() - (g % 1100 - 60) * interval '1 day')::date
    from generate_series(1, ${SITES}) g`);
  const firstSite = (await db.selectFrom('sites').select(sql<number>`min(id)`.as('id')).executeTakeFirstOrThrow()).id;
  const firstContractor = (
    await db.selectFrom('contractors').select(sql<number>`min(id)`.as('id')).executeTakeFirstOrThrow()
  ).id;
  await exec(
    sql`insert into site_contractors (site_id, contractor_id) select s.id, ${firstContractor} + (s.id * 13 + k * 101) % ${CONTRACTORS} from sites s, generate_series(1, 2) k`,
  );
  await exec(
    sql`insert into site_regions (site_id, region_id) select s.id, (select min(id) from regions) from sites s`,
  );
  await exec(
    sql`insert into site_regions (site_id, region_id) select s.id, (select min(id) from regions) + 1 + s.id % 19 from sites s`,
  );
  await exec(
    sql`insert into site_trades (site_id, trade_id) select s.id, (select min(id) from trades) + s.id % 15 from sites s`,
  );
  await exec(sql`insert into tasks (title, type, due_at, completed_at, assignee_id, user_id, taskable_type, taskable_id, created_at)
    select 'Task ' || g, (array['call', 'meeting', 'visit'])[1 + g % 3], now() + (g % 400 - 300) * interval '1 day',
      case when g % 3 = 0 then null else now() + (g % 400 - 305) * interval '1 day' end,
      (select min(id) from users) + g % ${PEOPLE}, (select min(id) from users), 'site', ${firstSite} + g % ${SITES}, now() - (g % 400) * interval '1 day'
    from generate_series(1, ${TASKS}) g`);
  await exec(sql`insert into members (first_name, last_name, classification_id, is_steward, team_id)
    select 'Member', 'No ' || g, (select min(id) from classifications) + g % 9, g % 11 = 0, (select min(id) from teams) + g % 6 from generate_series(1, 20000) g`);
  await exec(
    sql`insert into recruits (first_name, user_id, signed_at) select 'Recruit ' || g, (select min(id) from users) + g % ${PEOPLE}, case when g % 2 = 0 then (now() - (g % 365) * interval '1 day')::date end from generate_series(1, 5000) g`,
  );
  await exec(
    sql`insert into grievances (title, status, team_id) select 'Grievance ' || g, case when g % 3 = 0 then 'closed' else 'open' end, (select min(id) from teams) + g % 6 from generate_series(1, 2000) g`,
  );
  // One revision per record written (as the record service would), oldest first, by the organizers.
  await exec(sql`insert into revisions (revisionable_type, revisionable_id, action, user_id, changes, created_at)
    select type, id, 'created', (select min(id) from users) + id % ${PEOPLE}, '{}'::jsonb, at from (
      select 'contractor' as type, id, created_at as at from contractors
      union all select 'site', id, created_at from sites
      union all select 'task', id, created_at from tasks
    ) x order by at`);
  await exec(sql`analyze`);
}

function p95(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function benchReports(): Promise<BenchRow[]> {
  // BENCH_REPORTS_DIR keeps the filled database between runs (for working on a query); by default a fresh temporary one.
  const kept = process.env.BENCH_REPORTS_DIR;
  const dataDir = kept ?? mkdtempSync(path.join(os.tmpdir(), 'om-bench-reports-'));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: '',
    // Every request reaches the queries: no answer or session is kept between requests.
    READ_CACHE: '0',
  });
  const database = await openDatabase(config);
  const rows: BenchRow[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>['app'] | null = null;
  try {
    await migrate(database.db);
    config.appKey ??= await ensureAppKey(database.db);
    const fresh = (await seedDatabase(database.db, config)).seeded;
    const filled = performance.now();
    if (fresh) {
      await fill(database.db);
      // person1 reads only union and PLA sites and union contractors (the seeded assistant role), plus reports.
      const assistantRole = (
        await database.db.selectFrom('roles').select('id').where('slug', '=', 'assistant').executeTakeFirstOrThrow()
      ).id;
      await database.db
        .updateTable('roles')
        .set({ permissions: sql`permissions || '["report:read"]'::jsonb` })
        .where('id', '=', assistantRole)
        .execute();
      await database.db
        .updateTable('users')
        .set({ role_id: assistantRole })
        .where('email', '=', 'person1@example.com')
        .execute();
      console.error(
        `[bench] reports: filled ${SITES} sites, ${CONTRACTORS} contractors, ${TASKS} tasks in ${((performance.now() - filled) / 1000).toFixed(1)} s`,
      );
    }

    const built = await buildApp({ config, database, logger: false });
    app = built.app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const admin = await signIn(baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const organizer = await signIn(baseUrl, 'person2@example.com', ADMIN_PASSWORD);
    const limited = await signIn(baseUrl, 'person1@example.com', ADMIN_PASSWORD);
    const year = new Date().getUTCFullYear();

    const cases: Array<[string, string, string]> = [
      ['GET /api/dashboard/statistics (sidebar, every route change)', '/api/dashboard/statistics', organizer],
      [
        'GET /api/dashboard/statistics (dashboard, a year)',
        `/api/dashboard/statistics?from=${year}-01-01&to=${year}-12-31`,
        organizer,
      ],
      [
        'GET /api/dashboard/statistics (a team)',
        `/api/dashboard/statistics?from=${year}-01-01&to=${year}-12-31&team_id=1`,
        admin,
      ],
      ['GET /api/dashboard/data (sites by category and status)', '/api/dashboard/data', admin],
      ['GET /api/dashboard/data (category-limited person)', '/api/dashboard/data', limited],
      ['GET /api/actions first page (administrator)', '/api/actions', admin],
      ['GET /api/actions first page (organizer, incognito rule)', '/api/actions', organizer],
      ['GET /api/actions first page (category-limited person)', '/api/actions', limited],
      ['GET /api/actions first page (a region)', '/api/actions?region_id=5', admin],
      ['GET /api/reports/market-share by region', '/api/reports/market-share?group_by=region', admin],
      ['GET /api/reports/market-share by trade', '/api/reports/market-share?group_by=trade', admin],
      [
        'GET /api/reports/market-share by month (all time)',
        '/api/reports/market-share?group_by=period&interval=month',
        admin,
      ],
      ['GET /api/reports/market-share by building type', '/api/reports/market-share?group_by=building_type', admin],
      [
        'GET /api/reports/market-share by site type (a trade, a year)',
        `/api/reports/market-share?group_by=site_type&trade_id=3&from=${year}-01-01&to=${year}-12-31`,
        admin,
      ],
      [
        'GET /api/reports/market-share by region (a year: counted from the sites)',
        `/api/reports/market-share?group_by=region&from=${year}-01-01&to=${year}-12-31`,
        admin,
      ],
      [
        'GET /api/reports/market-share by region (category-limited)',
        '/api/reports/market-share?group_by=region',
        limited,
      ],
      [
        'GET /api/reports/market-share/sites (drill-down page)',
        '/api/reports/market-share/sites?group_by=region&key=2&labour=union',
        admin,
      ],
      ['GET /api/reports/classifications', '/api/reports/classifications', admin],
      [
        'GET /api/reports/task-performance by person by month (all)',
        '/api/reports/task-performance?from=2000-01-01&to=2100-12-31&interval=month',
        admin,
      ],
      [
        'GET /api/reports/task-performance by team by week (all)',
        '/api/reports/task-performance?from=2000-01-01&to=2100-12-31&interval=week&group_by=team',
        admin,
      ],
      ['GET /api/reports/task-performance by person (this month, the default)', '/api/reports/task-performance', admin],
      [
        'GET /api/reports/user-performance (a year)',
        `/api/reports/user-performance?from=${year}-01-01&to=${year}-12-31`,
        admin,
      ],
    ];
    const only = process.env.BENCH_REPORTS_ONLY;
    for (const [metric, url, cookie] of cases.filter(([metric]) => !only || metric.includes(only))) {
      const times: number[] = [];
      // CPU time of this process (server, embedded database and client) per request: on a shared machine the wall
      // time grows with the load, the CPU time much less, so it tells what a request costs on a quiet one.
      const cpu: number[] = [];
      for (let i = 0; i < WARMUP + SAMPLES; i++) {
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        const response = await fetch(baseUrl + url, { headers: { accept: 'application/json', cookie } });
        await response.arrayBuffer();
        const used = process.cpuUsage(cpuBefore);
        if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
        if (i >= WARMUP) {
          times.push(performance.now() - started);
          cpu.push((used.user + used.system) / 1000);
        }
      }
      rows.push(row(AREA, `${metric} p95`, Math.round(p95(times) * 10) / 10, 'ms', { below: TARGET_MS }));
      rows.push(row(AREA, `${metric} CPU per request (median)`, Math.round(median(cpu) * 10) / 10, 'ms'));
      console.error(
        `[bench] reports: ${metric}: p95 ${p95(times).toFixed(1)} ms, CPU per request ${median(cpu).toFixed(1)} ms (median)`,
      );
    }
  } finally {
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    if (!kept) rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
