import pg from 'pg';
import type { PresenceChannel } from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vendorSitesCsv } from '../fixtures/generate.js';
import { upload as uploadFiles } from '../fixtures/upload.js';
import { type AppProcess, startAppProcess, startHubProcess } from '../support/app-processes.js';
import { startBalancer } from '../support/balancer.js';
import { hubBrowser, next } from '../support/pusher-events.js';
import { startS3 } from '../support/s3-server.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createClient,
  createPostgresDatabase,
  type TestApp,
  type TestClient,
  testDatabaseUrl,
  USER_PASSWORD,
} from '../support/test-app.js';

/**
 * Scale-out with real parts (issue 18): three server processes started at once on one fresh PostgreSQL database,
 * a round-robin balancer in front, the standalone hub as its own process, files in an S3-compatible server. Only
 * in the PostgreSQL run of the API suite.
 */
const serverUrl = testDatabaseUrl();
const HUB = { appId: 'cluster-test', key: 'cluster-key', secret: 'cluster-secret-0123456789' };
let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
let s3: Awaited<ReturnType<typeof startS3>>;
let hub: Awaited<ReturnType<typeof startHubProcess>>;
let processes: AppProcess[] = [];
let balancer: Awaited<ReturnType<typeof startBalancer>>;
let sql: pg.Client;

beforeAll(async () => {
  if (!serverUrl) return;
  database = await createPostgresDatabase(serverUrl);
  s3 = await startS3();
  hub = await startHubProcess(HUB);
  const env = { DATABASE_URL: database.url, READ_CACHE: '1', IMPORT_CHUNK_ROWS: '100', ...s3.env, ...hub.appEnv };
  // All three at once on an empty database: migrations and the first seeding happen once, the others wait.
  processes = await Promise.all([startAppProcess(env), startAppProcess(env), startAppProcess(env)]);
  balancer = await startBalancer(processes.map((process) => process.url));
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
}, 300_000);

afterAll(async () => {
  await sql?.end();
  await balancer?.close();
  await Promise.all(processes.map((process) => process.stop()));
  await hub?.stop();
  await s3?.stop();
  await database?.drop();
}, 120_000);

/** A signed-in HTTP client against `baseUrl` (cookies work on any process: sessions are in the database). */
async function signIn(baseUrl: string, email = ADMIN_EMAIL, password = ADMIN_PASSWORD) {
  const client = createClient(baseUrl);
  const res = await client.login(email, password);
  if (res.status !== 200) throw new Error(`Sign-in answered ${res.status}: ${JSON.stringify(res.body)}`);
  return client;
}

/** The same cookies against another process. */
function through(client: TestClient, baseUrl: string): TestClient {
  const other = createClient(baseUrl);
  for (const [name, value] of client.jar) other.jar.set(name, value);
  return other;
}

/** A browser's realtime client: connected to the hub, its subscriptions authorised by `client`'s process. */
const browserOn = (client: TestClient) =>
  hubBrowser(HUB.key, hub.port, (body) => client.post('/broadcasting/auth', body));

