import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  cookieAttributes,
  startTestApp,
  type TestApp,
  type TestClient,
} from '../support/test-app.js';

const CSRF_MESSAGE = 'CSRF token mismatch. Refresh the page and try again.';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await startTestApp({ BODY_LIMIT_BYTES: String(64 * 1024) });
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

const teamCount = async (name: string) =>
  (await t.ctx.db.selectFrom('teams').select('id').where('name', '=', name).execute()).length;

describe('CSRF double submit', () => {
  it('GET /sanctum/csrf-cookie answers 204 with a readable XSRF-TOKEN cookie, kept on a second call', async () => {
    const client = t.client();
    const res = await client.csrf();
    expect(res.status).toBe(204);
    const cookie = cookieAttributes(res.cookies, 'XSRF-TOKEN')!;
    expect(cookie).not.toBeNull();
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{20,100}$/);
    expect(cookie).not.toHaveProperty('httponly');
    expect(cookie.samesite).toBe('Lax');
    expect(cookie.path).toBe('/');
    const again = await client.csrf();
    expect(cookieAttributes(again.cookies, 'XSRF-TOKEN')!.value).toBe(cookie.value);
    // A malformed token is not reused: a fresh one replaces it.
    client.jar.set('XSRF-TOKEN', 'bad');
    const fresh = await client.csrf();
    expect(cookieAttributes(fresh.cookies, 'XSRF-TOKEN')!.value).toMatch(/^[A-Za-z0-9_-]{20,100}$/);
  });

  it('a write without the X-XSRF-TOKEN header is 419 and changes nothing; with it, it passes', async () => {
    const without = await admin.post('/api/teams', { name: 'CSRF team' }, { csrf: false });
    expect(without.status).toBe(419);
    expect(without.body).toEqual({ message: CSRF_MESSAGE });
    expect(await teamCount('CSRF team')).toBe(0);

    const withHeader = await admin.post('/api/teams', { name: 'CSRF team' });
    expect(withHeader.status).toBe(201);
    expect(await teamCount('CSRF team')).toBe(1);
  });

  it('refuses every unsafe method without the header, and a header that does not match the cookie', async () => {
    const created = await admin.post('/api/teams', { name: 'CSRF target' });
    const id = created.body.data.id;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await admin.request(
        method,
        `/api/teams/${id}`,
        method === 'DELETE' ? undefined : { name: 'Changed' },
        { csrf: false },
      );
      expect(res.status, method).toBe(419);
      expect(res.body).toEqual({ message: CSRF_MESSAGE });
    }
    const mismatch = await admin.post(
      `/api/teams/${id}`,
      { name: 'Changed' },
      { csrf: false, headers: { 'x-xsrf-token': 'x'.repeat(43) } },
    );
    expect(mismatch.status).toBe(419);
    // A header with no cookie to compare with is refused too.
    const token = admin.jar.get('XSRF-TOKEN')!;
    const noCookie = t.client();
    noCookie.jar.set('organizing_map_session', admin.jar.get('organizing_map_session')!);
    expect(
      (
        await noCookie.post(
          `/api/teams/${id}`,
          { name: 'Changed' },
          { csrf: false, headers: { 'x-xsrf-token': token } },
        )
      ).status,
    ).toBe(419);
    expect((await admin.get(`/api/teams/${id}`)).body.data.name).toBe('CSRF target');
    // Reads need no token.
    expect((await admin.get(`/api/teams/${id}`, { csrf: false })).status).toBe(200);
  });

  it('protects sign-in and sign-out too', async () => {
    const client = t.client();
    const login = await client.post(
      '/api/auth/login',
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      { csrf: false },
    );
    expect(login.status).toBe(419);
    expect(login.cookies.some((c) => c.startsWith('organizing_map_session='))).toBe(false);
    const signedIn = await t.admin();
    expect((await signedIn.post('/api/auth/logout', undefined, { csrf: false })).status).toBe(419);
    expect((await signedIn.get('/api/auth/check')).status).toBe(200);
  });

  it('accepts the header URL-encoded, as the browser client sends the cookie value', async () => {
    const client = t.client();
    client.jar.set('XSRF-TOKEN', 'abc%2Bdef%2Fghi%3D%3D-token-0123456789');
    const res = await client.post(
      '/api/auth/login',
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      { csrf: false, headers: { 'x-xsrf-token': 'abc%2Bdef%2Fghi%3D%3D-token-0123456789' } },
    );
    expect(res.status).toBe(200);
  });
});

