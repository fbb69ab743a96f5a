/**
 * `npm run bench -- faults`: what operators see when parts of a deployment of several processes fail (issue 37), on
 * loopback: PostgreSQL, an S3 stand-in, the standalone hub, two app processes and a balancer that sends work only to
 * processes whose /api/ready answers 200.
 *
 * - PostgreSQL stopped (`pg_ctl stop -m fast`, then `-m immediate`) for 10 s: the time from its return until both
 *   processes are ready again and a write through each succeeds.
 * - The hub killed for 5 s while a person writes a site every 200 ms: how many of the events a browser that stayed
 *   subscribed heard, how many out of order, and how long after the hub's return the last one arrived.
 * - A rolling restart of the two processes (SIGTERM, a new process started, then the other) under 20 requests a
 *   second, with an import running: requests that failed, and how soon another process took the import over after
 *   each SIGTERM.
 */
import { startAppProcess, startHubProcess } from '../support/app-processes.js';
import { startBalancer } from '../support/balancer.js';
import {
  importJob,
  queryOnce,
  readyStatus,
  requestStream,
  signIn,
  sleep,
  startVendorImport,
  through,
  waitFor,
  writeThroughHubOutage,
} from '../support/cluster.js';
import { startPostgres } from '../support/postgres-server.js';
import { hubBrowser, next } from '../support/pusher-events.js';
import { startS3 } from '../support/s3-server.js';
import { createPostgresDatabase } from '../support/test-app.js';
import { loadAverage } from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'faults';
const HUB = { appId: 'bench-faults', key: 'bench-faults-key', secret: 'bench-faults-secret-0123456789' };
const DRAIN_SECONDS = 5;

