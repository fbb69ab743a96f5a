/**
 * The four-uploads attack of issue 28 against the real server (`npm start`'s command, a process of its own, on the
 * embedded database): four organizers each send `POST /api/imports/preview` with a CSV of 1,000,000 columns (7.9 MB)
 * at the same moment (BENCH_ATTACK_ROUNDS times, one round after the other), while a fifth client asks
 * `GET /api/health` every 20 ms. Then the same with four large files within the limits (500 columns, BENCH_ATTACK_ROWS rows). Figures: the server's peak resident memory (VmRSS sampled
 * every 25 ms, and VmHWM), /api/health p50/p95/max during each attack, how the four uploads were answered and in what
 * time, and whether the server still answers afterwards, each with the load average.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { request, signIn, xsrfOf } from './lib/http.js';
import {
  freePort,
  loadAverage,
  makeTempFolder,
  procCpuMs,
  procStatusMb,
  type RunningServer,
  removeTempFolder,
  startServer,
  threadCpuMs,
} from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'upload-attack';
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };
const ORGANIZER_PASSWORD = 'organizer-password-123';
const WIDE_COLUMNS = 1_000_000;
const LARGE_ROWS = Number(process.env.BENCH_ATTACK_ROWS ?? 10_000);
/** The server's memory budget (docs/settings.md "Memory budget"). */
const BUDGET_MB = 512;
/** Times each attack is repeated (the four uploads at once, then again), for more health samples. */
const ROUNDS = Number(process.env.BENCH_ATTACK_ROUNDS ?? 3);
/**
 * BENCH_NICE: a scheduling priority (-20 … 19) for the server's request thread and the bench itself, to see the
 * server's own latency on a machine other sessions load (Linux: root may raise it). Unset: as started.
 */
const NICE = process.env.BENCH_NICE ? Number(process.env.BENCH_NICE) : null;
/** How long one upload may take to be answered before the bench gives up on it. */
const UPLOAD_TIMEOUT_MS = Number(process.env.BENCH_ATTACK_TIMEOUT_MS ?? 300_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A header of 1,000,000 columns (c0 … c999999): 7.9 MB, the file of the finding. */
function wideCsv(): Buffer {
  return Buffer.from(`${Array.from({ length: WIDE_COLUMNS }, (_, i) => `c${i}`).join(',')}\n`);
}

/** 500 columns (the most a file may have) of short values, `rows` rows. */
function largeCsv(rows: number): Buffer {
  const columns = 500;
  const lines = [Array.from({ length: columns }, (_, i) => `Column ${i + 1}`).join(',')];
  for (let r = 0; r < rows; r++)
    lines.push(
      Array.from({ length: columns }, (_, c) => (c === 0 ? `Site ${r}` : String((r * 31 + c) % 997))).join(','),
    );
  return Buffer.from(`${lines.join('\n')}\n`);
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null;

/**
 * The health probe, run in a thread of its own: the bench's main thread is busy sending the uploads (tens of MB
 * through fetch), and a probe sharing it would time that work as the server's. GET /api/health every 20 ms on one
 * kept-alive connection until told to stop; each answer's time, the failures, and the longest wait for an answer or a
 * failure (a probe the server never answers is the worst of all).
 */
const PROBE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const times = [];
let failures = 0, longestWait = 0, running = true;
parentPort.on('message', () => { running = false; });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const ask = () => new Promise((resolve, reject) => {
  const req = http.get(workerData.url, { agent, timeout: 120000 }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode));
    res.on('error', reject);
  });
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', reject);
});
(async () => {
  while (running) {
    const started = performance.now();
    try {
      if ((await ask()) === 200) times.push(performance.now() - started);
      else failures++;
    } catch {
      failures++;
      await sleep(200);
    }
    longestWait = Math.max(longestWait, performance.now() - started);
    await sleep(20);
  }
  agent.destroy();
  parentPort.postMessage({ times, failures, longestWait });
})();
`;

function probeHealth(baseUrl: string) {
  const worker = new Worker(PROBE, { eval: true, workerData: { url: `${baseUrl}/api/health` } });
  const result = new Promise<{ times: number[]; failures: number; longestWait: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const { times, failures, longestWait } = await result;
      await worker.terminate();
      return { times: times.sort((a, b) => a - b), failures, longestWait };
    },
  };
}

/** VmRSS of `pid` every 25 ms until `stop()`; the highest seen. */
function sampleRss(pid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, procStatusMb(pid, 'VmRSS'));
    } catch {
      /* the process is gone */
    }
  }, 25);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

async function createOrganizers(baseUrl: string, adminCookie: string, count: number): Promise<string[]> {
  const token = xsrfOf(adminCookie);
  const roles = await request(`${baseUrl}/api/roles?per_page=-1`, { headers: { cookie: adminCookie } });
  const role = (JSON.parse(roles.body).data as Array<{ id: number; slug: string }>).find((r) => r.slug === 'user');
  if (!role) throw new Error('No "user" (organizer) role');
  const cookies: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = `organizer-${i}-${Date.now()}@example.com`;
    const res = await request(`${baseUrl}/api/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: adminCookie, 'x-xsrf-token': token },
      body: JSON.stringify({
        first_name: 'Organizer',
        last_name: String(i + 1),
        email,
        password: ORGANIZER_PASSWORD,
        role_id: role.id,
      }),
    });
    if (res.status !== 201) throw new Error(`POST /api/users answered ${res.status}: ${res.body.slice(0, 300)}`);
    cookies.push(await signIn(baseUrl, email, ORGANIZER_PASSWORD));
  }
  return cookies;
}

