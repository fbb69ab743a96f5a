import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  cookieAttributes,
  startTestApp,
  type TestApp,
  type TestClient,
  USER_PASSWORD,
} from '../support/test-app.js';

const SESSION = 'organizing_map_session';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A client holding a copy of another client's cookies (a stolen or replayed cookie). */
function replay(from: TestClient): TestClient {
  const copy = t.client();
  for (const [name, value] of from.jar) copy.jar.set(name, value);
  return copy;
}

async function sessionRows(userId: number) {
  return t.ctx.db.selectFrom('sessions').selectAll().where('user_id', '=', userId).execute();
}

describe('sign-in', () => {
  it('answers the signed-in user in the documented shape, without secrets', async () => {
    const client = t.client();
    const res = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(res.status).toBe(200);
    const user = res.body.data;
    expect(user).toMatchObject({
      id: expect.any(Number),
      first_name: 'Admin',
      last_name: 'Administrator',
      name: 'Admin Administrator',
      email: ADMIN_EMAIL,
      role: { id: expect.any(Number), slug: 'super', name: 'Super Administrator', incognito: true },
      role_id: await t.roleId('super'),
      team_id: null,
      team_ids: [],
      realtime_key: expect.stringMatching(/^[0-9a-f]{32}$/),
      incognito: true,
      impersonator: null,
    });
    expect(user.permissions).toEqual(expect.arrayContaining(['user:impersonate', 'user:read', 'site:read:union']));
    expect(user).not.toHaveProperty('password');
    expect(JSON.stringify(res.body)).not.toContain('$argon2');

    const check = await client.get('/api/auth/check');
    expect(check.status).toBe(200);
    expect(check.body.data).toEqual(user);
    const row = await t.ctx.db
      .selectFrom('users')
      .select('last_login_at')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Date.now() - new Date(row.last_login_at!).getTime()).toBeLessThan(60_000);
  });

  it('matches the email without regard to case and surrounding spaces', async () => {
    const res = await t.client().login('  ADMIN@Example.COM ', ADMIN_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.data.email).toBe(ADMIN_EMAIL);
  });

  it('refuses a wrong password and an unknown address with the same 422', async () => {
    const wrong = await t.client().login(ADMIN_EMAIL, 'not-the-password');
    const unknown = await t.client().login('nobody-here@example.com', 'not-the-password');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: 'These credentials do not match our records.',
        errors: { email: ['These credentials do not match our records.'] },
      });
      expect(res.cookies.some((c) => c.startsWith(`${SESSION}=`))).toBe(false);
    }
    await t.ctx.throttle.clear(`${ADMIN_EMAIL}|127.0.0.1`);
  });

  it('answers 422 naming each field for a missing or badly typed payload', async () => {
    const client = t.client();
    const empty = await client.post('/api/auth/login', {});
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors).sort()).toEqual(['email', 'password']);
    const typed = await client.post('/api/auth/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      remember: 'yes',
    });
    expect(typed.status).toBe(422);
    expect(Object.keys(typed.body.errors)).toEqual(['remember']);
    const bad = await client.post('/api/auth/login', { email: 'not-an-email', password: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.email).toEqual(['Enter a valid email address.']);
    const extra = await client.post('/api/auth/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, role: 'super' });
    expect(extra.status).toBe(422);
    expect(extra.body.errors.role).toEqual(['The field "role" is not known here.']);
    expect((await client.get('/api/auth/check')).status).toBe(401);
  });

  it('GET /api/auth/check is 401 {message} when signed out', async () => {
    const res = await t.client().get('/api/auth/check');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Unauthenticated.' });
  });
});

