/**
 * `npm run bench -- automations` (issue 34): site updates with and without an automation whose one action calls a
 * webhook, timed black-box. The server runs as `npm start` runs it (its own process, the embedded database, the job
 * worker as in production); the sites are made and updated through the API by this process, one request after
 * another, each a different value; the webhook receiver runs here too, so its HTTP handling is not the server's.
 * CPU figures are the server process's (all its threads: the embedded database included), from /proc.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { request, signIn, xsrfOf } from './lib/http.js';
import { percentile } from './lib/percentile.js';
import {
  freePort,
  loadAverage,
  makeTempFolder,
  procCpuMs,
  type RunningServer,
  removeTempFolder,
  startServer,
} from './lib/server.js';
import { type BenchRow, row } from './types.js';

const SITES = Number(process.env.BENCH_AUTOMATION_SITES ?? 2_000);
const UPDATES_PER_SITE = Number(process.env.BENCH_AUTOMATION_ROUNDS ?? 5);
const DELIVERY_DEADLINE_MS = 60_000;
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };

const p95 = (values: number[]) => percentile(values, 0.95);

/** The bench's client: one kept-alive connection, as a person's browser holds one, signed in as the administrator. */
function apiClient(server: RunningServer, cookie: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const xsrf = xsrfOf(cookie);
  return {
    async send(method: string, path: string, body: unknown) {
      const response = await request(`${server.baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json', cookie, 'x-xsrf-token': xsrf },
        body: JSON.stringify(body),
        agent,
        timeoutMs: 60_000,
      });
      if (response.status >= 300)
        throw new Error(`${method} ${path} answered ${response.status}: ${response.body.slice(0, 300)}`);
      return JSON.parse(response.body) as { data: Record<string, unknown> };
    },
    close: () => agent.destroy(),
  };
}

/** A loopback receiver counting messages and their arrival times by site (a site's messages come in its updates' order). */
async function startReceiver() {
  const arrived = new Map<number, number[]>();
  let received = 0;
  const receiver = http.createServer((incoming, response) => {
    let body = '';
    incoming.on('data', (chunk) => (body += chunk));
    incoming.on('end', () => {
      const message = JSON.parse(body) as { data: { record: { id: number } } };
      const times = arrived.get(message.data.record.id) ?? [];
      times.push(performance.now());
      arrived.set(message.data.record.id, times);
      received++;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    arrived,
    received: () => received,
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}

export async function benchAutomations(): Promise<BenchRow[]> {
  const receiver = await startReceiver();
  const dataDir = makeTempFolder('om-bench-automations-');
  let server: RunningServer | null = null;
  const rows: BenchRow[] = [];
  try {
    server = await startServer({
      dataDir,
      port: await freePort(),
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      env: { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' },
    });
    const serverPid = server.pid;
    const api = apiClient(server, await signIn(server.baseUrl, ADMIN.email, ADMIN.password));
    const ids: number[] = [];
    for (let i = 0; i < SITES; i++)
      ids.push(Number((await api.send('POST', '/api/sites', { name: `Bench site ${i}`, type: 'union' })).data.id));
    await sleep(2_000);

    // Each update a new city ("<phase> <round>"), so no request repeats an earlier one.
    const updates = async (phase: string) => {
      const took: number[] = [];
      const done = new Map<number, number[]>();
      const cpuFrom = procCpuMs(serverPid);
      for (let round = 0; round < UPDATES_PER_SITE; round++)
        for (const id of ids) {
          const started = performance.now();
          await api.send('PUT', `/api/sites/${id}`, { city: `${phase} ${round}` });
          const ended = performance.now();
          took.push(ended - started);
          done.set(id, [...(done.get(id) ?? []), ended]);
        }
      return { took, done, cpuMsEach: (procCpuMs(serverPid) - cpuFrom) / took.length };
    };

    const plain = await updates('Plain');
    const load1 = loadAverage();
    await sleep(2_000);
    await api.send('POST', '/api/automations', {
      name: 'Bench webhook',
      record_type: 'site',
      trigger: { kind: 'updated' },
      actions: [{ kind: 'webhook', url: receiver.url }],
    });
    const firedCpuFrom = procCpuMs(serverPid);
    const fired = await updates('Fired');
    const load2 = loadAverage();
    const waitUntil = performance.now() + 10 * 60_000;
    while (receiver.received() < fired.took.length && performance.now() < waitUntil) await sleep(100);
    // The server's CPU from the first update to the last message received (updates, runs, deliveries and the embedded
    // database), less the updates' own as measured without the automation: what each run and its message cost.
    const cpuPerRun = (procCpuMs(serverPid) - firedCpuFrom) / fired.took.length - plain.cpuMsEach;
    const load3 = loadAverage();
    api.close();
    let latest = 0;
    let missing = 0;
    for (const [id, ends] of fired.done) {
      const times = receiver.arrived.get(id) ?? [];
      for (const [index, ended] of ends.entries()) {
        const at = times[index];
        if (at === undefined) missing++;
        else latest = Math.max(latest, at - ended);
      }
    }
    const total = fired.took.length;
    // BENCH_AUTOMATION_TIMES: a file to keep each update's time in (both phases, in order) for a closer look.
    if (process.env.BENCH_AUTOMATION_TIMES)
      writeFileSync(process.env.BENCH_AUTOMATION_TIMES, JSON.stringify({ plain: plain.took, fired: fired.took }));
    const spread = (took: number[]) =>
      [0.5, 0.9, 0.99].map((p) => `p${p * 100} ${percentile(took, p).toFixed(1)}`).join(', ');
    rows.push(
      row(
        'automations',
        `update p95 over HTTP, no automation (${total}; ${spread(plain.took)} ms; load ${load1})`,
        p95(plain.took),
        'ms',
      ),
      row(
        'automations',
        `update p95 over HTTP, webhook automation (${spread(fired.took)} ms; load ${load2})`,
        p95(fired.took),
        'ms',
      ),
      row('automations', `p95 with / without (load ${load2})`, p95(fired.took) / p95(plain.took), 'x', {
        atMost: 1.2,
      }),
      row('automations', `server CPU per update, no automation (load ${load1})`, plain.cpuMsEach, 'ms'),
      row(
        'automations',
        `server CPU per update with automation, during the updates (load ${load2})`,
        fired.cpuMsEach,
        'ms',
      ),
      row(
        'automations',
        `server CPU per run and its message, until the last message, less the update (load ${load3})`,
        cpuPerRun,
        'ms',
      ),
      row('automations', `messages not received (load ${load3})`, missing, 'count', { atMost: 0 }),
      row('automations', `slowest message after its update (load ${load3})`, latest, 'ms', {
        atMost: DELIVERY_DEADLINE_MS,
      }),
    );
  } finally {
    await server?.stop();
    removeTempFolder(dataDir);
    await receiver.close();
  }
  return rows;
}
