/**
 * `npm run bench -- load`: 50 simulated people over the demo accounts (administrator, leader, two organizers,
 * assistant) against the real server (`node src/server/start.mjs` with the demo data, read cache on as
 * `npm start` has it) for LOAD_SECONDS (default 300) after a short warm-up. Each person loops over a weighted mix
 * of what people do in the app: lists of sites, contacts and tasks with sorts, filters and searches (never the
 * same query twice: the search text, sort, page and page size move on at every request), map markers and regions
 * for varied viewports, the dashboard, the activity feed, and writes with the CSRF header (a note, a task, a site
 * field, a task completed and reopened). The assistant, who may only write notes, writes a note instead of the rest.
 *
 * Figures: requests, requests/s, errors (any answer other than the expected one), 5xx, p50/p95/p99 latency, the
 * server's peak resident memory, and the load average around the run. Targets: 0 errors, 0 5xx. Before the clock,
 * each account sends one request of each kind, one at a time (the first of a kind builds caches that the map and
 * records benches time on their own). BENCH_PG_STATEMENTS=1 prints the costliest statements of each PostgreSQL
 * setup's run (tests/bench/lib/pg-statements.ts).
 */
import os from 'node:os';
import type Pusher from 'pusher-js';
import { startHubProcess } from '../support/app-processes.js';
import { startBalancer } from '../support/balancer.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';
import { hubBrowser } from '../support/pusher-events.js';
import { request, signIn, xsrfOf } from './lib/http.js';
import { type LoadRequest, runScenario } from './lib/load.js';
import { statementProfile, statementSettings } from './lib/pg-statements.js';
import {
  freePort,
  makeTempFolder,
  procCpuMs,
  procStatusMb,
  type RunningServer,
  removeTempFolder,
  startServer,
} from './lib/server.js';
import { subscribed } from './lib/subscribed.js';
import { rng, viewportBbox } from './map.js';
import { type BenchRow, row } from './types.js';

const AREA = 'load';
const SECONDS = Number(process.env.LOAD_SECONDS ?? 300);
const PEOPLE = Number(process.env.LOAD_PEOPLE ?? 50);
const WARMUP_MS = Number(process.env.LOAD_WARMUP_SECONDS ?? 10) * 1000;
// Seeding the demo (and its weeks of history) takes one to three minutes on a busy machine.
const STARTUP_TIMEOUT_MS = 600_000;
export const ADMIN_EMAIL = 'admin@example.com';
// The demo accounts share the first administrator's password.
export const PASSWORD = process.env.LOAD_PASSWORD ?? 'bench-admin-password';
export const ACCOUNTS = [
  { email: ADMIN_EMAIL, writes: true },
  { email: 'leader@example.com', writes: true },
  { email: 'organizer@example.com', writes: true },
  { email: 'organizer2@example.com', writes: true },
  { email: 'assistant@example.com', writes: false },
];

/** What one account can see, fetched once: the ids and places the mix picks from. */
export interface Account {
  email: string;
  writes: boolean;
  sites: Array<{ id: number; lat: number; lng: number }>;
  taskIds: number[];
  words: string[];
}

