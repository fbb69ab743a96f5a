/**
 * `npm run bench -- access-scope` (issue 31's list and fan-out figures): on 100,000 sites and 20,000 tasks, on the
 * embedded database and on a throwaway PostgreSQL server (BENCH_DATABASES=pglite or postgres for one of them), timed
 * black-box from this process against the real server (`startServer`, read cache off):
 * - the site list and the task list of a person whose role reads "own or team" and of one whose turf holds about
 *   14,000 sites, against the same lists of an administrator (unscoped): p95 of each and the ratio (target: within
 *   1.3× of the unscoped one). The three people's requests alternate and no request is asked twice (page, sort and
 *   filter change), so nothing is served from a cache and a spell of other work on the machine falls on all alike.
 * - realtime fan-out: 200 people of 5 roles (3 turf-scoped), each signed in and subscribed to their own and their
 *   role's channel as the browser is; the administrator changes sites one at a time (inside the turf and out of it):
 *   the server's CPU per change (the write, the fan-out and the sending; with PostgreSQL, its CPU too; target under
 *   50 ms), the same changes with nobody connected, and how many people heard each change.
 * The load average is printed beside every figure. BENCH_SITES and BENCH_SAMPLES make a quicker run; BENCH_PORT
 * sets the servers' ports; BENCH_PG_STATEMENTS=1 prints the lists' costliest statements on PostgreSQL.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type Pusher from 'pusher-js';
import { fillHolders } from '../../src/server/access/fill-holders.js';
import { loadConfig } from '../../src/server/config/config.js';
import { openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { assignRegionSites } from '../../src/server/regions/assign.js';
import type { AreaGeometry } from '../../src/server/regions/geometry.js';
import { ensureAppKey, seedDatabase } from '../../src/server/seed/seed.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';
import { hubBrowser, next } from '../support/pusher-events.js';
import { request, signIn, xsrfOf } from './lib/http.js';
import { percentile } from './lib/percentile.js';
import { statementProfile, statementSettings } from './lib/pg-statements.js';
import { compileRows, compileTimesAsShipped } from './lib/policy-compile.js';
import {
  benchDatabases,
  freePort,
  loadAverage,
  makeTempFolder,
  procCpuMs,
  removeTempFolder,
  startServer,
} from './lib/server.js';
import { drawnTurf } from './lib/turf-shape.js';
import { type BenchRow, row } from './types.js';

const AREA = 'access-scope';
const SITES = Number(process.env.BENCH_SITES ?? 100_000);
const TASKS = Number(process.env.BENCH_TASKS ?? 20_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 80);
const PEOPLE = 200;
const ROLES = 5;
const TEAMS = 20;
const CHANGES = Number(process.env.BENCH_CHANGES ?? 40);
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };
/** Argon2id of 'bench-user-password' with the server's parameters (as tests/bench/platform.ts). */
const PASSWORD = 'bench-user-password';
const PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$Uo0jPP3GD4KmkCyA3HPrmg$TE47jLWH7bcmUCKtOGPxU8PFMM2ZiktDtxtObt38KHw';
const PUSHER_KEY = 'organizing-map-key';
const NAMES = { pglite: 'embedded', postgres: 'PostgreSQL' };
const COMPILE_ROUNDS = Number(process.env.BENCH_COMPILE_ROUNDS ?? 40);

/** A rectangle turf (the other turf-scoped people's). */
function box(lat: number, lng: number, half: number): AreaGeometry {
  const ring: Array<[number, number]> = [
    [lng - half, lat - half],
    [lng + half, lat - half],
    [lng + half, lat + half],
    [lng - half, lat + half],
    [lng - half, lat - half],
  ];
  return { type: 'Polygon', coordinates: [ring] };
}

/**
 * The five roles of the 200 people: one reading every site, one "own or team", three limited to their turf
 * (`site:read:turf`, as the demo organizers), each with a different set of other permissions.
 */
