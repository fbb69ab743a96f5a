import { sql } from 'kysely';
import { openDatabase } from '../../src/server/db/database.js';
import { request, signIn } from './lib/http.js';
import { type LoadResult, runLoad } from './lib/load.js';
import {
  freePort,
  makeTempFolder,
  procCpuMs,
  procStatusMb,
  type RunningServer,
  removeTempFolder,
  startServer,
} from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'platform';
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'bench-admin-password';
const USERS = 10_000;
const CONCURRENCY = 50;
const WARMUP_MS = 1_000;
const MEASURE_MS = 8_000;
const IDLE_WAIT_MS = 3_000;
const WARM_SAMPLES = 3;
const LIST_PATH = '/api/users?page=7&per_page=25&sort=last_name';

/** Argon2id of 'bench-user-password' with the server's parameters: no one signs in as these users. */
const USER_PASSWORD_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$Uo0jPP3GD4KmkCyA3HPrmg$TE47jLWH7bcmUCKtOGPxU8PFMM2ZiktDtxtObt38KHw';
const FIRST_NAMES =
  'Ana,Ben,Carla,Dev,Elif,Femi,Grace,Hugo,Ines,Jamal,Kira,Luis,Maya,Nils,Olu,Priya,Quinn,Rosa,Sam,Tariq,Uma,Vik,Wen,Xavi,Yara,Zoe';
const LAST_NAMES =
  'Adams,Baker,Castro,Diaz,Evans,Fischer,Garcia,Hughes,Ito,Jones,Khan,Lopez,Moreau,Nguyen,Okafor,Patel,Quinn,Rossi,Silva,Tanaka,' +
  'Usman,Vargas,Weber,Xu,Yilmaz,Zhang,Alvarez,Brown,Chen,Dubois,Eriksen,Ferreira,Gomez,Hansen,Ivanova,Jensen,Kowalski,Lee,Martin,Novak,' +
  'Olsen,Petrov,Reyes,Schmidt,Torres,Ueda,Virtanen,Walsh,Yamamoto,Zimmermann';

/**
 * The platform figures: cold and warm start, requests/s and latency of a cheap authenticated read and of a
 * page of 25 users out of 10,000 at 50 connections, and resident memory when idle. Runs the real server
 * (`node src/server/start.mjs`) in a child process on a temporary data folder, always removed at the end.
 */
export async function benchPlatform(): Promise<BenchRow[]> {
  const dataDir = makeTempFolder('om-bench-');
  const port = await freePort();
  const serverOptions = { dataDir, port, adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD };
  let server: RunningServer | null = null;
  try {
    // Cold: empty data folder, so migrations, seeding and the admin's Argon2 hash are part of it.
    server = await startServer({ ...serverOptions, readCache: true });
    const cold = { ms: server.startMs, cpuMs: server.startCpuMs };
    await server.stop();
    server = null;

    await insertUsers(dataDir, USERS);

    // Warm: the same folder again, now holding the 10,000 users, with the read cache on as `npm start` has it
    // (two more samples below). Its figures: auth check, the users list repeated (served from the read cache
    // after the first answer), memory.
    server = await startServer({ ...serverOptions, readCache: true });
    const warmStarts = [server.startMs];
    const warmCpu = [server.startCpuMs];
    await sleep(1_000);
    const rssAfterStart = procStatusMb(server.pid, 'VmRSS');
    const cached = await measureServer(server);
    await sleep(IDLE_WAIT_MS);
    const idleRss = procStatusMb(server.pid, 'VmRSS');
    const peakRss = procStatusMb(server.pid, 'VmHWM');
    await server.stop();
    server = null;

    // The same with the read cache off: what every list answer costs when it is computed (the first view of a
    // page after a write, and PostgreSQL, where the cache is off by default).
    server = await startServer(serverOptions);
    warmStarts.push(server.startMs);
    warmCpu.push(server.startCpuMs);
    const uncached = await measureServer(server);

    // One start is one sample on a shared machine: a third one, and the median is reported.
    while (warmStarts.length < WARM_SAMPLES) {
      await server.stop();
      server = null;
      server = await startServer({ ...serverOptions, readCache: true });
      warmStarts.push(server.startMs);
      warmCpu.push(server.startCpuMs);
    }

    return [
      row(AREA, 'cold start (empty data folder)', cold.ms, 'ms'),
      row(AREA, 'cold start server CPU time', cold.cpuMs, 'ms'),
      row(AREA, `warm start (median of ${WARM_SAMPLES})`, median(warmStarts), 'ms', { below: 2_000 }),
      row(AREA, `warm start (slowest of ${WARM_SAMPLES})`, Math.max(...warmStarts), 'ms'),
      row(AREA, `warm start server CPU time (median of ${WARM_SAMPLES})`, median(warmCpu), 'ms'),
      ...loadRows('GET /api/auth/check, read cache on', cached.check),
      ...loadRows('GET /api/auth/check, read cache off', uncached.check),
      ...loadRows(`users list (25 of ${USERS.toLocaleString('en')}), read cache off`, uncached.list, { p95Below: 20 }),
      row(AREA, 'users list, read cache off, p50 (1 conn)', uncached.single.latencyMs.p50, 'ms'),
      row(AREA, 'users list, read cache off, p95 (1 conn)', uncached.single.latencyMs.p95, 'ms'),
      row(AREA, 'users list, read cache off, req/s (1 conn)', uncached.single.requestsPerSecond, 'req/s'),
      ...loadRows(`users list (25 of ${USERS.toLocaleString('en')}), read cache on`, cached.list, { p95Below: 20 }),
      row(AREA, 'users list, read cache on, p50 (1 conn)', cached.single.latencyMs.p50, 'ms'),
      row(AREA, 'idle memory (RSS 3 s after load)', idleRss, 'MB', { below: 200 }),
      row(AREA, 'memory 1 s after warm start (RSS, before load)', rssAfterStart, 'MB'),
      row(AREA, 'peak memory (RSS high-water mark)', peakRss, 'MB'),
    ];
  } finally {
    await server?.stop().catch(() => {});
    removeTempFolder(dataDir);
  }
}