export async function benchFaults(): Promise<BenchRow[]> {
  const postgres = await (startPostgres() ?? Promise.resolve(null));
  if (!postgres) {
    console.error('[bench] faults: no PostgreSQL server binaries here; skipped');
    return [];
  }
  const rows: BenchRow[] = [];
  const cleanups: Array<() => Promise<unknown>> = [() => postgres.stop()];
  const note = (text: string) => console.error(`[bench] faults: ${text} (load ${loadAverage()})`);
  try {
    const database = await createPostgresDatabase(postgres.url);
    const s3 = await startS3();
    cleanups.unshift(() => s3.stop());
    let hub = await startHubProcess(HUB);
    cleanups.unshift(() => hub.stop());
    const env = {
      DATABASE_URL: database.url,
      READ_CACHE: '1',
      IMPORT_CHUNK_ROWS: '500',
      SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
      ...s3.env,
      ...hub.appEnv,
    };
    const processes = [await startAppProcess(env)];
    processes.push(await startAppProcess(env));
    cleanups.unshift(() => Promise.all(processes.map((process) => process.stop())));
    const balancer = await startBalancer(
      processes.map((process) => process.url),
      { readyEveryMs: 250 },
    );
    cleanups.unshift(() => balancer.close());
    const admin = await signIn(balancer.url);

    for (const mode of ['fast', 'immediate'] as const) {
      await postgres.halt(mode);
      await sleep(10_000);
      await postgres.resume();
      const back = performance.now();
      await Promise.all(
        processes.map(async (process) => {
          await waitFor('ready again', async () => (await readyStatus(process.url)) === 200, 60_000);
          const made = await through(admin, process.url).post('/api/sites', { name: `After ${mode}`, type: 'union' });
          if (made.status !== 201) throw new Error(`A write after the ${mode} stop answered ${made.status}`);
        }),
      );
      const ms = performance.now() - back;
      note(`PostgreSQL ${mode}: both processes serving ${ms.toFixed(0)} ms after its return`);
      rows.push(
        row(AREA, `PostgreSQL stopped (${mode}) 10 s: both processes serving after its return`, ms, 'ms', {
          below: 5_000,
        }),
      );
    }

    // The hub away for 5 s during writes.
    const [{ id: roleId }] = await queryOnce(
      database.url,
      `select role_id as id from users where email = 'admin@example.com'`,
    );
    const browser = hubBrowser(HUB.key, hub.port, (body) =>
      through(admin, processes[0].url).post('/broadcasting/auth', body),
    );
    try {
      const channel = browser.subscribe(`private-App.Models.Role.${roleId}`);
      await next(channel, 'pusher:subscription_succeeded', 10_000);
      const run = await writeThroughHubOutage({
        client: admin,
        channel,
        hub,
        hubSettings: HUB,
        outageMs: 5_000,
        everyMs: 200,
        hearWithinMs: 60_000,
      });
      hub = run.hub;
      const { made, heard } = run;
      const delivered = made.filter((id) => heard.includes(id)).length;
      let outOfOrder = 0;
      for (let i = 1; i < heard.length; i++) if (heard[i] < heard[i - 1]) outOfOrder++;
      note(
        `hub away 5 s: ${delivered} of ${made.length} events heard (${run.failedWrites.length} writes failed), ${outOfOrder} out of order, the last ${((run.lastHeardAt - run.hubBackAt) / 1000).toFixed(1)} s after its return`,
      );
      rows.push(
        row(AREA, `hub away 5 s: events heard by a subscribed browser (of ${made.length})`, delivered, 'count', {
          atLeast: made.length,
        }),
      );
      rows.push(row(AREA, 'hub away 5 s: events heard out of order', outOfOrder, 'count', { atMost: 0 }));
      rows.push(
        row(AREA, "hub away 5 s: last event heard after the hub's return", run.lastHeardAt - run.hubBackAt, 'ms'),
      );
    } finally {
      browser.disconnect();
    }

    // A rolling restart under 20 requests a second, an import running.
    const importId = await startVendorImport(balancer.url, database.url, admin, 20_000, 7);
    await waitFor(
      'the import to run',
      async () => (await importJob(database.url, importId))?.status === 'running',
      60_000,
    );
    const stream = requestStream(admin, 20);
    await sleep(2_000);
    const takeovers: number[] = [];
    for (let turn = 0; turn < 2; turn++) {
      const old = processes.shift()!;
      const held = (await importJob(database.url, importId))?.locked_by?.endsWith(`:${old.pid}`);
      console.error(`[bench] faults: SIGTERM to ${old.url} (${held ? 'holding' : 'not holding'} the import)`);
      const stopped = old.stop('SIGTERM');
      const signalled = performance.now();
      if (held) {
        await waitFor(
          'another process to take the import',
          async () => {
            const job = await importJob(database.url, importId);
            return job?.status !== 'running' || !job.locked_by?.endsWith(`:${old.pid}`);
          },
          30_000,
        );
        takeovers.push(performance.now() - signalled);
      }
      await stopped;
      balancer.remove(old.url);
      const replacement = await startAppProcess(env);
      processes.push(replacement);
      balancer.add(replacement.url);
      await waitFor('the new process to be ready', async () => (await readyStatus(replacement.url)) === 200, 60_000);
      await sleep(1_000);
    }
    const { answered, failures } = await stream.stop();
    if (balancer.serverErrors.length)
      console.error(`[bench] faults: 5xx by target: ${balancer.serverErrors.join(', ')}`);
    note(
      `rolling restart: ${failures.length} of ${answered + failures.length} requests failed${failures.length ? ` (${failures.slice(0, 3).join('; ')})` : ''}; import taken over after ${takeovers.map((ms) => `${ms.toFixed(0)} ms`).join(', ') || '(not held by a restarted process)'}`,
    );
    rows.push(
      row(
        AREA,
        `rolling restart of 2 processes at 20 req/s: requests failed (of ${answered})`,
        failures.length,
        'count',
        { atMost: 0 },
      ),
    );
    for (const ms of takeovers)
      rows.push(row(AREA, 'SIGTERM: import taken over by another process after', ms, 'ms', { below: 2_000 }));
    await database.drop().catch(() => {});
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
  }
  return rows;
}