const ROLE_SET = [
  { slug: 'bench-all', permissions: ['site:read', 'site:update', 'task:read', 'contact:read'], policy: {} },
  {
    slug: 'bench-own-team',
    permissions: ['site:read', 'site:update', 'task:read', 'contact:read'],
    policy: { site: { read: { any: ['own', 'team'] } }, task: { read: { any: ['own', 'team'] } } },
  },
  { slug: 'bench-turf-a', permissions: ['site:read:turf', 'task:read', 'contact:read'], policy: {} },
  { slug: 'bench-turf-b', permissions: ['site:read:turf', 'site:update', 'task:read'], policy: {} },
  { slug: 'bench-turf-c', permissions: ['site:read:turf', 'task:read', 'note:read'], policy: {} },
];

export interface Prepared {
  dataDir: string;
  postgres: PostgresServer | null;
  /** Sign-in emails: the own-or-team person, the person of the large turf. */
  ownTeam: string;
  turf: string;
  people: Array<{ email: string; id: number; roleId: number }>;
  /** Sites to change: inside the large turf, and outside every turf. */
  insideSites: number[];
  outsideSites: number[];
  turfSites: number;
}

/** The server's settings on the bench's data (read cache off, as the server is started). */
function configOf(dataDir: string, postgres: PostgresServer | null) {
  return loadConfig(settingsOf(dataDir, postgres));
}

function settingsOf(dataDir: string, postgres: PostgresServer | null): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    SEED_DEMO: '0',
    LOG_LEVEL: 'silent',
    READ_CACHE: '0',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  };
}

/**
 * A role's policy compiled cold over every record type (target under 5 ms), each of the database's roles (the five
 * above and the seeded ones), in the server's code as it ships, run on the bench's data before the server is started
 * on it (lib/policy-compile.ts `compileTimesAsShipped`).
 */
async function measureCompile(kind: 'pglite' | 'postgres', prepared: Prepared, rows: BenchRow[]) {
  const times = await compileTimesAsShipped(settingsOf(prepared.dataDir, prepared.postgres), COMPILE_ROUNDS);
  const load = loadAverage();
  const what = `${NAMES[kind]}: a role's policy compiled cold, all ${times.types} record types (${times.roles.length} roles × ${COMPILE_ROUNDS}; load ${load})`;
  rows.push(...compileRows(AREA, what, times));
}