describe.skipIf(!serverUrl)('three server processes, a balancer, the standalone hub and S3 storage', () => {
  it('answers any request on any process, and started them on one database without trouble', async () => {
    const admin = await signIn(balancer.url);
    for (let i = 0; i < 9; i++) expect((await admin.get('/api/auth/check')).status).toBe(200);
    for (const process of processes) expect(balancer.served.get(process.url)).toBeGreaterThanOrEqual(3);
    const { rows } = await sql.query(`select count(*)::int as admins from users where email = $1`, [ADMIN_EMAIL]);
    expect(rows[0].admins).toBe(1);
    const config = (await admin.get('/api/system/config')).body;
    expect(JSON.stringify(config)).toContain(String(hub.port));
  });

  it('a write through A reaches a browser on the hub and is read at once through B, whose cache held the old value', async () => {
    const [a, b] = processes;
    const viaA = await signIn(a.url);
    const viaB = through(viaA, b.url);
    const site = (await viaA.post('/api/sites', { name: 'Cluster Tower', type: 'union' })).body.data;
    expect((await viaB.get(`/api/sites/${site.id}`)).body.data.name).toBe('Cluster Tower');
    expect((await viaB.get(`/api/sites/${site.id}`)).body.data.name).toBe('Cluster Tower'); // now kept by B

    const browser = browserOn(viaB);
    try {
      const adminId = (await viaA.get('/api/auth/check')).body.data.id;
      const roleChannel = `private-App.Models.Role.${(await sql.query('select role_id from users where id = $1', [adminId])).rows[0].role_id}`;
      const channel = browser.subscribe(roleChannel);
      await next(channel, 'pusher:subscription_succeeded', 10_000);
      const heard = next(channel, 'App.Events.ModelUpdated', 10_000);
      const renamed = await viaA.put(`/api/sites/${site.id}`, {
        name: 'Cluster Tower Renamed',
        updated_at: site.updated_at,
      });
      expect(renamed.status).toBe(200);
      expect((await viaB.get(`/api/sites/${site.id}`)).body.data.name).toBe('Cluster Tower Renamed');
      expect(await heard).toMatchObject({ type: 'site', id: site.id });
    } finally {
      browser.disconnect();
    }
  });

  it('a document uploaded through A downloads through C, from the bucket', async () => {
    const [a, , c] = processes;
    const viaA = await signIn(a.url);
    const site = (await viaA.post('/api/sites', { name: 'Cluster Hall', type: 'union' })).body.data;
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const uploaded = await uploadFiles(
      { baseUrl: a.url } as TestApp,
      viaA,
      '/api/documents',
      { documentable_type: 'site', documentable_id: site.id },
      [{ name: 'permit.pdf', content: pdf, type: 'application/pdf' }],
      'file',
    );
    expect(uploaded.status).toBe(201);
    const cookie = [...viaA.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const download = await fetch(`${c.url}/api/documents/${uploaded.body.data.id}/download`, { headers: { cookie } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it('two people on one record through different processes see each other', async () => {
    const [a, , c] = processes;
    const admin = await signIn(a.url);
    const role = (await sql.query(`select id from roles where slug = 'admin'`)).rows[0].id;
    const made = await admin.post('/api/users', {
      first_name: 'Second',
      last_name: 'Person',
      email: 'second@example.com',
      password: USER_PASSWORD,
      role_id: role,
    });
    expect(made.status).toBe(201);
    const second = await signIn(c.url, 'second@example.com', USER_PASSWORD);
    const site = (await admin.post('/api/sites', { name: 'Presence Yard', type: 'union' })).body.data;
    const first = browserOn(admin);
    const other = browserOn(second);
    try {
      const channelName = `presence-record.site.${site.id}`;
      const firstChannel = first.subscribe(channelName) as PresenceChannel;
      await next(firstChannel, 'pusher:subscription_succeeded', 10_000);
      const arrived = next(firstChannel, 'pusher:member_added', 10_000);
      const otherChannel = other.subscribe(channelName) as PresenceChannel;
      const members = await next(otherChannel, 'pusher:subscription_succeeded', 10_000);
      expect(members.count).toBe(2);
      expect((await arrived).info).toMatchObject({ name: 'Second Person' });
    } finally {
      first.disconnect();
      other.disconnect();
    }
  });

  it('an import whose process is killed (-9) is finished by another, with no row lost or doubled', async () => {
    const admin = await signIn(balancer.url);
    const importer = (
      await sql.query(`select id from importers where slug = 'vendor-job-sites' and deleted_at is null`)
    ).rows[0].id;
    const rows = 3_000;
    const started = await uploadFiles(
      { baseUrl: balancer.url } as TestApp,
      admin,
      '/api/imports',
      { importer_id: importer },
      [{ name: 'cluster-vendor.csv', content: vendorSitesCsv(rows, 41) }],
    );
    expect(started.status).toBe(201);
    const importId = started.body.data.id;

    // Wait until some chunks are committed, then kill whichever process holds the job.
    let holder: AppProcess | undefined;
    const until = Date.now() + 120_000;
    while (!holder && Date.now() < until) {
      const job = (
        await sql.query(
          `select locked_by from jobs where type = 'import' and payload->>'import_id' = $1 and status = 'running'`,
          [String(importId)],
        )
      ).rows[0];
      const processed = (await sql.query('select processed_rows from imports where id = $1', [importId])).rows[0]
        .processed_rows;
      if (job && processed >= 300 && processed < rows)
        holder = processes.find((process) => job.locked_by.endsWith(`:${process.pid}`));
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(holder, 'a process held the running import').toBeDefined();
    await holder!.stop('SIGKILL');

    const finish = Date.now() + 240_000;
    let status = '';
    while (Date.now() < finish) {
      status = (await sql.query('select status from imports where id = $1', [importId])).rows[0].status;
      if (status === 'complete' || status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(status).toBe('complete');
    const done = (await admin.get(`/api/imports/${importId}`)).body.data;
    expect(done).toMatchObject({ processed_rows: rows, created_count: rows, failed_count: 0 });
    const sites = await sql.query(
      'select count(*)::int as count, count(distinct external_id)::int as distinct_ids from sites where import_id = $1',
      [importId],
    );
    expect(sites.rows[0]).toEqual({ count: rows, distinct_ids: rows });
    const revisions = await sql.query(
      `select count(*)::int as count from revisions where import_id = $1 and revisionable_type = 'site'`,
      [importId],
    );
    expect(revisions.rows[0].count).toBe(rows);
    const job = (
      await sql.query(`select status, attempts from jobs where type = 'import' and payload->>'import_id' = $1`, [
        String(importId),
      ])
    ).rows[0];
    expect(job).toMatchObject({ status: 'done', attempts: 2 });
  });
});
