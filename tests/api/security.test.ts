import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionStore } from '../../src/server/auth/sessions.js';
import { clientDir } from '../../src/server/system/static-client.js';
import { runImport } from '../fixtures/upload.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  startTestApp,
  type TestApp,
  type TestClient,
  USER_PASSWORD,
} from '../support/test-app.js';

/**
 * The holes found from outside (issue 12), each closed where it lives: who may manage whom, sessions and their
 * CSRF tokens, reset links, throttling per address, refused uploads on a kept-alive connection, unknown list
 * parameters, renamed reference records in imports, the site export's header. docs/security.md.
 */
const SESSION = 'organizing_map_session';

let t: TestApp;
let superClient: TestClient;
beforeAll(async () => {
  // Behind a proxy, so each test can come from an address of its own (X-Forwarded-For) for the throttle.
  t = await startTestApp({ TRUST_PROXY: '1' });
  superClient = await t.admin();
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const me = async (client: TestClient) => (await client.get('/api/auth/check')).body.data;
let addressCount = 0;
/** A client whose requests come from an address of its own. */
function fromOwnAddress(): TestClient {
  const client = t.client();
  const address = `203.0.113.${++addressCount}`;
  const request = client.request.bind(client);
  client.request = (method, path, body, options = {}) =>
    request(method, path, body, { ...options, headers: { 'x-forwarded-for': address, ...options.headers } });
  return client;
}

describe('who may manage whom', () => {
  let admin: TestClient;
  let adminUser: Record<string, any>;
  let superUser: Record<string, any>;
  beforeAll(async () => {
    adminUser = await t.createUser({ role: 'admin', email: 'escalating-admin@example.com' });
    admin = await t.signIn(adminUser.email);
    superUser = await t.createUser({ role: 'super', email: 'another-super@example.com' });
  });

  it('an administrator cannot make themselves super administrator, nor change their own role at all', async () => {
    const res = await admin.post(`/api/users/${adminUser.id}`, { role_id: await t.roleId('super') });
    expect(res.status).toBe(403);
    const lower = await admin.post(`/api/users/${adminUser.id}`, { role_id: await t.roleId('user') });
    expect(lower.status).toBe(403);
    expect(lower.body.message).toBe('You may not change your own role.');
    expect((await me(admin)).role.slug).toBe('admin');
    // Sending one's own role back unchanged (as the edit form does) is fine.
    expect(
      (await admin.post(`/api/users/${adminUser.id}`, { role_id: await t.roleId('admin'), last_name: 'Kept' })).status,
    ).toBe(200);
  });

  it('nobody gives a role holding permissions they lack', async () => {
    const target = await t.createUser({ role: 'user' });
    const promoted = await admin.post(`/api/users/${target.id}`, { role_id: await t.roleId('super') });
    expect(promoted.status).toBe(403);
    expect(promoted.body.message).toMatch(/^You may not give this role: it holds permissions you do not \(/);
    const created = await admin.post('/api/users', {
      first_name: 'New',
      last_name: 'Super',
      email: 'new-super@example.com',
      password: 'password-123',
      role_id: await t.roleId('super'),
    });
    expect(created.status).toBe(403);
    expect(
      await t.ctx.db.selectFrom('users').select('id').where('email', '=', 'new-super@example.com').executeTakeFirst(),
    ).toBeUndefined();
    // A role within one's own is fine.
    expect((await admin.post(`/api/users/${target.id}`, { role_id: await t.roleId('leader') })).status).toBe(200);
    // The super administrator holds every permission, so may give any role.
    expect((await superClient.post(`/api/users/${target.id}`, { role_id: await t.roleId('super') })).status).toBe(200);
  });

  it('only a super administrator manages super administrator accounts: password, role, delete, restore', async () => {
    const password = await admin.post(`/api/users/${superUser.id}`, { password: 'taken-over-123' });
    expect(password.status).toBe(403);
    expect((await t.client().login(superUser.email, 'taken-over-123')).status).toBe(422);
    expect((await admin.post(`/api/users/${superUser.id}`, { role_id: await t.roleId('user') })).status).toBe(403);
    expect((await admin.post(`/api/users/${superUser.id}/goals`, { calls: 3 })).status).toBe(403);
    expect((await admin.delete(`/api/users/${superUser.id}`)).status).toBe(403);
    const deleted = await t.createUser({ role: 'super' });
    expect((await superClient.delete(`/api/users/${deleted.id}`)).status).toBe(200);
    expect((await admin.post(`/api/users/${deleted.id}/restore`)).status).toBe(403);
    expect((await superClient.post(`/api/users/${deleted.id}/restore`)).status).toBe(200);
    expect((await superClient.post(`/api/users/${superUser.id}`, { last_name: 'Managed' })).status).toBe(200);
  });

  it('nobody adds a permission to a role that they do not hold, nor edits or deletes a role holding more', async () => {
    const own = await admin.post(`/api/roles/${await t.roleId('admin')}`, {
      permissions: [...(await me(admin)).permissions, 'user:impersonate'],
    });
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/user:impersonate/);
    const created = await admin.post('/api/roles', {
      slug: 'sneaky',
      name: 'Sneaky',
      permissions: ['user:impersonate'],
    });
    expect(created.status).toBe(403);
    const superRole = await t.roleId('super');
    expect((await admin.post(`/api/roles/${superRole}`, { name: 'Demoted' })).status).toBe(403);
    expect((await admin.delete(`/api/roles/${superRole}`)).status).toBe(403);
    expect(
      (await admin.post('/api/roles', { slug: 'hidden', name: 'Hidden', incognito: true, permissions: [] })).status,
    ).toBe(403);
    expect((await me(admin)).permissions).not.toContain('user:impersonate');
    // What they hold they may grant, category permissions included under the bare one.
    const fine = await admin.post('/api/roles', {
      slug: 'fine',
      name: 'Fine',
      permissions: ['site:read', 'site:create:union'],
    });
    expect(fine.status).toBe(201);
  });

  it('impersonation never reaches an account whose role holds more', async () => {
    const limited = await superClient.post('/api/roles', {
      slug: 'helpdesk',
      name: 'Helpdesk',
      permissions: ['user:read', 'user:impersonate'],
    });
    expect(limited.status).toBe(201);
    const helper = await t.createUser({ role: 'helpdesk' });
    const helpdesk = await t.signIn(helper.email);
    const organizer = await t.createUser({ role: 'user' });
    expect((await helpdesk.post(`/api/auth/impersonate/${adminUser.id}`)).status).toBe(403);
    expect((await helpdesk.post(`/api/auth/impersonate/${superUser.id}`)).status).toBe(403);
    expect((await me(helpdesk)).id).toBe(helper.id);
    // A user holding less than helpdesk? None of the seeded roles do; a role of helpdesk's own permissions does.
    expect((await helpdesk.post(`/api/auth/impersonate/${organizer.id}`)).status).toBe(403);
    const peer = await t.createUser({ role: 'helpdesk' });
    expect((await helpdesk.post(`/api/auth/impersonate/${peer.id}`)).status).toBe(200);
    expect((await helpdesk.post('/api/auth/impersonate/leave')).status).toBe(200);
  });
});

describe('passwords and sessions', () => {
  it("an administrator's change of someone's password ends every session of theirs", async () => {
    const user = await t.createUser({ role: 'user' });
    const laptop = await t.signIn(user.email);
    const phone = await t.signIn(user.email);
    expect((await superClient.post(`/api/users/${user.id}`, { password: 'new-password-456' })).status).toBe(200);
    expect((await laptop.get('/api/auth/check')).status).toBe(401);
    expect((await phone.get('/api/auth/check')).status).toBe(401);
    expect((await t.client().login(user.email, 'new-password-456')).status).toBe(200);
  });

  it("a person's change of their own password ends their other sessions and keeps this one", async () => {
    const adminUser = await t.createUser({ role: 'admin' });
    const here = await t.signIn(adminUser.email);
    const elsewhere = await t.signIn(adminUser.email);
    expect((await here.post(`/api/users/${adminUser.id}`, { password: 'my-own-new-789' })).status).toBe(200);
    expect((await here.get('/api/auth/check')).status).toBe(200);
    expect((await elsewhere.get('/api/auth/check')).status).toBe(401);
  });

  it('a new reset link voids the earlier ones, and using one voids the rest', async () => {
    const user = await t.createUser({ role: 'user' });
    const links: string[] = [];
    for (let i = 0; i < 3; i++) {
      const before = t.mails.length;
      expect((await fromOwnAddress().post('/api/password/reset', { email: user.email })).status).toBe(200);
      links.push(new URL(/(http\S+\/password\/update\?\S+)/.exec(t.mails[before].text)![1]).searchParams.get('token')!);
    }
    const update = (token: string, password: string) =>
      t.client().post('/api/password/update', { token, email: user.email, password, password_confirmation: password });
    expect((await update(links[0], 'oldest-link-111')).status).toBe(422);
    expect((await update(links[1], 'middle-link-222')).status).toBe(422);
    expect((await update(links[2], 'newest-link-333')).status).toBe(200);
    expect((await t.client().login(user.email, 'newest-link-333')).status).toBe(200);
    // Using a link voids any other: one asked for, the newest used, an older one never works again.
    const before = t.mails.length;
    await fromOwnAddress().post('/api/password/reset', { email: user.email });
    await fromOwnAddress().post('/api/password/reset', { email: user.email });
    const [older, newer] = [before, before + 1].map(
      (i) => new URL(/(http\S+\/password\/update\?\S+)/.exec(t.mails[i].text)![1]).searchParams.get('token')!,
    );
    expect((await update(newer, 'fourth-pass-444')).status).toBe(200);
    expect((await update(older, 'fifth-pass-555')).status).toBe(422);
  });

  it('the idle timeout is exact: a session used every 14 s of a 1-minute window never ends; a minute of quiet ends it', async () => {
    const idle = t.config.session.idleMinutes;
    t.config.session.idleMinutes = 1;
    try {
      const user = await t.createUser({ role: 'user' });
      vi.useFakeTimers({ toFake: ['Date'] });
      const start = Date.now();
      const client = await t.signIn(user.email);
      const id = createHash('sha256').update(client.jar.get(SESSION)!).digest('hex');
      const stored = async () =>
        new Date(
          (
            await t.ctx.db
              .selectFrom('sessions')
              .select('last_activity_at')
              .where('id', '=', id)
              .executeTakeFirstOrThrow()
          ).last_activity_at,
        ).getTime();
      for (let second = 14; second <= 154; second += 14) {
        vi.setSystemTime(start + second * 1000);
        expect((await client.get('/api/auth/check')).status, `after ${second} s`).toBe(200);
      }
      // Not a write per request: two requests a moment apart write the row once at most.
      vi.setSystemTime(start + 154_500);
      const before = await stored();
      await client.get('/api/auth/check');
      expect(await stored()).toBe(before);
      vi.setSystemTime(start + 154_500 + 60_001);
      expect((await client.get('/api/auth/check')).status).toBe(401);
    } finally {
      t.config.session.idleMinutes = idle;
    }
  });

  it("several processes serving one session (PostgreSQL) see each other's activity through the table", async () => {
    const user = await t.createUser({ role: 'user' });
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const client = await t.signIn(user.email);
    const token = client.jar.get(SESSION)!;
    // Two more stores on the same database, as two server processes have: no shared memory, no read cache.
    const config = { ...t.config, session: { ...t.config.session, idleMinutes: 1 } };
    const [a, b] = [new SessionStore(t.ctx.db, config), new SessionStore(t.ctx.db, config)];
    const resume = async (store: SessionStore, second: number) => {
      vi.setSystemTime(start + second * 1000);
      const request = { cookies: { [SESSION]: token } } as any;
      await store.resume(request);
      return request.user?.id ?? null;
    };
    // Used on B 50 s in, then on A 105 s in: 55 s of quiet, within the minute, though A never saw the 50th second.
    expect(await resume(b, 50)).toBe(user.id);
    expect(await resume(a, 105)).toBe(user.id);
    expect(await resume(b, 150)).toBe(user.id);
    expect(await resume(a, 211)).toBeNull();
  });

  it('the CSRF token is bound to the session: another pair of cookie and header does not pass with it', async () => {
    const victim = await t.signIn((await t.createUser({ role: 'admin' })).email);
    const attacker = await t.signIn((await t.createUser({ role: 'user' })).email);
    const stranger = t.client();
    await stranger.csrf();
    for (const token of [attacker.jar.get('XSRF-TOKEN')!, stranger.jar.get('XSRF-TOKEN')!]) {
      const forged = t.client();
      forged.jar.set(SESSION, victim.jar.get(SESSION)!);
      forged.jar.set('XSRF-TOKEN', token);
      const res = await forged.post('/api/teams', { name: 'Forged team' });
      expect(res.status).toBe(419);
    }
    expect(
      await t.ctx.db.selectFrom('teams').select('id').where('name', '=', 'Forged team').executeTakeFirst(),
    ).toBeUndefined();
    expect((await victim.post('/api/teams', { name: 'Own team' })).status).toBe(201);
  });

  it('the CSRF token changes at every sign-in, and the csrf-cookie route hands out the session one', async () => {
    const client = t.client();
    await client.csrf();
    const signedOut = client.jar.get('XSRF-TOKEN');
    await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const first = client.jar.get('XSRF-TOKEN');
    expect(first).not.toBe(signedOut);
    const staleSession = client.jar.get(SESSION);
    await client.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const second = client.jar.get('XSRF-TOKEN');
    expect(second).not.toBe(first);
    expect(client.jar.get(SESSION)).not.toBe(staleSession);
    // A stale token (the browser lost the cookie set at sign-in) is refused; the route hands back the right one.
    client.jar.set('XSRF-TOKEN', first!);
    expect((await client.post('/api/teams', { name: 'Stale token team' })).status).toBe(419);
    await client.csrf();
    expect(client.jar.get('XSRF-TOKEN')).toBe(second);
    expect((await client.post('/api/teams', { name: 'Fresh token team' })).status).toBe(201);
  });
});

describe('sign-in throttling', () => {
  it('past LOGIN_MAX_ATTEMPTS_PER_ADDRESS (20) an address gets in only with a correct password', async () => {
    const guesser = fromOwnAddress();
    for (let i = 0; i < 20; i++)
      expect((await guesser.login(`guess-${i}@example.com`, 'wrong-password')).status, `attempt ${i + 1}`).toBe(422);
    const blocked = await guesser.login('guess-21@example.com', 'wrong-password');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // A wrong password for a real account is refused too; the right one, for an account within its own limit, is not.
    expect((await guesser.login(ADMIN_EMAIL, 'wrong-password')).status).toBe(429);
    expect((await guesser.login(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);
    // Other addresses are not affected.
    expect((await fromOwnAddress().login(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);
  });

  it('13 failed sign-ins from one address do not lock out someone else signing in correctly there', async () => {
    const { maxAttemptsPerAddress } = t.config.throttle;
    t.config.throttle.maxAttemptsPerAddress = 10;
    try {
      const colleague = await t.createUser({ role: 'user' });
      const office = fromOwnAddress();
      const answers: number[] = [];
      for (let i = 0; i < 13; i++) answers.push((await office.login(`typo-${i % 3}@example.com`, 'wrong')).status);
      // Past the address's limit (10 here) wrong passwords are 429, so the last attempts are refused, not checked.
      expect(answers).toEqual([...Array(10).fill(422), 429, 429, 429]);
      expect((await office.login(colleague.email, USER_PASSWORD)).status).toBe(200);
    } finally {
      t.config.throttle.maxAttemptsPerAddress = maxAttemptsPerAddress;
    }
  });

  it('keeps the per-account limit: an account past LOGIN_MAX_ATTEMPTS at an address is refused even the right password', async () => {
    const user = await t.createUser({ role: 'user' });
    const office = fromOwnAddress();
    for (let i = 0; i < 5; i++) expect((await office.login(user.email, 'wrong-password')).status).toBe(422);
    expect((await office.login(user.email, USER_PASSWORD)).status).toBe(429);
    // Someone else at that address still signs in.
    expect((await office.login(ADMIN_EMAIL, ADMIN_PASSWORD)).status).toBe(200);
  });

  it('past LOGIN_ADDRESS_LOCKOUT_ATTEMPTS an address is refused altogether, correct passwords too', async () => {
    const { maxAttemptsPerAddress, addressLockoutAttempts } = t.config.throttle;
    Object.assign(t.config.throttle, { maxAttemptsPerAddress: 3, addressLockoutAttempts: 8 });
    try {
      const guesser = fromOwnAddress();
      const answers: number[] = [];
      for (let i = 0; i < 9; i++) answers.push((await guesser.login(`spray-${i}@example.com`, 'wrong')).status);
      expect(answers).toEqual([422, 422, 422, 429, 429, 429, 429, 429, 429]);
      const refused = await guesser.login(ADMIN_EMAIL, ADMIN_PASSWORD);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      Object.assign(t.config.throttle, { maxAttemptsPerAddress, addressLockoutAttempts });
    }
  });

  it('a sign-in that succeeds does not reset the count of its address', async () => {
    const user = await t.createUser({ role: 'user' });
    const guesser = fromOwnAddress();
    for (let i = 0; i < 19; i++) await guesser.login(`other-${i}@example.com`, 'wrong-password');
    expect((await guesser.login(user.email, USER_PASSWORD)).status).toBe(200);
    await guesser.login('other-20@example.com', 'wrong-password');
    expect((await guesser.login('other-21@example.com', 'wrong-password')).status).toBe(429);
  });
});

describe('bad input', () => {
  it('a refused upload leaves a kept-alive connection usable', async () => {
    const admin = await t.admin();
    await admin.csrf();
    const cookie = [...admin.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const token = decodeURIComponent(admin.jar.get('XSRF-TOKEN')!);
    const boundary = 'SecurityTestBoundary';
    const binary = Buffer.alloc(200_000, 7);
    binary.set([0x89, 0x50, 0x4e, 0x47]); // a PNG, refused on its first bytes
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="photo.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      binary,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const head = `POST /api/imports/preview HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\nX-XSRF-TOKEN: ${token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n`;
    const socket = net.connect(Number(new URL(t.baseUrl).port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    const answers = () => received.match(/HTTP\/1\.1 \d{3}/g) ?? [];
    const waitFor = async (count: number) => {
      for (let i = 0; i < 200 && answers().length < count && !socket.destroyed; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
    };
    try {
      for (let i = 1; i <= 2; i++) {
        socket.write(head);
        socket.write(body);
        await waitFor(i);
        expect(answers(), `answer to request ${i}`).toHaveLength(i);
      }
      expect(answers()).toEqual(['HTTP/1.1 422', 'HTTP/1.1 422']);
    } finally {
      socket.destroy();
    }
  });

  it('a filter or sort on a column the list lacks is a 422 naming it, never a 500', async () => {
    const cases: Array<[path: string, what: 'filter' | 'sort', name: string, words?: string]> = [
      ['/api/features?filter[deleted_at_null]=1', 'filter', 'deleted_at'],
      ['/api/notifications?filter[deleted_at_null]=1', 'filter', 'deleted_at'],
      ['/api/exports?filter[deleted_at]=2020-01-01', 'filter', 'deleted_at'],
      ['/api/features?sort=deleted_at', 'sort', 'deleted_at'],
      ['/api/notifications?sort=-deleted_at', 'sort', 'deleted_at'],
      // A field the list does not have at all is named by the one filter compiler (src/server/filters).
      [
        '/api/sites?filter[no_such_column]=1',
        'filter',
        'no_such_column',
        'There is no field "no_such_column" to filter by.',
      ],
      ['/api/sites?sort=no_such_column', 'sort', 'no_such_column'],
    ];
    for (const [path, what, name, words] of cases) {
      const res = await superClient.get(path);
      expect(res.status, path).toBe(422);
      expect(res.body.errors[what], path).toEqual([words ?? `You cannot ${what} by "${name}".`]);
    }
    // Soft-deleting lists still filter on it.
    expect((await superClient.get('/api/sites?filter[deleted_at_null]=1')).status).toBe(200);
  });
});

describe('imports and exports', () => {
  it('an import naming a reference record by its old name uses the renamed record instead of failing the row', async () => {
    const status = await superClient.post('/api/site-statuses', { name: 'Planning stage' });
    expect(status.status).toBe(201);
    expect(status.body.data.slug).toBe('planning-stage');
    expect((await superClient.post(`/api/site-statuses/${status.body.data.id}`, { name: 'Design' })).status).toBe(200);
    const importer = await superClient.post('/api/importers', {
      name: 'Renamed statuses',
      record_type: 'site',
      create_related: true,
      columns: [
        { header: 'Name', target: 'site.name' },
        { header: 'Status', target: 'site.status' },
      ],
    });
    expect(importer.status, JSON.stringify(importer.body)).toBe(201);
    const record = await runImport(t, superClient, importer.body.data.id, [
      {
        name: 'sites.csv',
        content: 'Name,Status\nTower one,Planning stage\nTower two,planning stage\nTower three,Brand new status\n',
      },
    ]);
    expect(record.status).toBe('complete');
    const importId = record.id;
    const failures = (await superClient.get(`/api/imports/${importId}/failures`)).body;
    expect(failures.meta.total, JSON.stringify(failures.data)).toBe(0);
    const sites = await t.ctx.db
      .selectFrom('sites')
      .select(['name', 'site_status_id'])
      .where('name', 'like', 'Tower %')
      .orderBy('name')
      .execute();
    const brandNew = await t.ctx.db
      .selectFrom('site_statuses')
      .select('id')
      .where('name', '=', 'Brand new status')
      .executeTakeFirstOrThrow();
    expect(sites).toEqual([
      { name: 'Tower one', site_status_id: status.body.data.id },
      { name: 'Tower three', site_status_id: brandNew.id },
      { name: 'Tower two', site_status_id: status.body.data.id },
    ]);
    expect(
      await t.ctx.db.selectFrom('site_statuses').select('id').where('slug', 'like', 'planning-stage%').execute(),
    ).toHaveLength(1);
  });

  it('the site export names each column once', async () => {
    const res = await superClient.get('/api/exports/download?resource=sites');
    expect(res.status).toBe(200);
    const header = String(res.body)
      .replace(/^\uFEFF/, '')
      .split('\r\n')[0]
      .split(',');
    const repeated = header.filter((label, i) => header.indexOf(label) !== i);
    expect(repeated).toEqual([]);
    expect(header).toContain('Other contractors');
  });
});

describe('security headers', () => {
  const assets = path.join(clientDir, 'assets');
  const asset = existsSync(assets) ? readdirSync(assets).find((file) => file.endsWith('.js')) : undefined;

  it('every answer carries them: pages, /api, assets, errors', async () => {
    const client = t.client();
    const answers = [
      await client.get('/'),
      await client.get('/login'),
      await client.get('/api/health'),
      await client.get('/api/users'), // 401
      await client.get('/api/no-such-route'), // 404
      await client.post('/api/teams', { name: 'x' }, { csrf: false }), // 419
      await superClient.get('/api/sites?filter[nope]=1'), // 422
      await client.get(`/assets/${asset ?? 'missing.js'}`),
    ];
    for (const res of answers) {
      const csp = res.headers.get('content-security-policy') ?? '';
      const directives = Object.fromEntries(csp.split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
      expect(directives['script-src'], csp).toEqual(["'self'"]);
      expect(directives['default-src']).toEqual(["'self'"]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(directives['object-src']).toEqual(["'none'"]);
      // The offline app: its service worker and manifest load from this server.
      expect(directives['worker-src']).toContain("'self'");
      expect(directives['manifest-src']).toEqual(["'self'"]);
      // The default tile host (TILE_URL) may serve images; the realtime websocket at the public address (APP_URL,
      // here its default) may be reached.
      expect(directives['img-src']).toEqual(expect.arrayContaining(["'self'", 'https://tile.openstreetmap.org']));
      expect(directives['connect-src']).toEqual(["'self'", 'ws://localhost:8000']);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
    expect(answers.map((res) => res.status)).toEqual([
      asset ? 200 : 404,
      asset ? 200 : 404,
      200,
      401,
      404,
      419,
      422,
      asset ? 200 : 404,
    ]);
  });

  it('HSTS only over https (behind a proxy TRUST_PROXY believes), and the policy never follows forwarded headers', async () => {
    const plain = await t.client().get('/api/health');
    const res = await t.client().get('/api/health', {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example:1;script-src *' },
    });
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers.get('content-security-policy')).toBe(plain.headers.get('content-security-policy'));
    expect(res.headers.get('content-security-policy')).not.toContain('evil');
  });

  it('behind a believed proxy: the session cookie is Secure over https, and the config names no forwarded host', async () => {
    const res = await t
      .client()
      .post(
        '/api/auth/login',
        { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
        { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.250' } },
      );
    expect(res.status).toBe(200);
    expect(res.cookies.find((line) => line.startsWith(`${SESSION}=`))).toMatch(/;\s*Secure/i);
    const config = await t.client().get('/api/system/config', { headers: { 'x-forwarded-host': 'evil.example' } });
    expect(JSON.stringify(config.body)).not.toContain('evil');
    expect(config.body.realtime).toMatchObject({ host: null, port: null, scheme: null });
  });

  it('the built client has no inline script for the policy to block', () => {
    const index = path.join(clientDir, 'index.html');
    if (!existsSync(index)) return; // not built here: the browser tests check the running app under the policy
    const html = readFileSync(index, 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});