export interface Person {
  account: Account;
  cookie: string;
  xsrf: string;
  random: () => number;
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Splits a request counter into the digits of a mixed radix: each request of a kind gets another combination
 * of choices until every combination has been used (far more than a run sends).
 */
function digits(n: number, radices: number[]): number[] {
  return radices.map((radix) => {
    const digit = n % radix;
    n = Math.floor(n / radix);
    return digit;
  });
}

/** A GET as the signed-in person, its JSON body; anything but 200 throws with the answer. */
export async function getJson(baseUrl: string, path: string, cookie: string) {
  const response = await request(`${baseUrl}${path}`, { headers: { cookie } });
  if (response.status !== 200)
    throw new Error(`GET ${path} answered ${response.status}: ${response.body.slice(0, 300)}`);
  return JSON.parse(response.body);
}

export async function describeAccount(
  baseUrl: string,
  email: string,
  writes: boolean,
  cookie: string,
): Promise<Account> {
  const sites = (await getJson(baseUrl, '/api/sites?per_page=200', cookie)).data as Array<Record<string, any>>;
  // The tasks a person may change are their own (the owner rule): the mix completes only those.
  const me = (await getJson(baseUrl, '/api/auth/check', cookie)).data.id as number;
  const mine = encodeURIComponent(JSON.stringify({ assignee_id: me }));
  const tasks = (await getJson(baseUrl, `/api/tasks?per_page=200&filter=${mine}`, cookie)).data as Array<
    Record<string, any>
  >;
  const contacts = (await getJson(baseUrl, '/api/contacts?per_page=100', cookie)).data as Array<Record<string, any>>;
  const located = sites.filter(
    (s) => Number.isFinite(Number(s.latitude)) && Number.isFinite(Number(s.longitude)) && s.latitude !== null,
  );
  if (!located.length) throw new Error(`${email} reads no site with coordinates: is the demo data seeded?`);
  // Search words from the names people would type: the first letters of site names, cities and contact names.
  const words = new Set<string>();
  for (const text of [
    ...sites.map((s) => `${s.name ?? ''} ${s.city ?? ''}`),
    ...contacts.map((c) => `${c.first_name ?? ''} ${c.last_name ?? ''}`),
  ]) {
    for (const word of text.split(/\s+/))
      if (/^[A-Za-z]{4,}$/.test(word)) words.add(word.slice(0, 3 + (word.length % 3)).toLowerCase());
  }
  return {
    email,
    writes,
    sites: located.map((s) => ({ id: s.id, lat: Number(s.latitude), lng: Number(s.longitude) })),
    taskIds: tasks.map((t) => t.id),
    words: [...words].slice(0, 40),
  };
}

/** The weighted mix: each entry builds the next request of its kind for a person (`n` counts that kind's requests). */
export type Build = (person: Person, n: number) => LoadRequest;

const SITE_SORTS = ['name', 'created_at', 'updated_at', 'city', 'type', 'bid_date'];
const SITE_TYPES = ['union', 'non-union', 'pla', 'public-works', 'development', 'pending'];
const CONTACT_SORTS = ['last_name', 'first_name', 'created_at', 'email'];
const TASK_SORTS = ['due_at', 'title', 'created_at', 'type'];
const ORDERS = ['asc', 'desc'];

function write(
  person: Person,
  label: string,
  method: string,
  path: string,
  body: unknown,
  expectStatus = 200,
): LoadRequest {
  return {
    label,
    method,
    path,
    expectStatus,
    headers: { cookie: person.cookie, 'x-xsrf-token': person.xsrf, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

const get = (person: Person, label: string, path: string): LoadRequest => ({
  label,
  path,
  headers: { cookie: person.cookie },
});

const createNote: Build = (p, n) =>
  write(
    p,
    'write: create note',
    'POST',
    '/api/notes',
    {
      body: `Load test note ${n}: spoke with the crew.`,
      notable_type: 'site',
      notable_id: pick(p.random, p.account.sites).id,
    },
    201,
  );

export const MIX: Array<[number, Build]> = [
  [
    12,
    (p, n) => {
      const [sort, order, page, perPage] = digits(n, [SITE_SORTS.length, 2, 4, 26]);
      return get(
        p,
        'list sites',
        `/api/sites?sort=${SITE_SORTS[sort]}&order=${ORDERS[order]}&page=${page + 1}&per_page=${perPage + 10}`,
      );
    },
  ],
  [
    8,
    (p, n) => {
      const [type, sort, order, page, perPage] = digits(n, [SITE_TYPES.length, SITE_SORTS.length, 2, 3, 26]);
      return get(
        p,
        'list sites filtered',
        `/api/sites?filter[type]=${SITE_TYPES[type]}&sort=${SITE_SORTS[sort]}&order=${ORDERS[order]}&page=${page + 1}&per_page=${perPage + 10}`,
      );
    },
  ],
  [
    8,
    (p, n) => {
      const [word, sort, order, page, perPage] = digits(n, [p.account.words.length, SITE_SORTS.length, 2, 2, 41]);
      return get(
        p,
        'search sites',
        `/api/sites?filter[q]=${encodeURIComponent(p.account.words[word])}&sort=${SITE_SORTS[sort]}&order=${ORDERS[order]}&page=${page + 1}&per_page=${perPage + 10}`,
      );
    },
  ],
  [
    6,
    (p, n) => {
      const [sort, order, page, perPage] = digits(n, [CONTACT_SORTS.length, 2, 4, 26]);
      return get(
        p,
        'list contacts',
        `/api/contacts?sort=${CONTACT_SORTS[sort]}&order=${ORDERS[order]}&page=${page + 1}&per_page=${perPage + 10}`,
      );
    },
  ],
  [
    6,
    (p, n) => {
      const [word, sort, order, page, perPage] = digits(n, [p.account.words.length, CONTACT_SORTS.length, 2, 2, 41]);
      return get(
        p,
        'search contacts',
        `/api/contacts?filter[q]=${encodeURIComponent(p.account.words[word])}&sort=${CONTACT_SORTS[sort]}&order=${ORDERS[order]}&page=${page + 1}&per_page=${perPage + 10}`,
      );
    },
  ],
  [
    7,
    (p, n) => {
      const [sort, order, type, page, perPage] = digits(n, [TASK_SORTS.length, 2, 4, 2, 26]);
      const filter = type < 3 ? `&filter[type]=${['call', 'meeting', 'visit'][type]}` : '';
      return get(
        p,
        'list tasks',
        `/api/tasks?sort=${TASK_SORTS[sort]}&order=${ORDERS[order]}${filter}&page=${page + 1}&per_page=${perPage + 10}`,
      );
    },
  ],
  [
    14,
    (p) => {
      const site = pick(p.random, p.account.sites);
      const zoom = 4 + Math.floor(p.random() * 13);
      const bbox = viewportBbox(site.lat + (p.random() - 0.5) * 0.2, site.lng + (p.random() - 0.5) * 0.2, zoom);
      return get(p, 'map markers', `/api/map/markers?bbox=${bbox.map((v) => v.toFixed(5)).join(',')}&zoom=${zoom}`);
    },
  ],
  [
    5,
    (p) => {
      const site = pick(p.random, p.account.sites);
      const zoom = 4 + Math.floor(p.random() * 8);
      const bbox = viewportBbox(site.lat, site.lng, zoom);
      return get(
        p,
        'map regions',
        `/api/map/regions-geojson?bbox=${bbox.map((v) => v.toFixed(5)).join(',')}&zoom=${zoom}`,
      );
    },
  ],
  [
    3,
    (p) => {
      const site = pick(p.random, p.account.sites);
      const bbox = viewportBbox(site.lat, site.lng, 6 + Math.floor(p.random() * 4));
      return get(p, 'map region measures', `/api/map/regions?bbox=${bbox.map((v) => v.toFixed(5)).join(',')}`);
    },
  ],
  [4, (p) => get(p, 'dashboard data', '/api/dashboard/data')],
  [4, (p) => get(p, 'dashboard statistics', '/api/dashboard/statistics')],
  [6, (p, n) => get(p, 'activity', `/api/actions?page=${1 + (n % 5)}&per_page=${10 + (Math.floor(n / 5) % 41)}`)],
  [
    3,
    (p) =>
      get(
        p,
        'notes of a site',
        `/api/notes?filter[notable_type]=site&filter[notable_id]=${pick(p.random, p.account.sites).id}`,
      ),
  ],
  [5, createNote],
  [
    3,
    (p, n) => {
      if (!p.account.writes) return createNote(p, n);
      const due = new Date(Date.now() + (1 + (n % 14)) * 86_400_000).toISOString();
      return write(
        p,
        'write: create task',
        'POST',
        '/api/tasks',
        {
          title: `Load test call ${n}`,
          type: 'call',
          due_at: due,
          taskable_type: 'site',
          taskable_id: pick(p.random, p.account.sites).id,
        },
        201,
      );
    },
  ],
  [
    4,
    (p, n) => {
      if (!p.account.writes) return createNote(p, n);
      return write(p, 'write: update site', 'PUT', `/api/sites/${pick(p.random, p.account.sites).id}`, {
        owner: `Owner ${n}`,
      });
    },
  ],
  [
    3,
    (p, n) => {
      if (!p.account.writes || !p.account.taskIds.length) return createNote(p, n);
      return write(p, 'write: complete task', 'PUT', `/api/tasks/${pick(p.random, p.account.taskIds)}`, {
        completed: n % 2 === 0,
      });
    },
  ],
];

const TOTAL_WEIGHT = MIX.reduce((sum, [weight]) => sum + weight, 0);

/**
 * Where the load runs (LOAD_SETUPS, comma-separated; all three by default): `pglite`, one process on the embedded
 * database as `npm start` runs it; `postgres`, one process on a PostgreSQL server; `postgres-3`, three processes on
 * that server behind a round-robin balancer, publishing to the standalone hub (`npm run hub`), where every person
 * also holds a realtime connection subscribed to their role's channel (docs/operations.md).
 */
type Setup = 'pglite' | 'postgres' | 'postgres-3';
const SETUP_NAMES: Record<Setup, string> = {
  pglite: 'embedded, 1 process',
  postgres: 'PostgreSQL, 1 process',
  'postgres-3': 'PostgreSQL, 3 processes + hub',
};
const HUB = { appId: 'bench-load', key: 'bench-load-key', secret: 'bench-load-secret-0123456789' };

/**
 * The mix's next request for `person`, drawn by weight with `random` (0 to 1); each kind's requests are numbered in
 * `counters`, so no list or search is asked twice.
 */
export function nextOfMix(person: Person, random: number, counters: Map<Build, number>): LoadRequest {
  let ticket = random * TOTAL_WEIGHT;
  let build = MIX[0][1];
  for (const [weight, candidate] of MIX) {
    build = candidate;
    ticket -= weight;
    if (ticket < 0) break;
  }
  const n = counters.get(build) ?? 0;
  counters.set(build, n + 1);
  return build(person, n);
}

export async function benchLoad(): Promise<BenchRow[]> {
  const setups = (process.env.LOAD_SETUPS ?? 'pglite,postgres,postgres-3')
    .split(',')
    .map((name) => name.trim()) as Setup[];
  const rows: BenchRow[] = [];
  for (const setup of setups) {
    if (!SETUP_NAMES[setup]) throw new Error(`LOAD_SETUPS: unknown setup ${setup} (pglite, postgres, postgres-3)`);
    rows.push(...(await loadOn(setup)));
  }
  return rows;
}

async function loadOn(setup: Setup): Promise<BenchRow[]> {
  const folders: string[] = [];
  const servers: RunningServer[] = [];
  let postgres: PostgresServer | null = null;
  let hub: Awaited<ReturnType<typeof startHubProcess>> | null = null;
  let balancer: Awaited<ReturnType<typeof startBalancer>> | null = null;
  const sockets: Pusher[] = [];
  const start = async (databaseUrl?: string, env: Record<string, string> = {}) => {
    const dataDir = makeTempFolder('om-bench-load-');
    folders.push(dataDir);
    const server = await startServer({
      dataDir,
      port: await freePort(),
      adminEmail: ADMIN_EMAIL,
      adminPassword: PASSWORD,
      seedDemo: true,
      readCache: true,
      timeoutMs: STARTUP_TIMEOUT_MS,
      databaseUrl,
      env,
    });
    servers.push(server);
    return server;
  };
  try {
    if (setup === 'pglite') await start();
    else {
      postgres = await (startPostgres(statementSettings()) ?? Promise.resolve(null));
      if (!postgres) {
        console.error(`[bench] load: no PostgreSQL server binaries here; ${setup} skipped`);
        return [];
      }
      if (setup === 'postgres') await start(postgres.url);
      else {
        hub = await startHubProcess(HUB);
        // The first seeds the demo; the other two find it done (they take turns at start anyway).
        await start(postgres.url, hub.appEnv);
        await Promise.all([start(postgres.url, hub.appEnv), start(postgres.url, hub.appEnv)]);
        balancer = await startBalancer(servers.map((server) => server.baseUrl));
      }
    }
    const baseUrl = balancer?.url ?? servers[0].baseUrl;
    console.error(`[bench] load [${SETUP_NAMES[setup]}]: up in ${(servers[0].startMs / 1000).toFixed(1)} s`);

    const accounts: Account[] = [];
    for (const { email, writes } of ACCOUNTS)
      accounts.push(await describeAccount(baseUrl, email, writes, await signIn(baseUrl, email, PASSWORD)));
    // Every person signs in on their own: 50 sessions, as 50 browsers would hold.
    const people: Person[] = [];
    for (let i = 0; i < PEOPLE; i++) {
      const account = accounts[i % accounts.length];
      const cookie = await signIn(baseUrl, account.email, PASSWORD);
      const xsrf = xsrfOf(cookie);
      people.push({ account, cookie, xsrf, random: rng(1000 + i) });
    }
    let eventsHeard = 0;
    if (hub) {
      for (const person of people) {
        const socket = await connectToHub(hub.port, baseUrl, person);
        socket.channel.bind_global((event: string) => {
          if (event.startsWith('App.Events.')) eventsHeard++;
        });
        sockets.push(socket.pusher);
      }
    }
    console.error(
      `[bench] load [${SETUP_NAMES[setup]}]: ${PEOPLE} people signed in over ${accounts.length} accounts${hub ? ', each with a realtime connection to the hub' : ''}; ${SECONDS} s of load after ${WARMUP_MS / 1000} s of warm-up`,
    );

    const counters = new Map<Build, number>();
    const next = (worker: number): LoadRequest => nextOfMix(people[worker], people[worker].random(), counters);

    // One request of each kind per account, one at a time, before the clock: the first of a kind builds what it
    // keeps (the person's map marker index, simplified region shapes, compiled queries), which the map and
    // records benches time on their own; here it would only stall the first seconds of 50 people.
    for (const account of accounts) {
      const person = people.find((p) => p.account === account)!;
      for (const [, build] of MIX) {
        const spec = build(person, 0);
        const answer = await request(`${baseUrl}${spec.path}`, {
          method: spec.method,
          headers: { accept: 'application/json', ...spec.headers },
          body: spec.body,
          timeoutMs: 120_000,
        });
        if (answer.status !== (spec.expectStatus ?? 200))
          console.error(
            `[bench] load: priming ${spec.label} as ${account.email} answered ${answer.status}: ${answer.body.slice(0, 200)}`,
          );
      }
    }

    const peakRss = new Map(servers.map((server) => [server.pid, procStatusMb(server.pid, 'VmRSS')]));
    const sampler = setInterval(() => {
      for (const server of servers) {
        try {
          peakRss.set(server.pid, Math.max(peakRss.get(server.pid) ?? 0, procStatusMb(server.pid, 'VmRSS')));
        } catch {
          /* the server exited: the run reports it */
        }
      }
    }, 500);
    const cpuBefore = servers.map((server) => procCpuMs(server.pid));
    const mainThreadCpuBefore = servers.map((server) => procCpuMs(server.pid, server.pid));
    const databaseCpuBefore = postgres?.cpuMs() ?? 0;
    const loadBefore = os.loadavg()[0];
    const statements = statementProfile('load', postgres?.url);
    await statements.reset();
    eventsHeard = 0;
    const result = await runScenario({
      baseUrl,
      concurrency: PEOPLE,
      warmupMs: WARMUP_MS,
      durationMs: SECONDS * 1000,
      timeoutMs: 30_000,
      next,
    }).finally(() => clearInterval(sampler));
    const loadAfter = os.loadavg()[0];
    const cpuSeconds = servers.map((server, i) => (procCpuMs(server.pid) - cpuBefore[i]) / 1000);
    const mainThreadCpuSeconds = servers.map(
      (server, i) => (procCpuMs(server.pid, server.pid) - mainThreadCpuBefore[i]) / 1000,
    );
    const databaseCpuSeconds = postgres ? (postgres.cpuMs() - databaseCpuBefore) / 1000 : null;
    await statements.print(SETUP_NAMES[setup]);
    await statements.close();
    const alive = await Promise.all(
      servers.map(async (server) => (await request(`${server.baseUrl}/api/health`).catch(() => null))?.status === 200),
    );
    const highWater = Math.max(...servers.map((server) => procStatusMb(server.pid, 'VmHWM')));

    const where = SETUP_NAMES[setup];
    for (const [label, figures] of [...result.byLabel].sort((a, b) => a[0].localeCompare(b[0]))) {
      console.error(
        `[bench] load [${where}]: ${label.padEnd(22)} ${String(figures.requests).padStart(6)} requests, ${figures.errors} errors, p50 ${figures.p50.toFixed(0)} ms, p95 ${figures.p95.toFixed(0)} ms`,
      );
    }
    if (balancer)
      console.error(
        `[bench] load [${where}]: answers per process ${[...balancer.served.values()].join(' / ')}; server CPU s per process ${cpuSeconds.map((cpu) => cpu.toFixed(1)).join(' / ')}`,
      );
    if (result.errorSamples.length)
      console.error(`[bench] load [${where}]: first errors:\n  ${result.errorSamples.join('\n  ')}`);
    if (result.warmupErrors)
      console.error(`[bench] load [${where}]: ${result.warmupErrors} errors during the warm-up (not counted)`);

    const label = `${PEOPLE} people, ${SECONDS} s`;
    const slowest = [...result.byLabel].sort((a, b) => b[1].p95 - a[1].p95)[0];
    const figure = (name: string, value: number | null, unit: string, targets?: Parameters<typeof row>[4]) =>
      row(AREA, `${name} [${where}]`, value, unit, targets);
    const rows = [
      figure(`requests (${label})`, result.requests, 'count'),
      figure('requests per second', round(result.requestsPerSecond), 'req/s'),
      figure(
        `errors${result.errorSamples.length ? ` (first: ${result.errorSamples[0].slice(0, 160)})` : ''}`,
        result.errors,
        'count',
        { atMost: 0 },
      ),
      figure('5xx answers', result.serverErrors, 'count', { atMost: 0 }),
      figure('latency p50', round(result.latencyMs.p50), 'ms'),
      figure('latency p95', round(result.latencyMs.p95), 'ms', { atMost: setup === 'pglite' ? 250 : 100 }),
      figure('latency p99', round(result.latencyMs.p99), 'ms'),
      figure(`slowest kind p95 (${slowest?.[0] ?? '-'})`, slowest ? round(slowest[1].p95) : null, 'ms'),
      figure(
        'server CPU during the run (all processes; PostgreSQL not counted)',
        round(cpuSeconds.reduce((sum, cpu) => sum + cpu, 0)),
        's',
      ),
      // The rest is the other threads': the embedded database's (db/pglite-worker.ts), the garbage collector's helpers.
      figure("of it on the servers' main threads", round(mainThreadCpuSeconds.reduce((sum, cpu) => sum + cpu, 0)), 's'),
      figure(
        'server CPU per answer',
        round((cpuSeconds.reduce((sum, cpu) => sum + cpu, 0) * 1000) / Math.max(result.requests, 1), 2),
        'ms',
      ),
      figure('peak RSS of a server process (VmRSS sampled every 0.5 s)', round(Math.max(...peakRss.values())), 'MB'),
      figure('peak RSS of a server process since start (VmHWM)', round(highWater), 'MB'),
      figure('server processes answering /api/health after the run', alive.filter(Boolean).length, 'count', {
        atLeast: servers.length,
      }),
      figure('load average (1 min) at the start of the run', round(loadBefore, 2), ''),
      figure('load average (1 min) at the end of the run', round(loadAfter, 2), ''),
    ];
    if (databaseCpuSeconds !== null)
      rows.push(figure('PostgreSQL CPU during the run (its processes)', round(databaseCpuSeconds), 's'));
    if (hub) rows.push(figure('realtime events the hub delivered to the people connected to it', eventsHeard, 'count'));
    return rows;
  } finally {
    for (const socket of sockets) socket.disconnect();
    await balancer?.close();
    await Promise.all(servers.map((server) => server.stop()));
    await hub?.stop();
    await postgres?.stop();
    for (const folder of folders) removeTempFolder(folder);
  }
}

/** A person's realtime connection, as their browser holds it: to the hub, on their role's channel, authorised by the app. */
async function connectToHub(hubPort: number, baseUrl: string, person: Person) {
  const me = JSON.parse(
    (await request(`${baseUrl}/api/auth/check`, { headers: { cookie: person.cookie, accept: 'application/json' } }))
      .body,
  ).data;
  const pusher = hubBrowser(HUB.key, hubPort, async (body) => {
    const answer = await request(`${baseUrl}/broadcasting/auth`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        cookie: person.cookie,
        'x-xsrf-token': person.xsrf,
      },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: answer.status === 200 ? JSON.parse(answer.body) : answer.body };
  });
  const channel = pusher.subscribe(`private-App.Models.Role.${me.role_id}`);
  await subscribed(channel);
  return { pusher, channel };
}
