/**
 * Logging a conversation (issue 36 point 1), black-box: the real server (`npm start`, embedded database, demo data,
 * its read cache on as `npm start` has it), an organizer logging the common case — a call with an outcome, an
 * assessment and a next step that becomes a task — one after another on different people, as the two-tap form sends
 * it. The figure is the answer's time seen from this process (server time plus loopback) and the server's CPU per
 * conversation; target p95 < 50 ms.
 */
import { performance } from 'node:perf_hooks';
import { request, signIn, xsrfOf } from './lib/http.js';
import { percentile } from './lib/percentile.js';
import { freePort, loadAverage, makeTempFolder, procCpuMs, removeTempFolder, startServer } from './lib/server.js';
import { ADMIN_EMAIL, getJson, PASSWORD } from './load.js';
import { type BenchRow, row } from './types.js';

const AREA = 'conversations';
const COUNT = Number(process.env.BENCH_CONVERSATIONS ?? 400);
const WARMUP = 20;

export async function benchConversations(): Promise<BenchRow[]> {
  const dataDir = makeTempFolder('om-bench-conversations-');
  const server = await startServer({
    dataDir,
    port: await freePort(),
    adminEmail: ADMIN_EMAIL,
    adminPassword: PASSWORD,
    seedDemo: true,
    timeoutMs: 600_000,
    // As `npm start` runs on the embedded database (config.ts READ_CACHE): sessions kept in memory, and list and
    // show answers until the next write. Each conversation is a write, so no answer of one is served from a copy.
    readCache: true,
  });
  try {
    const cookie = await signIn(server.baseUrl, 'organizer@example.com', PASSWORD);
    const xsrf = xsrfOf(cookie);
    const contacts = (await getJson(server.baseUrl, '/api/contacts?per_page=100', cookie)).data as Array<{
      id: number;
    }>;
    if (!contacts.length) throw new Error('The organizer reads no contact: is the demo data seeded?');
    const times: number[] = [];
    let cpuBefore = 0;
    for (let n = 0; n < WARMUP + COUNT; n++) {
      if (n === WARMUP) cpuBefore = procCpuMs(server.pid);
      const body = {
        contact_id: contacts[n % contacts.length].id,
        channel: 'call',
        // Never the same request twice: another minute each time.
        had_at: new Date(Date.UTC(2026, 10, 2, 9) + n * 60_000).toISOString(),
        outcome: 'reached',
        assessment: String(1 + (n % 5)),
        notes: `Talked about the contract, call ${n}.`,
        next_step: `Call back about the meeting (${n})`,
      };
      const started = performance.now();
      const res = await request(`${server.baseUrl}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, 'x-xsrf-token': xsrf },
        body: JSON.stringify(body),
      });
      const ms = performance.now() - started;
      if (res.status !== 201)
        throw new Error(`POST /api/conversations answered ${res.status}: ${res.body.slice(0, 300)}`);
      if (n >= WARMUP) times.push(ms);
    }
    const cpuPer = (procCpuMs(server.pid) - cpuBefore) / COUNT;
    const load = loadAverage();
    const p50 = percentile(times, 0.5);
    const p95 = percentile(times, 0.95);
    console.error(
      `[conversations] ${COUNT} logged: p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, server CPU ${cpuPer.toFixed(1)} ms each (load ${load})`,
    );
    return [
      row(AREA, `log a conversation with a next step, p95 (${COUNT}, load ${load})`, Math.round(p95 * 10) / 10, 'ms', {
        below: 50,
      }),
      row(AREA, 'log a conversation, p50', Math.round(p50 * 10) / 10, 'ms'),
      row(AREA, 'server CPU per conversation', Math.round(cpuPer * 10) / 10, 'ms'),
    ];
  } finally {
    await server.stop();
    removeTempFolder(dataDir);
  }
}
