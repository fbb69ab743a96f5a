import pg from 'pg';
import { vendorSitesCsv } from '../fixtures/generate.js';
import { upload } from '../fixtures/upload.js';
import { startHubProcess } from './app-processes.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createClient, type TestApp, type TestClient } from './test-app.js';

/** Helpers of the multi-process test and bench (tests/api/cluster.test.ts, tests/bench/faults.ts). */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 100 ms (a check that throws counts as not yet) until it holds; fails after `timeoutMs`. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > until) throw new Error(`Waited ${timeoutMs} ms for ${what}`);
    await sleep(100);
  }
}

/** One statement on a connection of its own (tests stop the server on purpose: no connection is kept). */
export async function queryOnce<T = any>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The status of a process's GET /api/ready. */
export const readyStatus = (baseUrl: string) =>
  fetch(`${baseUrl}/api/ready`, { signal: AbortSignal.timeout(5_000) }).then((answer) => answer.status);

/** A signed-in HTTP client against `baseUrl` (cookies work on any process: sessions are in the database). */
export async function signIn(baseUrl: string, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  const client = createClient(baseUrl);
  const res = await client.login(email, password);
  if (res.status !== 200) throw new Error(`Sign-in answered ${res.status}: ${JSON.stringify(res.body)}`);
  return client;
}

/** The same cookies against another process. */
export function through(client: TestClient, baseUrl: string): TestClient {
  const other = createClient(baseUrl);
  for (const [name, value] of client.jar) other.jar.set(name, value);
  return other;
}

/** Uploads `rows` vendor sites (permits numbered from `seed` × 10,000, so imports do not overlap) and starts the import. */
export async function startVendorImport(
  baseUrl: string,
  databaseUrl: string,
  client: TestClient,
  rows: number,
  seed: number,
): Promise<number> {
  const [importer] = await queryOnce(
    databaseUrl,
    `select id from importers where slug = 'vendor-job-sites' and deleted_at is null`,
  );
  const started = await upload({ baseUrl } as TestApp, client, '/api/imports', { importer_id: importer.id }, [
    { name: `vendor-${seed}.csv`, content: vendorSitesCsv(rows, seed, { firstRow: seed * 10_000 }) },
  ]);
  if (started.status !== 201) throw new Error(`The import answered ${started.status}: ${JSON.stringify(started.body)}`);
  return started.body.data.id;
}

/** The job of an import: its status, which process holds it (`host:pid`) and its attempts. */
export const importJob = async (databaseUrl: string, importId: number) =>
  (
    await queryOnce<{ status: string; locked_by: string | null; attempts: number }>(
      databaseUrl,
      `select status, locked_by, attempts from jobs where type = 'import' and payload->>'import_id' = $1`,
      [String(importId)],
    )
  )[0];

/**
 * `perSecond` requests a second as `client` (one write in four, the others a list page), each counted: answered, or
 * failed (a 5xx or no answer at all) with what happened.
 */
export function requestStream(client: TestClient, perSecond: number) {
  const failures: string[] = [];
  let answered = 0;
  let streaming = true;
  const running = (async () => {
    const pending: Array<Promise<void>> = [];
    for (let i = 0; streaming; i++) {
      const sent =
        i % 4 === 0
          ? client.post('/api/sites', { name: `Stream ${i}`, type: 'union' })
          : client.get('/api/sites?per_page=5');
      pending.push(
        sent
          .then((answer) => {
            answered++;
            if (answer.status >= 500) failures.push(`${answer.status} ${JSON.stringify(answer.body)}`);
          })
          .catch((error: Error) => {
            failures.push(String(error));
          }),
      );
      await sleep(1_000 / perSecond);
    }
    await Promise.all(pending);
  })();
  return {
    /** Stops sending and waits for the answers still on their way. */
    async stop() {
      streaming = false;
      await running;
      return { answered, failures };
    },
  };
}

type HubProcess = Awaited<ReturnType<typeof startHubProcess>>;

/** What a browser subscribed to the role channel heard while sites were written through a hub outage. */
export interface HubOutageRun {
  /** The sites written, in order, and any write that did not answer 201. */
  made: number[];
  failedWrites: string[];
  /** The sites whose ModelCreated the browser heard, in the order heard. */
  heard: number[];
  /** performance.now() when the hub answered again, and when the browser heard its last event. */
  hubBackAt: number;
  lastHeardAt: number;
}

/**
 * Writes a site every `everyMs` as `client` (through the balancer) while the hub is killed (`killHub`) for `outageMs`
 * and started again (`startHub`), and listens to `channel` of a browser on the hub; returns once the browser heard
 * every site written or `hearWithinMs` passed.
 */
export async function writeThroughHubOutage(options: {
  client: TestClient;
  channel: { bind(event: string, fn: (data: any) => void): unknown };
  /** The running hub, killed with SIGKILL and started again on its port with `hubSettings`. */
  hub: HubProcess;
  hubSettings: Parameters<typeof startHubProcess>[0];
  outageMs: number;
  everyMs: number;
  hearWithinMs: number;
}): Promise<HubOutageRun & { hub: HubProcess }> {
  const run: HubOutageRun = { made: [], failedWrites: [], heard: [], hubBackAt: 0, lastHeardAt: 0 };
  options.channel.bind('App.Events.ModelCreated', (event: { type: string; id: number }) => {
    if (event.type !== 'site') return;
    run.heard.push(event.id);
    run.lastHeardAt = performance.now();
  });
  let writing = true;
  const writer = (async () => {
    while (writing) {
      const answer = await options.client.post('/api/sites', { name: `Hub outage ${run.made.length}`, type: 'union' });
      if (answer.status === 201) run.made.push(answer.body.data.id);
      else run.failedWrites.push(`${answer.status} ${JSON.stringify(answer.body)}`);
      await sleep(options.everyMs);
    }
  })();
  await sleep(1_000);
  await options.hub.stop('SIGKILL');
  await sleep(options.outageMs);
  const hub = await startHubProcess(options.hubSettings, options.hub.port);
  run.hubBackAt = performance.now();
  await sleep(2_000);
  writing = false;
  await writer;
  // The standalone hub replays what it delivered in its first two minutes to a socket that subscribes (docs/realtime.md
  // "Catching up"): events about sites made before this run, when it started soon after the hub, are not the run's.
  const ours = () => run.heard.filter((id) => id >= (run.made[0] ?? Number.POSITIVE_INFINITY));
  await waitFor('every event', async () => ours().length >= run.made.length, options.hearWithinMs).catch(() => {});
  run.heard = ours();
  return { ...run, hub };
}