/** Signs in, checks the list, then loads GET /api/auth/check and the users list at 50 connections and the list at 1. */
async function measureServer(server: RunningServer) {
  const { baseUrl, pid } = server;
  const cookie = await signIn(baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const headers = { cookie };
  await checkList(baseUrl, headers);
  const load = { headers, concurrency: CONCURRENCY, warmupMs: WARMUP_MS, durationMs: MEASURE_MS };
  const measure = async (url: string) => {
    const cpuBefore = procCpuMs(pid);
    const result = await runLoad({ url, ...load });
    return { ...result, serverCpuMsPerRequest: (procCpuMs(pid) - cpuBefore) / Math.max(result.allRequests, 1) };
  };
  const check = await measure(`${baseUrl}/api/auth/check`);
  const list = await measure(baseUrl + LIST_PATH);
  // One connection: what one list request costs by itself, without queueing behind 49 others.
  const single = await runLoad({ url: baseUrl + LIST_PATH, headers, concurrency: 1, warmupMs: 500, durationMs: 3_000 });
  return { check, list, single };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function loadRows(
  name: string,
  result: LoadResult & { serverCpuMsPerRequest: number },
  options: { p95Below?: number } = {},
): BenchRow[] {
  const conn = `(${CONCURRENCY} conn)`;
  return [
    row(AREA, `${name} req/s ${conn}`, result.requestsPerSecond, 'req/s'),
    row(AREA, `${name} p50 ${conn}`, result.latencyMs.p50, 'ms'),
    row(
      AREA,
      `${name} p95 ${conn}`,
      result.latencyMs.p95,
      'ms',
      options.p95Below ? { below: options.p95Below } : undefined,
    ),
    row(AREA, `${name} p99 ${conn}`, result.latencyMs.p99, 'ms'),
    row(AREA, `${name} server CPU per request`, result.serverCpuMsPerRequest, 'ms'),
    row(
      AREA,
      `${name} errors${result.errorSamples.length ? ` (${result.errorSamples.join('; ')})` : ''}`,
      result.errors,
      'count',
      { atMost: 0 },
    ),
  ];
}

/**
 * Adds `count` users straight into the stopped server's database: one INSERT ... SELECT from generate_series,
 * all with one precomputed password hash, rather than `count` API calls each hashing with Argon2.
 */
async function insertUsers(dataDir: string, count: number) {
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    const role = await database.db
      .selectFrom('roles')
      .select('id')
      .where('slug', '=', 'user')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!role) throw new Error('The seeded `user` role is missing: cannot add the benchmark users.');
    await sql`
      insert into users (first_name, last_name, email, password, role_id, realtime_key, created_at, updated_at)
      select (string_to_array(${FIRST_NAMES}, ','))[1 + (i * 7) % ${FIRST_NAMES.split(',').length}],
             (string_to_array(${LAST_NAMES}, ','))[1 + (i * 7919) % ${LAST_NAMES.split(',').length}],
             'bench.user.' || i || '@example.com',
             ${USER_PASSWORD_HASH},
             ${role.id},
             md5(random()::text),
             now() - make_interval(mins => i),
             now()
      from generate_series(1, ${count}) as i
    `.execute(database.db);
    const users = await database.db.selectFrom('users').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    if (Number(users.n) < count)
      throw new Error(`Expected at least ${count} users after the insert, found ${users.n}.`);
  } finally {
    await database.close();
  }
}

/** One list request before the load: the answer must be a page of 25 out of all the users. */
async function checkList(baseUrl: string, headers: Record<string, string>) {
  const response = await request(baseUrl + LIST_PATH, { headers });
  if (response.status !== 200)
    throw new Error(`GET ${LIST_PATH} answered ${response.status}: ${response.body.slice(0, 300)}`);
  const body = JSON.parse(response.body);
  if (body.data?.length !== 25 || !(body.meta?.total >= USERS)) {
    throw new Error(`GET ${LIST_PATH} did not return 25 of ${USERS}+ users: ${response.body.slice(0, 300)}`);
  }
}
