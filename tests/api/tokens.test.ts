import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Personal access tokens (src/server/tokens/, docs/api.md "Personal access tokens"): shown once and hashed at rest,
 * `Authorization: Bearer` without CSRF, the person's own access narrowed by the abilities, expiry, revocation by the
 * owner and an administrator, the account routes out of a token's reach, and a rate limit per token.
 */
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  for (const [name, type] of [
    ['Token union site', 'union'],
    ['Token open site', 'non-union'],
  ])
    expect((await admin.post('/api/sites', { name, type })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Makes a token as `owner` (a signed-in client); returns its plain token and row. */
async function makeToken(owner: TestClient, body: Record<string, unknown>) {
  const res = await owner.post('/api/tokens', { name: 'script', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { plain: res.body.plain_text_token as string, row: res.body.data };
}

/** A client with no cookies at all, sending the token: the script's view. */
function script(token: string) {
  const client = t.client();
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: (path: string) => client.get(path, { headers, csrf: false }),
    post: (path: string, body: unknown) => client.post(path, body, { headers, csrf: false }),
    delete: (path: string) => client.delete(path, undefined, { headers, csrf: false }),
  };
}

describe('making and listing tokens', () => {
  it('shows the token once, keeps only its hash, and lists it without it', async () => {
    const { plain, row } = await makeToken(admin, { abilities: ['read'] });
    expect(plain).toMatch(new RegExp(`^${row.id}\\|[A-Za-z0-9_-]{40}$`));
    const secret = plain.split('|')[1];
    const stored = await t.database.db
      .selectFrom('personal_access_tokens')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const listed = await admin.get('/api/tokens');
    expect(listed.status).toBe(200);
    const mine = listed.body.data.find((token: { id: number }) => token.id === row.id);
    expect(mine).toMatchObject({ name: 'script', abilities: ['read'], last_used_at: null });
    expect(JSON.stringify(listed.body)).not.toContain(secret);
  });

  it('refuses bad input with field errors', async () => {
    const past = await admin.post('/api/tokens', { name: 'old', expires_at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(422);
    expect(past.body.errors.expires_at).toBeTruthy();
    const ability = await admin.post('/api/tokens', { name: 'odd', abilities: ['admin'] });
    expect(ability.status).toBe(422);
    const type = await admin.post('/api/tokens', { name: 'odd', abilities: ['read:spaceships'] });
    expect(type.status).toBe(422);
    expect(type.body.errors.abilities[0]).toContain('spaceships');
    expect((await admin.post('/api/tokens', { name: '' })).status).toBe(422);
  });

  it('is made with a CSRF token like any other write of a session', async () => {
    const res = await admin.post('/api/tokens', { name: 'no csrf' }, { csrf: false });
    expect(res.status).toBe(419);
  });
});

describe('requests with a token', () => {
  it('need no CSRF token and act as the person, and record the last use', async () => {
    const { plain, row } = await makeToken(admin, { abilities: ['*'] });
    const api = script(plain);
    const made = await api.post('/api/sites', { name: 'Made by a script', type: 'union' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await api.get('/api/auth/check')).body.data.email).toBe('admin@example.com');
    const listed = (await admin.get('/api/tokens')).body.data.find((token: { id: number }) => token.id === row.id);
    expect(listed.last_used_at).not.toBeNull();
  });

  it('are refused (401) with an unknown, malformed or tampered token, never falling back to a cookie', async () => {
    const { plain } = await makeToken(admin, {});
    for (const bad of [`${plain}x`, 'garbage', '999999|abc', ''])
      expect((await script(bad).get('/api/sites')).status, bad).toBe(401);
    // An administrator's session cookie with a wrong bearer token is still refused.
    expect((await admin.get('/api/sites', { headers: { authorization: 'Bearer 1|nope' } })).status).toBe(401);
  });

  it('read only with `read`', async () => {
    const { plain } = await makeToken(admin, { abilities: ['read'] });
    const api = script(plain);
    expect((await api.get('/api/sites')).status).toBe(200);
    expect((await api.get('/api/contractors')).status).toBe(200);
    const write = await api.post('/api/sites', { name: 'Not allowed', type: 'union' });
    expect(write.status).toBe(403);
    expect(write.body.message).toContain('only read');
  });

  it('reach only the record types they name', async () => {
    const { plain } = await makeToken(admin, { abilities: ['read:sites', 'write:sites'] });
    const api = script(plain);
    expect((await api.get('/api/sites')).status).toBe(200);
    expect((await api.post('/api/sites', { name: 'Per type', type: 'union' })).status).toBe(201);
    expect((await api.get('/api/contractors')).status).toBe(403);
    expect((await api.post('/api/contractors', { name: 'Not mine', type: 'union' })).status).toBe(403);
    expect((await api.get('/api/users')).status).toBe(403);
  });

  it("never reach beyond the person's own access", async () => {
    const assistant = await t.createUser({ role: 'assistant', email: 'token-assistant@example.com' });
    const session = await t.signIn(assistant.email);
    const { plain } = await makeToken(session, { abilities: ['*'] });
    const api = script(plain);
    const bySession = await session.get('/api/sites?per_page=100');
    const byToken = await api.get('/api/sites?per_page=100');
    expect(byToken.status).toBe(200);
    expect(byToken.body.data.map((s: { id: number }) => s.id)).toEqual(
      bySession.body.data.map((s: { id: number }) => s.id),
    );
    expect(byToken.body.data.some((s: { type: string }) => s.type === 'non-union')).toBe(false);
    expect((await api.post('/api/sites', { name: 'Assistant site', type: 'union' })).status).toBe(403);
    expect((await api.get('/api/users')).status).toBe(403);
  });

  it('stay out of the account: tokens, sign-out, passwords, the profile', async () => {
    const { plain } = await makeToken(admin, { abilities: ['*'] });
    const api = script(plain);
    expect((await api.post('/api/tokens', { name: 'wider' })).status).toBe(403);
    expect((await api.get('/api/tokens')).status).toBe(403);
    expect((await api.post('/api/auth/logout', {})).status).toBe(403);
    expect((await api.post('/api/profile', { first_name: 'Scripted' })).status).toBe(403);
    expect((await api.get('/api/auth/check')).status).toBe(200);
  });

  it('stop at their expiry', async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const { plain, row } = await makeToken(admin, { abilities: ['read'], expires_at: soon });
    expect((await script(plain).get('/api/sites')).status).toBe(200);
    await t.database.db
      .updateTable('personal_access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', row.id)
      .execute();
    expect((await script(plain).get('/api/sites')).status).toBe(401);
  });
});

describe('revoking tokens', () => {
  it('by their owner', async () => {
    const { plain, row } = await makeToken(admin, { abilities: ['read'] });
    expect((await script(plain).get('/api/sites')).status).toBe(200);
    expect((await admin.delete(`/api/tokens/${row.id}`)).status).toBe(200);
    expect((await script(plain).get('/api/sites')).status).toBe(401);
    expect((await admin.delete(`/api/tokens/${row.id}`)).status).toBe(404);
  });

  it('by an administrator, and not by another person', async () => {
    const organizer = await t.createUser({ role: 'user', email: 'token-organizer@example.com' });
    const own = await t.signIn(organizer.email);
    const other = await t.signIn((await t.createUser({ role: 'user', email: 'token-other@example.com' })).email);
    const { plain, row } = await makeToken(own, { abilities: ['read'] });
    expect((await other.get(`/api/tokens?user_id=${organizer.id}`)).status).toBe(403);
    expect((await other.delete(`/api/tokens/${row.id}`)).status).toBe(404);
    expect((await script(plain).get('/api/sites')).status).toBe(200);
    const listed = await admin.get(`/api/tokens?user_id=${organizer.id}`);
    expect(listed.body.data.map((token: { id: number }) => token.id)).toEqual([row.id]);
    expect((await admin.delete(`/api/tokens/${row.id}`)).status).toBe(200);
    expect((await script(plain).get('/api/sites')).status).toBe(401);
  });
});

describe('the rate limit', () => {
  let limited: TestApp;
  afterAll(async () => {
    await limited?.close();
  });

  it('answers 429 with Retry-After past TOKEN_RATE_LIMIT a minute, per token', async () => {
    limited = await startTestApp({ TOKEN_RATE_LIMIT: '3' });
    const owner = await limited.admin();
    const made = async () => (await owner.post('/api/tokens', { name: 'busy' })).body.plain_text_token as string;
    const [first, second] = [await made(), await made()];
    const get = (token: string) =>
      limited.client().get('/api/sites', { headers: { authorization: `Bearer ${token}` }, csrf: false });
    for (let i = 0; i < 3; i++) expect((await get(first)).status).toBe(200);
    const refused = await get(first);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await get(second)).status).toBe(200);
    // Sessions are not counted.
    for (let i = 0; i < 5; i++) expect((await owner.get('/api/sites')).status).toBe(200);
  }, 120_000);
});
