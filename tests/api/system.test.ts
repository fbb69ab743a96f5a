import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, testDatabaseUrl } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    APP_NAME: 'Map Under Test',
    INACTIVITY_TIMEOUT_MS: '120000',
    INACTIVITY_COUNTDOWN_SECONDS: '30',
  });
});
afterAll(async () => {
  await t?.close();
});

describe('public system endpoints', () => {
  it('GET /api/health answers ok and names the database really in use', async () => {
    const res = await t.client().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body.status).toBe('ok');
    // The PostgreSQL run must really run on PostgreSQL, and the default run on PGlite.
    expect(res.body.database).toBe(testDatabaseUrl() ? 'postgres' : 'pglite');
    expect(t.database.kind).toBe(res.body.database);
  });

  it('GET /api/system/config is public and has the documented shape', async () => {
    const res = await t.client().get('/api/system/config');
    expect(res.status).toBe(200);
    const config = res.body;
    expect(config).toMatchObject({
      name: 'Map Under Test',
      logo_url: '/logo.svg',
      privacy_url: '/privacy.html',
      terms_url: '/terms.html',
      support_url: 'mailto:support@example.com',
      registration_enabled: false,
      analytics_url: null,
      tiles: { url: expect.stringContaining('{z}'), attribution: expect.any(String) },
      realtime: {
        broadcaster: 'pusher',
        key: expect.any(String),
        // The embedded hub: the browser connects to the address it loaded the app from (never the Host header's).
        host: null,
        port: null,
        scheme: null,
        force_tls: null,
        auth_endpoint: '/broadcasting/auth',
        user_auth_endpoint: '/broadcasting/user-auth',
      },
      session: { idle_timeout_ms: 120000, countdown_seconds: 30 },
    });
    expect(config.version).toMatch(/^9\.9\.9-test\+/);
    // Nothing secret leaks through the public config.
    expect(JSON.stringify(config)).not.toContain(t.config.appKey!);
  });

  it('GET /api/dashboard/version is public and matches the config version', async () => {
    const client = t.client();
    const [version, config] = await Promise.all([
      client.get('/api/dashboard/version'),
      client.get('/api/system/config'),
    ]);
    expect(version.status).toBe(200);
    expect(version.body).toEqual({ version: config.body.version });
  });

  it('every answer carries a request id, and a sane one sent by the caller is kept', async () => {
    const client = t.client();
    const generated = await client.get('/api/health');
    expect(generated.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
    const kept = await client.get('/api/health', { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc-123');
    const refused = await client.get('/api/health', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(refused.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('GET /api/dashboard/statistics needs a sign-in and then answers the counts', async () => {
    expect((await t.client().get('/api/dashboard/statistics')).status).toBe(401);
    const admin = await t.admin();
    const res = await admin.get('/api/dashboard/statistics');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expect.objectContaining({ tasks_open: 0, notifications_unread: 0 }));
  });
});