/** POST /api/imports/preview with `content` as `cookie`; the status (0: no answer) and the time to the answer. */
async function preview(baseUrl: string, cookie: string, content: Buffer, name: string) {
  const token = xsrfOf(cookie);
  const form = new FormData();
  form.append('record_type', 'site');
  form.append('files[]', new Blob([new Uint8Array(content)], { type: 'text/csv' }), name);
  const started = performance.now();
  try {
    const res = await fetch(`${baseUrl}/api/imports/preview`, {
      method: 'POST',
      headers: { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-xsrf-token': token, cookie },
      body: form,
      signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
    });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, message: text.slice(0, 160) };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, message: (error as Error).message };
  }
}

async function attack(server: RunningServer, cookies: string[], content: Buffer, label: string, rows: BenchRow[]) {
  const rss = sampleRss(server.pid);
  const health = probeHealth(server.baseUrl);
  // CPU time, steadier than latency on a shared machine: the server's own thread (requests, the embedded database)
  // and all its threads (the upload threads too).
  const mainCpuBefore = threadCpuMs(server.pid);
  const allCpuBefore = procCpuMs(server.pid);
  await sleep(300); // a few answers before the uploads, as a baseline inside the same samples
  const answers: Awaited<ReturnType<typeof preview>>[] = [];
  for (let round = 0; round < ROUNDS; round++)
    answers.push(
      ...(await Promise.all(cookies.map((cookie, i) => preview(server.baseUrl, cookie, content, `${i}.csv`)))),
    );
  await sleep(300);
  const { times, failures, longestWait } = await health.stop();
  const peakMb = rss.stop();
  let mainCpu: number | null = null;
  let allCpu: number | null = null;
  try {
    mainCpu = threadCpuMs(server.pid) - mainCpuBefore;
    allCpu = procCpuMs(server.pid) - allCpuBefore;
  } catch {
    /* the process is gone */
  }
  const load = loadAverage();
  let alive = 0;
  try {
    alive = (await request(`${server.baseUrl}/api/health`, { timeoutMs: 10_000 })).status === 200 ? 1 : 0;
  } catch {
    alive = 0;
  }
  const statuses = answers.map((a) => a.status).join(', ');
  console.error(
    `[bench] ${AREA} ${label}: answers ${statuses} in ${answers.map((a) => (a.ms / 1000).toFixed(1)).join(', ')} s; first: ${answers[0].message}; request thread CPU ${mainCpu} ms, all threads ${allCpu} ms; health p50 ${percentile(times, 50)?.toFixed(1)} ms, p95 ${percentile(times, 95)?.toFixed(1)} ms, max ${times.at(-1)?.toFixed(0)} ms over ${times.length} answers, ${failures} failed, longest wait ${longestWait.toFixed(0)} ms; peak RSS ${peakMb.toFixed(0)} MB; load ${load}`,
  );
  rows.push(
    row(
      AREA,
      `${label}: four previews at once, ${ROUNDS} times (statuses ${statuses}), the slowest answer (load ${load})`,
      Math.max(...answers.map((a) => a.ms)) / 1000,
      's',
    ),
    row(AREA, `${label}: CPU of the server's request thread during it (health probes included)`, mainCpu, 'ms'),
    row(AREA, `${label}: CPU of all the server's threads during it`, allCpu, 'ms'),
    row(AREA, `${label}: peak RSS of the server during it (budget ${BUDGET_MB} MB)`, peakMb, 'MB', {
      atMost: BUDGET_MB,
    }),
    row(AREA, `${label}: GET /api/health p50 during it (${times.length} answers)`, percentile(times, 50), 'ms'),
    row(AREA, `${label}: GET /api/health p95 during it`, percentile(times, 95), 'ms', { below: 100 }),
    row(AREA, `${label}: GET /api/health slowest during it`, times.at(-1) ?? null, 'ms'),
    row(AREA, `${label}: GET /api/health longest wait, for an answer or a failure`, longestWait, 'ms'),
    row(AREA, `${label}: GET /api/health not answered 200 during it`, failures, 'count', { atMost: 0 }),
    row(AREA, `${label}: server still answers afterwards`, alive, 'yes=1', { atLeast: 1 }),
  );
  return alive === 1;
}