describe('error shapes', () => {
  it('401 {message} for a signed-out call to a guarded route, read or write', async () => {
    const client = t.client();
    for (const res of [
      await client.get('/api/users'),
      await client.post('/api/teams', { name: 'x' }),
      await client.get('/api/revisions'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthenticated.' });
    }
    expect(await teamCount('x')).toBe(0);
  });

  it('403 {message} when the role does not allow it', async () => {
    const user = await t.createUser({ role: 'user' });
    const client = await t.signIn(user.email);
    const res = await client.get('/api/roles');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'You do not have permission to read roles.' });
    const write = await client.post('/api/teams', { name: 'Forbidden team' });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ message: 'You do not have permission to create teams.' });
    expect(await teamCount('Forbidden team')).toBe(0);
  });

  it('404 {message} for a missing record', async () => {
    const res = await admin.get('/api/users/999999');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'No user has the id 999999. It may have been deleted.' });
    expect((await admin.post('/api/teams/999999', { name: 'x' })).status).toBe(404);
    expect((await admin.delete('/api/teams/999999')).status).toBe(404);
    expect((await admin.post('/api/teams/999999/restore')).status).toBe(404);
  });

  it('an unknown /api path is a JSON 404, signed in or not, any method', async () => {
    for (const [client, method] of [
      [admin, 'GET'],
      [t.client(), 'GET'],
      [admin, 'POST'],
      [admin, 'DELETE'],
    ] as const) {
      const res = await client.request(method, '/api/no-such-thing/42?x=1');
      expect(res.status, `${method}`).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.body).toEqual({ message: `No route for ${method} /api/no-such-thing/42.` });
    }
    expect((await admin.get('/api/options/no-such-thing')).status).toBe(404);
  });

  it('422 {message, errors: {field: [messages]}} names each invalid field', async () => {
    const res = await admin.post('/api/users', { first_name: '', email: 'not-an-email', role_id: 'abc' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      email: ['The email must be a valid email address.'],
      role_id: ['The role must be a whole number.'],
      first_name: ['The first name field is required.'],
    });
    expect(res.body.message).toBe('The email must be a valid email address. (and 2 more errors)');
  });

  it('429 {message} with Retry-After when throttled', async () => {
    const user = await t.createUser({ role: 'user' });
    for (let i = 0; i < 5; i++) await t.client().login(user.email, 'wrong-password');
    const res = await t.client().login(user.email, 'wrong-password');
    expect(res.status).toBe(429);
    expect(Object.keys(res.body)).toEqual(['message']);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('bad input is a clear 4xx, never a 500', () => {
  it('malformed, empty and prototype-polluting JSON bodies are 400', async () => {
    for (const raw of [
      '{"name": ',
      '',
      '{"name": "x", "__proto__": {"admin": true}}',
      '{"constructor": {"prototype": {"admin": true}}}',
    ]) {
      const res = await admin.post('/api/teams', undefined, { raw });
      expect(res.status, raw).toBe(400);
      expect(res.body).toEqual({ message: 'The request body is not valid JSON. Check its syntax and send it again.' });
    }
  });

  it('a JSON body that is not an object is 422', async () => {
    for (const raw of ['null', '"text"', '[1, 2]', '42']) {
      const res = await admin.post('/api/teams', undefined, { raw });
      expect(res.status, raw).toBe(422);
      expect(res.body.errors).toEqual({ body: ['Send the record as a JSON object.'] });
    }
    const login = await t.client().post('/api/auth/login', undefined, { raw: '[]' });
    expect(login.status).toBe(422);
  });

  it('an unsupported content type is 415', async () => {
    const res = await admin.post('/api/teams', undefined, {
      raw: '<team/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: 'Send the request as JSON (Content-Type: application/json).' });
  });

  it('an oversized body is 422 naming the limit', async () => {
    const res = await admin.post('/api/teams', { name: 'big', description: 'x'.repeat(100 * 1024) });
    expect(res.status).toBe(422);
    const limit = `${Math.round((t.config.limits.bodyBytes / 1_024) * 10) / 10} KB`;
    const message = `The request is larger than ${limit}; the most one request may carry is ${limit}. Send less at a time.`;
    expect(res.body).toEqual({ message, errors: { body: [message] } });
    expect(await teamCount('big')).toBe(0);
  });

  it('wrong types are 422 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: 123 }, 'name', 'The name must be text.'],
      [{ name: { nested: true } }, 'name', 'The name must be text.'],
      [{ name: 'ok', color: 'red' }, 'color', 'The color must be a colour like #1e88e5.'],
      [{ name: 'ok', user_ids: 'all' }, 'user_ids', 'The members must be a list of ids.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await admin.post('/api/teams', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[field]).toEqual([message]);
    }
    const role = await admin.post('/api/roles', { slug: 'typed', name: 'Typed', permissions: 'site:read' });
    expect(role.status).toBe(422);
    expect(role.body.errors.permissions).toEqual(['Permissions must be a list like "site:read" or "site:read:union".']);
  });

  it('unknown fields are 422 naming them, so a typo never drops data silently', async () => {
    const res = await admin.post('/api/teams', { name: 'Typo team', descripton: 'misspelt' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ descripton: ['The field "descripton" is not known for this record type.'] });
    expect(await teamCount('Typo team')).toBe(0);
    // Read-only keys echoed back by a client are ignored, not refused.
    const echoed = await admin.post('/api/teams', { name: 'Echo team', id: 999, created_at: 'whenever' });
    expect(echoed.status).toBe(201);
    expect(echoed.body.data.id).not.toBe(999);
  });

  it('over-long strings are 422 with the limit in the message', async () => {
    const tooLong = await admin.post('/api/users', {
      first_name: 'x'.repeat(101),
      email: 'long@example.com',
      password: 'password-123',
      role_id: await t.roleId('user'),
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toEqual({ first_name: ['The first name may not be longer than 100 characters.'] });
    const description = await admin.post('/api/teams', { name: 'ok', description: 'y'.repeat(2_001) });
    expect(description.status).toBe(422);
    expect(description.body.errors.description).toEqual(['The description may not be longer than 2000 characters.']);
    const password = await t.client().post('/api/auth/login', { email: ADMIN_EMAIL, password: 'p'.repeat(201) });
    expect(password.status).toBe(422);
    expect(password.body.errors).toHaveProperty('password');
    const search = await admin.get(`/api/users?search=${'s'.repeat(201)}`);
    expect(search.status).toBe(422);
    expect(search.body.errors.search).toEqual(['The search may not be longer than 200 characters.']);
  });

  it('values the database cannot hold are 422, not 500', async () => {
    const nul = await admin.post('/api/teams', { name: 'nul\u0000byte' });
    expect(nul.status).toBe(422);
    expect(nul.body.message).toMatch(/^The request holds a value that cannot be used/);
    const hugeId = await admin.post('/api/teams', { name: 'Huge ids', user_ids: [99_999_999_999] });
    expect(hugeId.status).toBe(422);
    const missingMember = await admin.post('/api/teams', { name: 'Ghost members', user_ids: [424_242] });
    expect(missingMember.status).toBe(422);
    expect(missingMember.body.errors).toEqual({ user_id: ['No record in users has the id 424242.'] });
    expect(await teamCount('Ghost members')).toBe(0);
    expect((await admin.post('/api/auth/impersonate/99999999999')).status).toBeLessThan(500);
  });

  it('bad list parameters are 422 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['per_page=0', 'per_page'],
      ['per_page=5000', 'per_page'],
      ['per_page=abc', 'per_page'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['order=sideways', 'order'],
      ['sort=no_such_column', 'sort'],
      ['sort=password', 'sort'],
      ['filter={not json', 'filter'],
      ['filter[no_such_field]=1', 'filter'],
      ['filter[password]=x', 'filter'],
      ['filter[role_id]=abc', 'filter'],
      ['filter[created_at_gte]=not-a-date', 'filter'],
    ];
    for (const [query, field] of cases) {
      const res = await admin.get(`/api/users?${query}`);
      expect(res.status, query).toBe(422);
      expect(Object.keys(res.body.errors), query).toContain(field);
      expect(res.body.message, query).toEqual(expect.any(String));
    }
    for (const query of [
      'filter[role_id]=99999999999',
      'filter[id]=1e20',
      'filter[created_at_gte]=0000-01-01',
      'filter[team_ids]=99999999999',
    ]) {
      const res = await admin.get(`/api/users?${query}`);
      expect(res.status, query).toBe(422);
    }
    expect((await admin.get('/api/revisions?revisionable_id=99999999999')).status).toBe(422);
    expect((await admin.get('/api/revisions?per_page=abc')).status).toBe(422);
    expect((await admin.get('/api/options/users?ids=99999999999')).status).toBe(422);
  });

  it('a bad id in the path is a 4xx', async () => {
    for (const id of ['abc', '0', '-1', '99999999999', '1.5']) {
      const res = await admin.get(`/api/users/${id}`);
      expect(res.status, id).toBeGreaterThanOrEqual(400);
      expect(res.status, id).toBeLessThan(500);
      expect(res.body.message).toEqual(expect.any(String));
    }
  });
});
