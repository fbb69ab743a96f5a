import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { loadAuthUser } from '../../src/server/auth/load-user.js';
import { startJobWorker } from '../../src/server/jobs/index.js';
import { startInProcessApp } from './lib/in-process-app.js';
import { percentile } from './lib/percentile.js';
import { loadAverage } from './lib/server.js';
import { type BenchRow, row } from './types.js';

const SITES = Number(process.env.BENCH_AUTOMATION_SITES ?? 2_000);
const UPDATES_PER_SITE = Number(process.env.BENCH_AUTOMATION_ROUNDS ?? 5);
const DELIVERY_DEADLINE_MS = 60_000;

const p95 = (values: number[]) => percentile(values, 0.95);

export async function benchAutomations(): Promise<BenchRow[]> {
  // Arrival times by site: a run reads the record as it is when it runs, so a site's messages are matched to its
  // updates in order.
  const arrived = new Map<number, number[]>();
  let received = 0;
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const message = JSON.parse(body) as { data: { record: { id: number } } };
      const times = arrived.get(message.data.record.id) ?? [];
      times.push(performance.now());
      arrived.set(message.data.record.id, times);
      received++;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { app, ctx, close } = await startInProcessApp('om-bench-automations-', {
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
  });
  const rows: BenchRow[] = [];
  try {
    await startJobWorker(app);
    const admin = (await loadAuthUser(ctx.db, 1))!;
    const sites = ctx.resources.get('sites')!;
    const ids: number[] = [];
    for (let i = 0; i < SITES; i++)
      ids.push(Number((await ctx.records.create(admin, sites, { name: `Bench site ${i}`, type: 'union' })).record.id));
    await ctx.events.idle();

    const updates = async (phase: string) => {
      const took: number[] = [];
      const done = new Map<number, number[]>();
      const cpu = process.cpuUsage();
      for (let round = 0; round < UPDATES_PER_SITE; round++)
        for (const id of ids) {
          const city = `${phase} ${round}`;
          const started = performance.now();
          await ctx.records.update(admin, sites, id, { city });
          const ended = performance.now();
          took.push(ended - started);
          done.set(id, [...(done.get(id) ?? []), ended]);
        }
      const used = process.cpuUsage(cpu);
      return { took, done, cpuMsEach: (used.user + used.system) / 1000 / took.length };
    };

    const plain = await updates('Plain');
    await ctx.events.idle();
    const load1 = loadAverage();
    const { port } = receiver.address() as AddressInfo;
    await app.automations.service.create(admin, {
      name: 'Bench webhook',
      record_type: 'site',
      trigger: { kind: 'updated' },
      actions: [{ kind: 'webhook', url: `http://127.0.0.1:${port}/hook` }],
    });
    const firedCpu = process.cpuUsage();
    const fired = await updates('Fired');
    const load2 = loadAverage();
    const waitUntil = performance.now() + 10 * 60_000;
    while (received < fired.took.length && performance.now() < waitUntil)
      await new Promise((resolve) => setTimeout(resolve, 100));
    // The process's CPU from the first update to the last message (updates, runs, deliveries and the embedded
    // database), less the updates' own as measured without the automation: what each run and its message cost.
    const usedFired = process.cpuUsage(firedCpu);
    const cpuPerRun = (usedFired.user + usedFired.system) / 1000 / fired.took.length - plain.cpuMsEach;
    let latest = 0;
    let missing = 0;
    for (const [id, ends] of fired.done) {
      const times = arrived.get(id) ?? [];
      for (const [index, ended] of ends.entries()) {
        const at = times[index];
        if (at === undefined) missing++;
        else latest = Math.max(latest, at - ended);
      }
    }
    const total = fired.took.length;
    rows.push(
      row('automations', `update p95, no automation (${total}; load ${load1})`, p95(plain.took), 'ms'),
      row('automations', `update p95, webhook automation (load ${load2})`, p95(fired.took), 'ms'),
      row('automations', 'p95 with / without', p95(fired.took) / p95(plain.took), 'x', { atMost: 1.2 }),
      row('automations', 'CPU per update, no automation', plain.cpuMsEach, 'ms'),
      row('automations', 'CPU per update with automation (during the updates)', fired.cpuMsEach, 'ms'),
      row('automations', 'CPU per run and its message (until the last message, less the update)', cpuPerRun, 'ms'),
      row('automations', 'messages not received', missing, 'count', { atMost: 0 }),
      row('automations', 'slowest message after its update', latest, 'ms', { atMost: DELIVERY_DEADLINE_MS }),
    );
  } finally {
    await close();
    receiver.close();
  }
  return rows;
}