export async function benchUploadAttack(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const folder = makeTempFolder('om-bench-upload-attack-');
  let server: RunningServer | null = null;
  try {
    const wide = wideCsv();
    const large = largeCsv(LARGE_ROWS);
    const port = async (offset: number) =>
      process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) + offset : await freePort();
    const options = { dataDir: folder, adminEmail: ADMIN.email, adminPassword: ADMIN.password };
    // The first start creates the database (its memory is not a running server's); measured: a server started on it.
    server = await startServer({ ...options, port: await port(0) });
    await server.stop();
    server = await startServer({ ...options, port: await port(1) });
    if (NICE !== null) {
      // Before the probe threads are made, so they inherit it: the server's request thread and the bench's threads
      // ahead of the other sessions' processes on a shared machine (the server's upload threads keep their priority).
      os.setPriority(server.pid, NICE);
      os.setPriority(process.pid, NICE);
      console.error(`[bench] ${AREA}: the server's request thread and the bench at nice ${NICE}`);
    }
    const admin = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
    const organizers = await createOrganizers(server.baseUrl, admin, 4);
    if (NICE !== null) rows.push(row(AREA, "nice of the server's request thread and the bench (BENCH_NICE)", NICE, ''));
    rows.push(row(AREA, 'server memory before the attacks (RSS)', procStatusMb(server.pid, 'VmRSS'), 'MB'));
    // The same probe with nothing else asked of the server: what this machine's load alone does to it.
    const quiet = probeHealth(server.baseUrl);
    await sleep(3_000);
    const idle = await quiet.stop();
    const idleLoad = loadAverage();
    console.error(
      `[bench] ${AREA} idle: health p50 ${percentile(idle.times, 50)?.toFixed(1)} ms, p95 ${percentile(idle.times, 95)?.toFixed(1)} ms; load ${idleLoad}`,
    );
    rows.push(
      row(AREA, `GET /api/health p50, the server idle (load ${idleLoad})`, percentile(idle.times, 50), 'ms'),
      row(AREA, 'GET /api/health p95, the server idle', percentile(idle.times, 95), 'ms'),
    );
    const survived = await attack(
      server,
      organizers,
      wide,
      `1,000,000 columns (${(wide.length / 1_048_576).toFixed(1)} MB) x 4`,
      rows,
    );
    if (survived)
      await attack(
        server,
        organizers,
        large,
        `500 columns x ${LARGE_ROWS.toLocaleString('en')} rows (${(large.length / 1_048_576).toFixed(1)} MB) x 4`,
        rows,
      );
    try {
      rows.push(row(AREA, 'peak RSS of the server since it started (VmHWM)', procStatusMb(server.pid, 'VmHWM'), 'MB'));
    } catch {
      rows.push(row(AREA, 'peak RSS of the server since it started (VmHWM): the process is gone', null, 'MB'));
    }
  } finally {
    await server?.stop();
    removeTempFolder(folder);
  }
  return rows;
}
