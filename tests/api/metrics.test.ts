import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database.js';
import { createPostgresDatabase, startTestApp, type TestApp, testDatabaseUrl } from '../support/test-app.js';

/** GET /metrics (Prometheus text format, behind METRICS_TOKEN) and GET /api/ready (for a load balancer). */
const TOKEN = 'metrics-token-for-the-test-1234';
let t: TestApp;
let off: TestApp;
beforeAll(async () => {
  [t, off] = await Promise.all([startTestApp({ METRICS_TOKEN: TOKEN }), startTestApp()]);
});
afterAll(async () => {
  await Promise.all([t?.close(), off?.close()]);
});

const scrape = (app: TestApp, token = TOKEN) =>
  app.client().get('/metrics', { headers: { authorization: `Bearer ${token}` } });

describe('metrics', () => {
  it('are off without METRICS_TOKEN, and refused without the right bearer token', async () => {
    expect((await scrape(off)).status).toBe(404);
    expect((await t.client().get('/metrics')).status).toBe(401);
    expect((await scrape(t, 'wrong-token-of-the-same-len-9999')).status).toBe(401);
  });

  it('count requests by route pattern and status, with latencies, jobs, sockets and the process', async () => {
    const admin = await t.admin();
    const site = await admin.post('/api/sites', { name: 'Metrics Tower', type: 'union' });
    expect(site.status).toBe(201);
    expect((await admin.get(`/api/sites/${site.body.data.id}`)).status).toBe(200);
    expect((await admin.get('/api/sites/99999999')).status).toBe(404);

    const res = await scrape(t);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = String(res.body);
    // The pattern, not the path: one series per route whatever the ids.
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/sites\/:id",status="200"\} 1\n/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/api\/sites\/:id",status="404"\} 1\n/);
    expect(text).toMatch(/http_requests_total\{method="POST",route="\/api\/sites",status="201"\} 1\n/);
    expect(text).not.toContain(`/api/sites/${site.body.data.id}"`);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/sites\/:id"\} 2\n/);
    expect(text).toMatch(/^websocket_connections 0$/m);
    expect(text).toContain('# TYPE jobs gauge');
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    if (testDatabaseUrl()) expect(text).toMatch(/^database_pool_connections\{state="max"\} \d+$/m);
    else expect(text).not.toContain('database_pool_connections');
  });

  it('report the database, the queue and the realtime hub, and every series the alerts of docs/operations.md use', async () => {
    const text = String((await scrape(t)).body);
    expect(text).toMatch(/^database_up 1$/m);
    expect(text).toMatch(/^jobs_due \d+$/m);
    expect(text).toMatch(/^jobs_lag_seconds [\d.e+-]+$/m);
    expect(text).toMatch(/^realtime_hub_up 1$/m);
    expect(text).toMatch(/^realtime_outbox_events 0$/m);
    if (testDatabaseUrl()) expect(text).toMatch(/^database_pool_connections\{state="waiting"\} 0$/m);

    const operations = readFileSync('docs/operations.md', 'utf8');
    const alerts = operations.slice(operations.indexOf('Worth an alert'));
    const rules = [...alerts.matchAll(/^\| [^|]+ \| `([^`]+)`/gm)].map((match) => match[1]);
    expect(rules.length).toBeGreaterThanOrEqual(8);
    const promql = new Set(['rate', 'increase', 'histogram_quantile', 'sum', 'by', 'le', 'for', 'status']);
    const series = new Set(rules.flatMap((rule) => rule.match(/\b[a-z][a-z0-9_]*(?=[{[\s)]|$)/g) ?? []));
    for (const name of series) {
      if (promql.has(name) || (name === 'database_pool_connections' && !testDatabaseUrl())) continue;
      expect(text, `the series ${name} of an alert rule`).toMatch(new RegExp(`^(# TYPE )?${name}[{ ]`, 'm'));
    }
  });

  it('show a queued job by its type', async () => {
    const admin = await t.admin();
    const exported = await admin.post('/api/exports', { resource: 'sites' });
    expect([200, 201, 202]).toContain(exported.status);
    const text = String((await scrape(t)).body);
    expect(text).toMatch(/^jobs\{type="[a-z-]+",status="(queued|running|failed)"\} \d+$/m);
  });
});

describe('readiness', () => {
  it('is ready while the database answers, and says stopping once the process is told to stop', async () => {
    const client = off.client();
    const ready = await client.get('/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    const closing = off.app.close();
    const during = await fetch(`${off.baseUrl}/api/ready`).catch(() => null);
    // Either this process still answered (503, stopping) or it no longer takes connections: never "ready".
    if (during) expect(during.status).toBe(503);
    await closing;
  });
});

describe.skipIf(!testDatabaseUrl())('the pool gauge (PostgreSQL)', () => {
  it('counts as waiting only the requests that find every connection busy, at rest and under load', async () => {
    const made = await createPostgresDatabase(testDatabaseUrl()!);
    const size = process.env.DATABASE_POOL_SIZE;
    process.env.DATABASE_POOL_SIZE = '2';
    const database = await openDatabase({ databaseUrl: made.url, dataDir: '' });
    if (size === undefined) delete process.env.DATABASE_POOL_SIZE;
    else process.env.DATABASE_POOL_SIZE = size;
    try {
      // At rest, and in the tick where a query is handed an idle connection (pg-pool queues it for that tick).
      const query = database.db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
      expect(database.poolStats!()).toMatchObject({ max: 2, waiting: 0 });
      await query;
      expect(database.poolStats!()).toMatchObject({ total: 1, idle: 1, waiting: 0 });

      // Both connections held: a third query waits for one.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const holders = [0, 1].map(() => database.db.connection().execute(() => gate));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const third = database.db.selectNoFrom((eb) => eb.val(3).as('three')).execute();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(database.poolStats!()).toMatchObject({ total: 2, idle: 0, waiting: 1 });
      release();
      await Promise.all([...holders, third]);
      expect(database.poolStats!()).toMatchObject({ total: 2, idle: 2, waiting: 0 });
    } finally {
      await database.close();
      await made.drop();
    }
  });
});