export async function prepare(kind: 'pglite' | 'postgres'): Promise<Prepared | null> {
  let postgres: PostgresServer | null = null;
  if (kind === 'postgres') {
    postgres = await (startPostgres(statementSettings()) ?? Promise.resolve(null));
    if (!postgres) {
      console.error(
        '[bench] access-scope: no PostgreSQL server binaries installed; the PostgreSQL figures are skipped',
      );
      return null;
    }
  }
  const dataDir = makeTempFolder('om-bench-access-scope-');
  const config = configOf(dataDir, postgres);
  const database = await openDatabase(config);
  try {
    const db = database.db;
    await migrate(db);
    config.appKey ??= await ensureAppKey(db);
    await seedDatabase(db, config);
    const started = performance.now();
    await sql`insert into teams (name) select 'Bench team ' || g from generate_series(1, ${TEAMS}) g`.execute(db);
    const teamIds = (await db.selectFrom('teams').select('id').orderBy('id').execute()).map((t) => Number(t.id));
    const roleIds: number[] = [];
    for (const role of ROLE_SET) {
      const made = await db
        .insertInto('roles')
        .values({
          slug: role.slug,
          name: role.slug,
          permissions: JSON.stringify(role.permissions),
          policy: JSON.stringify(role.policy),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      roleIds.push(Number(made.id));
    }
    // 200 people, 40 per role, in 20 teams (10 each).
    const people: Prepared['people'] = [];
    for (let i = 0; i < PEOPLE; i++) {
      const roleId = roleIds[i % ROLES];
      const email = `bench-person-${i}@example.com`;
      const made = await db
        .insertInto('users')
        .values({
          first_name: `Person${i}`,
          last_name: 'Bench',
          email,
          password: PASSWORD_HASH,
          role_id: roleId,
          team_id: teamIds[i % TEAMS],
          realtime_key: `bench-key-${i}`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      people.push({ email, id: Number(made.id), roleId });
    }
    const personIds = people.map((p) => p.id);
    // Sites as the turf bench lays them out; half have an organizer of the 200, a third a team.
    await sql`insert into sites (name, type, city, latitude, longitude, user_id, team_id, created_at, updated_at)
      select 'Scope Project ' || g, (array['union','non-union','pla'])[1 + g % 3], 'City ' || g % 300,
        32 + (g % 1000) / 100.0, -124 + (g % 1300) / 100.0,
        case when g % 2 = 0 then (${sql.val(personIds)}::int[])[1 + (g / 2) % ${PEOPLE}] end,
        case when g % 3 = 0 then (${sql.val(teamIds)}::int[])[1 + (g / 3) % ${TEAMS}] end,
        now() - (g % 1000) * interval '1 day', now() - (g % 1000) * interval '1 day'
      from generate_series(1, ${SITES}) g`.execute(db);
    const [{ first }] = (
      await sql<{ first: number }>`select min(id)::int as first from sites where name like 'Scope Project %'`.execute(
        db,
      )
    ).rows;
    // Tasks on sites, assigned to the 200 (their own work: the sites they hang on become theirs too).
    await sql`insert into tasks (title, type, taskable_type, taskable_id, assignee_id, user_id, due_at, created_at, updated_at)
      select 'Scope task ' || g, (array['call','visit','meeting'])[1 + g % 3], 'site', ${first}::int + (g * 7) % ${SITES},
        (${sql.val(personIds)}::int[])[1 + g % ${PEOPLE}], 1, now() + (g % 60) * interval '1 day',
        now() - (g % 500) * interval '1 hour', now() - (g % 500) * interval '1 hour'
      from generate_series(1, ${TASKS}) g`.execute(db);
    // The large turf (13,990 sites) for half the turf-scoped people, two small ones for the others.
    const regions = [
      { name: 'Bench large turf', geometry: drawnTurf(37, -118, 1_000), bbox: [34.4, 39.6, -120.6, -115.4] },
      { name: 'Bench small turf A', geometry: box(33, -122, 0.4), bbox: [32.6, 33.4, -122.4, -121.6] },
      { name: 'Bench small turf B', geometry: box(40, -113, 0.4), bbox: [39.6, 40.4, -113.4, -112.6] },
    ];
    const regionIds: number[] = [];
    for (const region of regions) {
      const made = await db
        .insertInto('regions')
        .values({
          name: region.name,
          geometry_type: 'drawn',
          geometry: JSON.stringify(region.geometry),
          min_lat: region.bbox[0],
          max_lat: region.bbox[1],
          min_lng: region.bbox[2],
          max_lng: region.bbox[3],
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      regionIds.push(Number(made.id));
    }
    await db.transaction().execute((trx) => assignRegionSites(trx, regionIds));
    const turfPeople = people.filter((p) => roleIds.indexOf(p.roleId) >= 2);
    await db
      .insertInto('region_users')
      .values(
        turfPeople.map((p, i) => ({ region_id: regionIds[i % 2 ? 1 + (i % 4 === 1 ? 0 : 1) : 0], user_id: p.id })),
      )
      .execute();
    const [{ count: turfSites }] = (
      await sql<{
        count: number;
      }>`select count(*)::int as count from site_regions where region_id = ${regionIds[0]}`.execute(db)
    ).rows;
    const inside = await sql<{
      id: number;
    }>`select site_id as id from site_regions where region_id = ${regionIds[0]} order by site_id limit ${CHANGES}`.execute(
      db,
    );
    const outside = await sql<{
      id: number;
    }>`select s.id from sites s where s.name like 'Scope Project %' and not exists (select 1 from site_regions r where r.site_id = s.id) order by s.id limit ${CHANGES}`.execute(
      db,
    );
    await db.transaction().execute((trx) => fillHolders(trx));
    await sql`vacuum analyze`.execute(db);
    console.error(
      `[bench] access-scope (${NAMES[kind]}): ${SITES} sites, ${TASKS} tasks, ${PEOPLE} people written in ${((performance.now() - started) / 1000).toFixed(1)} s; the large turf holds ${turfSites} sites`,
    );
    return {
      dataDir,
      postgres,
      ownTeam: people[1].email,
      turf: turfPeople[0].email,
      people,
      insideSites: inside.rows.map((r) => Number(r.id)),
      outsideSites: outside.rows.map((r) => Number(r.id)),
      turfSites,
    };
  } catch (error) {
    await postgres?.stop();
    removeTempFolder(dataDir);
    throw error;
  } finally {
    await database.close().catch(() => undefined);
  }
}

/** A signed-in person's requests: GET, and writes with the XSRF header. */
function clientOf(baseUrl: string, cookie: string) {
  const xsrf = xsrfOf(cookie);
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await request(`${baseUrl}${path}`, {
      method,
      headers: {
        cookie,
        'x-xsrf-token': xsrf,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: 60_000,
    });
    return { status: res.status, body: res.body ? JSON.parse(res.body) : null };
  };
  return { get: (path: string) => send('GET', path), send };
}

/** The i-th list request: never the same twice for a person (page × sort × filter). */
function listPath(resource: 'sites' | 'tasks', i: number): string {
  const sorts = resource === 'sites' ? ['name', 'created_at'] : ['due_at', 'created_at'];
  const sort = sorts[i % 2];
  const filtered = Math.floor(i / 2) % 2 === 1;
  const page = 1 + Math.floor(i / 4);
  const filter = filtered ? (resource === 'sites' ? '&filter[type]=union' : '&filter[type]=call') : '';
  return `/api/${resource}?sort=${sort}&order=desc&page=${page}&per_page=25&total=estimate${filter}`;
}

async function measureOn(kind: 'pglite' | 'postgres', rows: BenchRow[]) {
  const prepared = await prepare(kind);
  if (!prepared) return;
  const name = NAMES[kind];
  try {
    await measureCompile(kind, prepared, rows);
  } catch (error) {
    await prepared.postgres?.stop();
    removeTempFolder(prepared.dataDir);
    throw error;
  }
  // BENCH_PORT: the embedded database's server listens there, PostgreSQL's on the next one (else any free port).
  const port = process.env.BENCH_PORT
    ? Number(process.env.BENCH_PORT) + (kind === 'postgres' ? 1 : 0)
    : await freePort();
  const server = await startServer({
    dataDir: prepared.dataDir,
    port,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
    ...(prepared.postgres ? { databaseUrl: prepared.postgres.url } : {}),
  });
  const browsers: Pusher[] = [];
  const statements = statementProfile(AREA, prepared.postgres?.url);
  try {
    const serverCpu = () => procCpuMs(server.pid) + (prepared.postgres?.cpuMs() ?? 0);
    const admin = clientOf(server.baseUrl, await signIn(server.baseUrl, ADMIN.email, ADMIN.password));
    const people = {
      'unscoped (administrator)': admin,
      'own or team': clientOf(server.baseUrl, await signIn(server.baseUrl, prepared.ownTeam, PASSWORD)),
      [`turf of ${prepared.turfSites.toLocaleString('en')} sites`]: clientOf(
        server.baseUrl,
        await signIn(server.baseUrl, prepared.turf, PASSWORD),
      ),
    };
    for (const resource of ['sites', 'tasks'] as const) {
      await statements.reset();
      const names = Object.keys(people);
      const times = new Map(names.map((n) => [n, { wall: [] as number[], cpu: 0, total: '' }]));
      // Warm-up: the first request of each person compiles their policy and fills the schema caches.
      for (const n of names) await people[n].get(listPath(resource, 10_000));
      for (let i = 0; i < SAMPLES; i++) {
        const order = i % 3 === 0 ? names : i % 3 === 1 ? [...names].reverse() : [names[1], names[2], names[0]];
        for (const n of order) {
          const cpu = serverCpu();
          const at = performance.now();
          const res = await people[n].get(listPath(resource, i));
          times.get(n)!.wall.push(performance.now() - at);
          times.get(n)!.cpu += serverCpu() - cpu;
          if (res.status !== 200) throw new Error(`${n}: ${listPath(resource, i)} answered ${res.status}`);
          if (i === 0) times.get(n)!.total = `${res.body.meta?.total ?? '?'}`;
        }
      }
      await statements.print(`${resource} lists, the three people's together`);
      const load = loadAverage();
      const unscoped = percentile(times.get(names[0])!.wall, 0.95);
      for (const n of names) {
        const t = times.get(n)!;
        const p95 = percentile(t.wall, 0.95);
        rows.push(
          row(
            AREA,
            `${name}: ${resource} list p95, ${n} (${t.total} rows; server CPU ${(t.cpu / SAMPLES).toFixed(1)} ms/request; load ${load})`,
            p95,
            'ms',
          ),
        );
        if (n !== names[0])
          rows.push(
            row(AREA, `${name}: ${resource} list, ${n} p95 over unscoped p95 (load ${load})`, p95 / unscoped, '×', {
              atMost: 1.3,
            }),
          );
      }
    }

    // Realtime fan-out: nobody connected, then the 200 connected.
    const changes = prepared.insideSites
      .slice(0, CHANGES / 2)
      .flatMap((id, i) => [id, prepared.outsideSites[i]])
      .filter(Boolean);
    let round = 0;
    const change = async (heard?: () => number) => {
      round++;
      const cpu = serverCpu();
      let told = 0;
      for (const id of changes) {
        const before = heard?.() ?? 0;
        const res = await admin.send('PUT', `/api/sites/${id}`, { name: `Scope change ${round}-${id}` });
        if (res.status !== 200) throw new Error(`PUT /api/sites/${id} answered ${res.status}`);
        if (heard) {
          // Until the events stop coming (the fan-out runs after the answer).
          let last = -1;
          while (heard() !== last) {
            last = heard();
            await sleep(50);
          }
          told += heard() - before;
        }
      }
      await sleep(500); // the last change's fan-out, after its answer
      return { cpuPerChange: (serverCpu() - cpu) / changes.length, told: told / changes.length };
    };
    await change();
    const alone = await change();
    let heardCount = 0;
    const started = performance.now();
    for (const person of prepared.people) {
      const cookie = await signIn(server.baseUrl, person.email, PASSWORD);
      const client = clientOf(server.baseUrl, cookie);
      const browser = hubBrowser(PUSHER_KEY, port, (body) => client.send('POST', '/broadcasting/auth', body));
      browsers.push(browser);
      for (const channel of [`private-App.Models.User.${person.id}`, `private-App.Models.Role.${person.roleId}`]) {
        const subscription = browser.subscribe(channel);
        await next(subscription, 'pusher:subscription_succeeded', 30_000);
        subscription.bind('App.Events.ModelUpdated', () => heardCount++);
      }
    }
    console.error(
      `[bench] access-scope (${name}): ${PEOPLE} people signed in and subscribed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    await change(() => heardCount);
    const connected = await change(() => heardCount);
    const load = loadAverage();
    rows.push(
      row(
        AREA,
        `${name}: one site change, server CPU with ${PEOPLE} people of ${ROLES} roles connected (the write, fan-out and sending; ${connected.told.toFixed(1)} people told per change; load ${load})`,
        connected.cpuPerChange,
        'ms',
        { below: 50 },
      ),
      row(AREA, `${name}: one site change, server CPU with nobody connected (load ${load})`, alone.cpuPerChange, 'ms'),
    );
  } finally {
    for (const browser of browsers) browser.disconnect();
    await statements.close();
    await server.stop();
    await prepared.postgres?.stop();
    removeTempFolder(prepared.dataDir);
  }
}

export async function benchAccessScope(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const kind of benchDatabases()) await measureOn(kind, rows);
  return rows;
}
