import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headerText, rawRequest } from '../support/raw-request.js';
import { startTestApp, type TestApp, type TestClient, USER_PASSWORD } from '../support/test-app.js';

/**
 * Issue 28 point 4 and 6b: the app's address comes from APP_URL, never from the request (Host, X-Forwarded-* unless
 * TRUST_PROXY believes them), so no header or answer carries what a request claims about its own address; reset
 * tokens never reach the log; an administrator makes a reset link on the user's page. docs/security.md.
 */
const APP_URL = 'https://map.example.org';
const HOSTILE_HOSTS = [
  'evil.example:1;script-src *',
  'evil.example',
  'evil.example:443',
  '"><script>alert(1)</script>',
  'evil.example:1 https://evil.example',
];
const PATHS = [
  '/',
  '/login',
  '/password/update?token=probe-token&email=x%40example.com',
  '/api/health',
  '/api/system/config',
  '/api/bootstrap',
  '/api/no-such-route',
  '/sanctum/csrf-cookie',
];

let t: TestApp;
const log: string[] = [];
let superClient: TestClient;

beforeAll(async () => {
  // TRUST_PROXY off (the default): forwarded headers are the request's word, and not believed.
  // At debug every request is logged too (one line each), so the test sees that its URL's token is redacted there.
  t = await startTestApp({ APP_URL, LOG_LEVEL: 'debug' }, { logLines: log });
  superClient = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

/** The cookies and CSRF header of a signed-in client, for a raw request. */
async function sessionHeaders(client: TestClient): Promise<Record<string, string>> {
  await client.csrf();
  return {
    cookie: [...client.jar].map(([name, value]) => `${name}=${value}`).join('; '),
    'x-xsrf-token': decodeURIComponent(client.jar.get('XSRF-TOKEN')!),
    accept: 'application/json',
  };
}

describe('the Host header', () => {
  it('never reaches a header or an answer: the policy and the config are the same whatever Host says', async () => {
    const baseline = await rawRequest(t.baseUrl, 'GET', '/api/health', {});
    const policy = String(baseline.headers['content-security-policy']);
    expect(policy).toContain(`connect-src 'self' wss://map.example.org`);
    for (const host of HOSTILE_HOSTS) {
      for (const path of PATHS) {
        const res = await rawRequest(t.baseUrl, 'GET', path, { host, 'x-forwarded-host': host });
        const where = `${path} with Host ${host}`;
        expect(res.status, where).toBeLessThan(500);
        expect(headerText(res.headers), where).not.toMatch(/evil|<script>/);
        expect(res.text, where).not.toMatch(/evil|<script>alert/);
        expect(res.headers['content-security-policy'], where).toBe(policy);
      }
    }
  });

  it('leaves the realtime address to the browser for the embedded hub', async () => {
    const res = await rawRequest(t.baseUrl, 'GET', '/api/system/config', { host: 'evil.example:1;script-src *' });
    expect(JSON.parse(res.text).realtime).toMatchObject({ host: null, port: null, scheme: null, force_tls: null });
  });

  it('makes reset links from APP_URL', async () => {
    const user = await t.createUser({ role: 'user' });
    const res = await rawRequest(
      t.baseUrl,
      'POST',
      `/api/users/${user.id}/password-reset-link`,
      { ...(await sessionHeaders(superClient)), host: 'evil.example:1', 'x-forwarded-host': 'evil.example' },
      '',
    );
    expect(res.status, res.text).toBe(200);
    const { link } = JSON.parse(res.text).data;
    expect(link.startsWith(`${APP_URL}/password/update?token=`)).toBe(true);
    expect(new URL(link).searchParams.get('email')).toBe(user.email.toLowerCase());
  });
});

describe('TRUST_PROXY off', () => {
  it('believes no X-Forwarded-Proto: no HSTS, no Secure cookie over plain http', async () => {
    const res = await t.client().get('/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers.get('strict-transport-security')).toBeNull();
    const user = await t.createUser({ role: 'user' });
    const login = await t
      .client()
      .post(
        '/api/auth/login',
        { email: user.email, password: USER_PASSWORD },
        { headers: { 'x-forwarded-proto': 'https' } },
      );
    expect(login.status).toBe(200);
    expect(login.cookies.find((line) => line.startsWith('organizing_map_session='))).not.toMatch(/Secure/i);
  });

  it('believes no X-Forwarded-For: a guesser changing it is still counted at its own address', async () => {
    const user = await t.createUser({ role: 'user' });
    const guess = (i: number) =>
      t
        .client()
        .post(
          '/api/auth/login',
          { email: user.email, password: 'wrong-password' },
          { headers: { 'x-forwarded-for': `198.51.100.${i}` } },
        );
    for (let i = 1; i <= 5; i++) expect((await guess(i)).status, `attempt ${i}`).toBe(422);
    expect((await guess(6)).status).toBe(429);
  });
});

describe('password reset tokens and the log', () => {
  it('says a mail was not sent and how to set SMTP_URL, with no link in it', async () => {
    const user = await t.createUser({ role: 'user' });
    const from = log.length;
    const res = await t.client().post('/api/password/reset', { email: user.email });
    expect(res.status).toBe(200);
    const written = log.slice(from).join('\n');
    expect(written).toMatch(/was not sent: no mail server is set\. Set SMTP_URL/);
    expect(written).toContain(user.email);
    expect(written).not.toMatch(/password\/update/);
    // The token was made and kept (hashed): only the log lacks it.
    const kept = await t.ctx.db
      .selectFrom('password_resets')
      .select('token_hash')
      .where('email', '=', user.email.toLowerCase())
      .execute();
    expect(kept).toHaveLength(1);
  });

  it("an administrator's link works once, voids earlier ones, and its token never reaches the log", async () => {
    const user = await t.createUser({ role: 'user' });
    const make = async () => {
      const res = await superClient.post(`/api/users/${user.id}/password-reset-link`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(new Date(res.body.data.expires_at).getTime()).toBeGreaterThan(Date.now() + 59 * 60_000);
      expect(res.body.message).toMatch(/once, within 60 minutes/);
      return new URL(res.body.data.link).searchParams.get('token')!;
    };
    const earlier = await make();
    const token = await make();
    // Opening the link asks this server for /password/update?token=...: the log keeps the request, not the token.
    await t.client().get(`/password/update?token=${token}&email=${encodeURIComponent(user.email)}`);
    const update = (value: string, password: string) =>
      t.client().post('/api/password/update', {
        token: value,
        email: user.email,
        password,
        password_confirmation: password,
      });
    expect((await update(earlier, 'earlier-link-123')).status).toBe(422);
    expect((await update(token, 'chosen-by-link-456')).status).toBe(200);
    expect((await update(token, 'used-twice-789')).status).toBe(422);
    expect((await t.client().login(user.email, 'chosen-by-link-456')).status).toBe(200);
    const written = log.join('\n');
    expect(written).toContain('Password reset link made');
    expect(written).toContain('token=[redacted]');
    expect(written).not.toContain(token);
    expect(written).not.toContain(earlier);
  });

  it("is refused to those who may not set the person's password, and for accounts above one's own", async () => {
    const target = await t.createUser({ role: 'user' });
    const organizer = await t.signIn((await t.createUser({ role: 'user' })).email);
    expect((await organizer.post(`/api/users/${target.id}/password-reset-link`)).status).toBe(403);
    const leader = await t.signIn((await t.createUser({ role: 'leader' })).email);
    expect((await leader.post(`/api/users/${target.id}/password-reset-link`)).status).toBe(403);
    const admin = await t.signIn((await t.createUser({ role: 'admin' })).email);
    expect((await admin.post(`/api/users/${target.id}/password-reset-link`)).status).toBe(200);
    const superId = (await superClient.get('/api/auth/check')).body.data.id;
    const above = await admin.post(`/api/users/${superId}/password-reset-link`);
    expect(above.status).toBe(403);
    expect(above.body.message).toMatch(/may not make a password reset link for this account/);
    expect((await superClient.post('/api/users/999999/password-reset-link')).status).toBe(404);
    expect((await t.client().post(`/api/users/${target.id}/password-reset-link`)).status).toBe(401);
    // Nobody's token went to the log on the way.
    expect(log.join('\n')).not.toMatch(/password\/update\?token=(?!\[redacted\])/);
  });
});