describe('session cookie', () => {
  it('is httpOnly, SameSite=Lax, path /, not Secure over http, and a browser-session cookie without remember', async () => {
    const res = await t.client().login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const cookie = cookieAttributes(res.cookies, SESSION)!;
    expect(cookie).not.toBeNull();
    expect(cookie.httponly).toBe('true');
    expect(cookie.samesite).toBe('Lax');
    expect(cookie.path).toBe('/');
    expect(cookie).not.toHaveProperty('secure');
    expect(cookie).not.toHaveProperty('max-age');
    expect(cookie).not.toHaveProperty('expires');
  });

  it('with remember lasts REMEMBER_DAYS (30) and is marked remember in the database', async () => {
    const client = t.client();
    const res = await client.login(ADMIN_EMAIL, ADMIN_PASSWORD, true);
    expect(res.status).toBe(200);
    const cookie = cookieAttributes(res.cookies, SESSION)!;
    expect(cookie.httponly).toBe('true');
    expect(cookie.samesite).toBe('Lax');
    expect(Number(cookie['max-age'])).toBe(30 * 86_400);
    const row = await t.ctx.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', sha256(client.jar.get(SESSION)!))
      .executeTakeFirstOrThrow();
    expect(row.remember).toBe(true);
    expect(new Date(row.expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
  });

  it('keeps only a hash of the token in the database', async () => {
    const client = await t.admin();
    const token = client.jar.get(SESSION)!;
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect(
      await t.ctx.db.selectFrom('sessions').select('id').where('id', '=', token).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await t.ctx.db.selectFrom('sessions').select('id').where('id', '=', sha256(token)).executeTakeFirst(),
    ).toBeDefined();
  });

  it('gets a new id at every sign-in: a planted or earlier token is worthless afterwards', async () => {
    const client = t.client();
    client.jar.set(SESSION, 'planted-by-an-attacker-0123456789abcdef');
    await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const first = client.jar.get(SESSION)!;
    expect(first).not.toBe('planted-by-an-attacker-0123456789abcdef');
    const before = replay(client);
    expect((await before.get('/api/auth/check')).status).toBe(200);

    await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const second = client.jar.get(SESSION)!;
    expect(second).not.toBe(first);
    expect((await client.get('/api/auth/check')).status).toBe(200);
    expect((await before.get('/api/auth/check')).status).toBe(401);
  });

  it('ends a session idle longer than SESSION_IDLE_MINUTES and deletes its row', async () => {
    const user = await t.createUser({ role: 'user' });
    const client = await t.signIn(user.email);
    const id = sha256(client.jar.get(SESSION)!);
    await t.ctx.db
      .updateTable('sessions')
      .set({ last_activity_at: sql`now() - interval '31 minutes'` })
      .where('id', '=', id)
      .execute();
    const res = await client.get('/api/auth/check');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Unauthenticated.' });
    expect(await t.ctx.db.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
  });

  it('keeps a session active within the idle time and records the activity', async () => {
    const user = await t.createUser({ role: 'user' });
    const client = await t.signIn(user.email);
    const id = sha256(client.jar.get(SESSION)!);
    await t.ctx.db
      .updateTable('sessions')
      .set({ last_activity_at: sql`now() - interval '20 minutes'` })
      .where('id', '=', id)
      .execute();
    expect((await client.get('/api/auth/check')).status).toBe(200);
    const row = await t.ctx.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(Date.now() - new Date(row.last_activity_at).getTime()).toBeLessThan(60_000);
    // The next 20 minutes of quiet are measured from that touch, so the session lives on.
    expect(new Date(row.expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
  });

  it('outlives the idle time when signed in with remember', async () => {
    const user = await t.createUser({ role: 'user' });
    const client = await t.signIn(user.email, USER_PASSWORD, true);
    const id = sha256(client.jar.get(SESSION)!);
    await t.ctx.db
      .updateTable('sessions')
      .set({ last_activity_at: sql`now() - interval '5 hours'` })
      .where('id', '=', id)
      .execute();
    const res = await client.get('/api/auth/check');
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(user.id);
  });

  it('ends even a remembered session once it has expired', async () => {
    const user = await t.createUser({ role: 'user' });
    const client = await t.signIn(user.email, USER_PASSWORD, true);
    const id = sha256(client.jar.get(SESSION)!);
    await t.ctx.db
      .updateTable('sessions')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('id', '=', id)
      .execute();
    expect((await client.get('/api/auth/check')).status).toBe(401);
  });
});

describe('logout', () => {
  it('answers 204, clears the cookie and ends the session on the server', async () => {
    const user = await t.createUser({ role: 'leader' });
    const client = await t.signIn(user.email);
    const stolen = replay(client);
    const res = await client.post('/api/auth/logout');
    expect(res.status).toBe(204);
    const cleared = cookieAttributes(res.cookies, SESSION)!;
    expect(cleared).not.toBeNull();
    expect(cleared.value).toBe('');
    expect((await client.get('/api/auth/check')).status).toBe(401);
    // Replaying the old cookie does not bring the session back.
    expect((await stolen.get('/api/auth/check')).status).toBe(401);
    expect(await sessionRows(user.id)).toHaveLength(0);
  });

  it('is harmless when signed out', async () => {
    expect((await t.client().post('/api/auth/logout')).status).toBe(204);
  });
});

describe('throttling', () => {
  it('answers 429 with Retry-After after LOGIN_MAX_ATTEMPTS (5) failures, even for the right password', async () => {
    const user = await t.createUser({ role: 'user' });
    const client = t.client();
    for (let i = 0; i < 5; i++) expect((await client.login(user.email, `wrong-${i}`)).status).toBe(422);
    const blocked = await client.login(user.email, USER_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many sign-in attempts\. Please try again in \d+ seconds?\.$/);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(blocked.cookies.some((c) => c.startsWith(`${SESSION}=`))).toBe(false);

    // Other accounts from the same address are not locked out.
    expect((await t.client().login(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);

    // Once the decay time has passed the right password works again, and the count starts over.
    await t.ctx.db
      .updateTable('login_attempts')
      .set({ reset_at: sql`now() - interval '1 second'` })
      .where('key', 'like', `${user.email}|%`)
      .execute();
    expect((await client.login(user.email, USER_PASSWORD)).status).toBe(200);
    expect(
      await t.ctx.db.selectFrom('login_attempts').selectAll().where('key', 'like', `${user.email}|%`).execute(),
    ).toHaveLength(0);
  });

  it('resets the count after a successful sign-in', async () => {
    const user = await t.createUser({ role: 'user' });
    const client = t.client();
    for (let i = 0; i < 4; i++) expect((await client.login(user.email, 'wrong')).status).toBe(422);
    expect((await client.login(user.email, USER_PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await client.login(user.email, 'wrong')).status).toBe(422);
    expect((await client.login(user.email, USER_PASSWORD)).status).toBe(200);
  });
});

describe('password reset and update', () => {
  const RESET_MESSAGE = 'If that address has an account, we have emailed a link to reset the password.';

  function linkOf(mailIndex: number) {
    const mail = t.mails[mailIndex];
    const match = /(http\S+\/password\/update\?\S+)/.exec(mail.text);
    expect(match, `a reset link in: ${mail.text}`).not.toBeNull();
    const url = new URL(match![1]);
    return { url, token: url.searchParams.get('token')!, email: url.searchParams.get('email')! };
  }

  async function requestReset(email: string) {
    const before = t.mails.length;
    const res = await t.client().post('/api/password/reset', { email });
    return { res, mailIndex: t.mails.length > before ? before : -1 };
  }

  it('answers the same for an unknown address and sends nothing', async () => {
    const user = await t.createUser({ role: 'user' });
    const unknown = await requestReset('nobody-at-all@example.com');
    const known = await requestReset(user.email);
    expect(unknown.res.status).toBe(200);
    expect(known.res.status).toBe(200);
    expect(unknown.res.body).toEqual({ message: RESET_MESSAGE });
    expect(known.res.body).toEqual(unknown.res.body);
    expect(unknown.mailIndex).toBe(-1);
    expect(known.mailIndex).toBeGreaterThanOrEqual(0);
    const mail = t.mails[known.mailIndex];
    expect(mail.to).toBe(user.email);
    expect(mail.subject).toContain('Reset your');
    const { url, token, email } = linkOf(known.mailIndex);
    // Made from APP_URL (its default here), never from the request's address.
    expect(url.origin).toBe(t.config.appUrl);
    expect(email).toBe(user.email);
    // Only a hash of the token is stored.
    const rows = await t.ctx.db.selectFrom('password_resets').selectAll().where('email', '=', user.email).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(sha256(token));
  });

  it('sets the new password once, ends the old sessions, and refuses the reused token', async () => {
    const user = await t.createUser({ role: 'user' });
    const signedIn = await t.signIn(user.email);
    const { mailIndex } = await requestReset(user.email);
    const { token, email } = linkOf(mailIndex);
    const client = t.client();
    const body = { token, email, password: 'brand-new-password', password_confirmation: 'brand-new-password' };
    const res = await client.post('/api/password/update', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Your password has been reset. Sign in with your new password.' });

    expect((await signedIn.get('/api/auth/check')).status).toBe(401);
    expect((await t.client().login(user.email, USER_PASSWORD)).status).toBe(422);
    expect((await t.client().login(user.email, 'brand-new-password')).status).toBe(200);

    const reused = await client.post('/api/password/update', {
      ...body,
      password: 'another-password-1',
      password_confirmation: 'another-password-1',
    });
    expect(reused.status).toBe(422);
    expect(reused.body.errors).toEqual({
      token: ['This password reset link is invalid or has expired. Ask for a new one.'],
    });
    expect((await t.client().login(user.email, 'another-password-1')).status).toBe(422);

    // The change is a write like any other: a revision, with the password masked.
    const revision = await t.ctx.db
      .selectFrom('revisions')
      .selectAll()
      .where('revisionable_type', '=', 'user')
      .where('revisionable_id', '=', user.id)
      .where('action', '=', 'updated')
      .executeTakeFirstOrThrow();
    expect(revision.changes).toEqual({ password: ['••••', '••••'] });
  });

  it('refuses an expired token (older than 60 minutes)', async () => {
    const user = await t.createUser({ role: 'user' });
    const { mailIndex } = await requestReset(user.email);
    const { token, email } = linkOf(mailIndex);
    await t.ctx.db
      .updateTable('password_resets')
      .set({ created_at: sql`now() - interval '61 minutes'` })
      .where('token_hash', '=', sha256(token))
      .execute();
    const res = await t.client().post('/api/password/update', {
      token,
      email,
      password: 'brand-new-password',
      password_confirmation: 'brand-new-password',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.token).toEqual(['This password reset link is invalid or has expired. Ask for a new one.']);
    expect((await t.client().login(user.email, USER_PASSWORD)).status).toBe(200);
  });

  it('refuses a token sent with another address, a made-up token, and bad new passwords', async () => {
    const user = await t.createUser({ role: 'user' });
    const other = await t.createUser({ role: 'user' });
    const { mailIndex } = await requestReset(user.email);
    const { token } = linkOf(mailIndex);
    const client = t.client();
    const good = {
      token,
      email: user.email,
      password: 'brand-new-password',
      password_confirmation: 'brand-new-password',
    };

    const wrongEmail = await client.post('/api/password/update', { ...good, email: other.email });
    expect(wrongEmail.status).toBe(422);
    expect(wrongEmail.body.errors).toHaveProperty('token');
    const madeUp = await client.post('/api/password/update', { ...good, token: 'x'.repeat(43) });
    expect(madeUp.status).toBe(422);
    expect(madeUp.body.errors).toHaveProperty('token');
    const mismatch = await client.post('/api/password/update', { ...good, password_confirmation: 'something-else' });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual({ password_confirmation: ['The password confirmation does not match.'] });
    const short = await client.post('/api/password/update', {
      ...good,
      password: 'short',
      password_confirmation: 'short',
    });
    expect(short.status).toBe(422);
    expect(short.body.errors.password).toEqual(['The password must be at least 8 characters.']);

    // None of those used the token up.
    expect((await client.post('/api/password/update', good)).status).toBe(200);
    expect((await t.client().login(other.email, USER_PASSWORD)).status).toBe(200);
  });

  it('throttles reset requests for one address', async () => {
    const user = await t.createUser({ role: 'user' });
    for (let i = 0; i < 5; i++)
      expect((await t.client().post('/api/password/reset', { email: user.email })).status).toBe(200);
    const blocked = await t.client().post('/api/password/reset', { email: user.email });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(t.mails.filter((m) => m.to === user.email)).toHaveLength(5);
  });

  it('answers 422 for a badly formed address', async () => {
    const res = await t.client().post('/api/password/reset', { email: 'not an email' });
    expect(res.status).toBe(422);
    expect(res.body.errors.email).toEqual(['Enter a valid email address.']);
  });
});

describe('profile', () => {
  it('updates names, and changes the password only with the current one, keeping this session only', async () => {
    const user = await t.createUser({ role: 'user' });
    const client = await t.signIn(user.email);
    const elsewhere = await t.signIn(user.email);

    const renamed = await client.post('/api/profile', { first_name: 'Renamed', last_name: 'Person' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.message).toBe('Settings updated successfully.');
    expect(renamed.body.data).toMatchObject({ id: user.id, first_name: 'Renamed', name: 'Renamed Person' });

    const noCurrent = await client.post('/api/profile', {
      password: 'changed-password',
      password_confirmation: 'changed-password',
    });
    expect(noCurrent.status).toBe(422);
    expect(noCurrent.body.errors).toEqual({ current_password: ['The current password is incorrect.'] });

    const changed = await client.post('/api/profile', {
      password: 'changed-password',
      password_confirmation: 'changed-password',
      current_password: USER_PASSWORD,
    });
    expect(changed.status).toBe(200);
    expect((await client.get('/api/auth/check')).status).toBe(200);
    expect((await elsewhere.get('/api/auth/check')).status).toBe(401);
    expect((await t.client().login(user.email, 'changed-password')).status).toBe(200);
  });

  it("keeps a person's screen preferences with them: set, read back at another sign-in, removed with null; hidden from user lists", async () => {
    const user = await t.createUser({ role: 'user' });
    const client = await t.signIn(user.email);
    const columns = { visible: ['name', 'city'], widths: { name: 240 }, density: 'compact' };
    const saved = await client.post('/api/profile/preferences', { key: 'grid:sites', value: columns });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ 'grid:sites': columns });
    const elsewhere = await t.signIn(user.email);
    expect((await elsewhere.get('/api/auth/check')).body.data.preferences).toEqual({ 'grid:sites': columns });
    expect((await client.post('/api/profile/preferences', { key: 'bad key!', value: 1 })).status).toBe(422);
    const admin = await t.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect((await admin.get(`/api/users/${user.id}`)).body.data).not.toHaveProperty('preferences');
    await client.post('/api/profile/preferences', { key: 'grid:sites', value: null });
    expect((await elsewhere.get('/api/auth/check')).body.data.preferences).toEqual({});
  });
});

describe('impersonation', () => {
  it('needs user:impersonate (admin lacks it, super has it)', async () => {
    const target = await t.createUser({ role: 'user' });
    const adminUser = await t.createUser({ role: 'admin' });
    const admin = await t.signIn(adminUser.email);
    const res = await admin.post(`/api/auth/impersonate/${target.id}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'You do not have permission to impersonate users.' });
    expect((await admin.get('/api/auth/check')).body.data.id).toBe(adminUser.id);
  });

  it('signs the super administrator in as someone else and leave returns to themself', async () => {
    const target = await t.createUser({ role: 'user', first_name: 'Imp', last_name: 'Target' });
    const superClient = await t.admin();
    const me = (await superClient.get('/api/auth/check')).body.data;
    const tokenBefore = superClient.jar.get(SESSION);

    const res = await superClient.post(`/api/auth/impersonate/${target.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: target.id,
      name: 'Imp Target',
      role: { slug: 'user' },
      impersonator: { id: me.id, name: me.name },
    });
    expect(superClient.jar.get(SESSION)).not.toBe(tokenBefore);
    const check = await superClient.get('/api/auth/check');
    expect(check.body.data).toMatchObject({ id: target.id, impersonator: { id: me.id } });
    // Acting as the target means the target's permissions.
    expect((await superClient.get('/api/roles')).status).toBe(403);
    // No impersonation inside an impersonation.
    const nested = await superClient.post(`/api/auth/impersonate/${me.id}`);
    expect(nested.status).toBe(400);
    expect(nested.body.message).toBe('Return to your own account before impersonating someone else.');

    const leave = await superClient.post('/api/auth/impersonate/leave');
    expect(leave.status).toBe(200);
    expect(leave.body.data).toMatchObject({ id: me.id, impersonator: null, role: { slug: 'super' } });
    expect((await superClient.get('/api/auth/check')).body.data).toMatchObject({ id: me.id, impersonator: null });
    expect((await superClient.get('/api/roles')).status).toBe(200);
  });

  it('records writes made while impersonating under the impersonator', async () => {
    const target = await t.createUser({ role: 'admin' });
    const superClient = await t.admin();
    const me = (await superClient.get('/api/auth/check')).body.data;
    expect((await superClient.post(`/api/auth/impersonate/${target.id}`)).status).toBe(200);
    const created = await superClient.post('/api/teams', { name: 'Made while impersonating' });
    expect(created.status).toBe(201);
    const revision = await t.ctx.db
      .selectFrom('revisions')
      .selectAll()
      .where('revisionable_type', '=', 'team')
      .where('revisionable_id', '=', created.body.data.id)
      .executeTakeFirstOrThrow();
    expect(revision.user_id).toBe(me.id);
    expect((await superClient.post('/api/auth/impersonate/leave')).status).toBe(200);
  });

  it('refuses leave without impersonation, oneself, unknown ids and signed-out callers', async () => {
    const superClient = await t.admin();
    const me = (await superClient.get('/api/auth/check')).body.data;
    const leave = await superClient.post('/api/auth/impersonate/leave');
    expect(leave.status).toBe(400);
    expect(leave.body.message).toBe('You are not impersonating anyone.');
    expect((await superClient.post(`/api/auth/impersonate/${me.id}`)).status).toBe(400);
    const missing = await superClient.post('/api/auth/impersonate/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('No user has that id.');
    expect((await superClient.post('/api/auth/impersonate/abc')).status).toBe(404);
    expect((await t.client().post('/api/auth/impersonate/1')).status).toBe(401);
  });
});

describe('registration', () => {
  it('is 404 while REGISTRATION_ENABLED is off', async () => {
    const res = await t.client().post('/api/auth/register', {
      first_name: 'New',
      last_name: 'Person',
      email: 'new@example.com',
      password: 'password-123',
      password_confirmation: 'password-123',
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Registration is turned off. Ask an administrator for an account.' });
    expect(
      await t.ctx.db.selectFrom('users').select('id').where('email', '=', 'new@example.com').executeTakeFirst(),
    ).toBeUndefined();
  });

  describe('with REGISTRATION_ENABLED=1', () => {
    let open: TestApp;
    beforeAll(async () => {
      open = await startTestApp({ REGISTRATION_ENABLED: '1' });
    });
    afterAll(async () => {
      await open?.close();
    });

    it('creates a user with the user role, signs them in, and says so in the config', async () => {
      expect((await open.client().get('/api/system/config')).body.registration_enabled).toBe(true);
      const client = open.client();
      const res = await client.post('/api/auth/register', {
        first_name: 'New',
        last_name: 'Person',
        email: 'New@Example.com',
        password: 'password-123',
        password_confirmation: 'password-123',
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        first_name: 'New',
        last_name: 'Person',
        email: 'new@example.com',
        role: { slug: 'user' },
        impersonator: null,
      });
      expect(cookieAttributes(res.cookies, SESSION)?.httponly).toBe('true');
      expect((await client.get('/api/auth/check')).body.data.id).toBe(res.body.data.id);
      expect((await open.client().login('new@example.com', 'password-123')).status).toBe(200);
      const revision = await open.ctx.db
        .selectFrom('revisions')
        .selectAll()
        .where('revisionable_type', '=', 'user')
        .where('revisionable_id', '=', res.body.data.id)
        .executeTakeFirstOrThrow();
      expect(revision.action).toBe('created');
    });

    it('refuses a taken address, a mismatched confirmation and a short password', async () => {
      const client = open.client();
      const base = {
        first_name: 'Again',
        last_name: 'Person',
        password: 'password-123',
        password_confirmation: 'password-123',
      };
      const taken = await client.post('/api/auth/register', { ...base, email: ADMIN_EMAIL });
      expect(taken.status).toBe(422);
      expect(taken.body.errors).toEqual({ email: ['The email has already been taken.'] });
      const mismatch = await client.post('/api/auth/register', {
        ...base,
        email: 'x1@example.com',
        password_confirmation: 'nope-nope-nope',
      });
      expect(mismatch.status).toBe(422);
      expect(mismatch.body.errors).toEqual({ password_confirmation: ['The password confirmation does not match.'] });
      const short = await client.post('/api/auth/register', {
        ...base,
        email: 'x2@example.com',
        password: 'short',
        password_confirmation: 'short',
      });
      expect(short.status).toBe(422);
      expect(short.body.errors.password).toEqual(['The password must be at least 8 characters.']);
      const injected = await client.post('/api/auth/register', { ...base, email: 'x3@example.com', role_id: 1 });
      expect(injected.status).toBe(422);
      expect(injected.body.errors.role_id).toEqual(['The field "role_id" is not known here.']);
      expect((await client.get('/api/auth/check')).status).toBe(401);
    });
  });
});
