import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimJobs, enqueueJob } from '../../src/server/jobs/queue.js';
import { recordQueries } from '../support/query-counter.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

// READ_CACHE on for both databases (the default), and this suite is the only writer here.
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await startTestApp({ READ_CACHE: '1' });
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

const unique = () => randomBytes(4).toString('hex');

/** A role made through the API with exactly these permissions, and a signed-in user holding it. */
async function personWith(permissions: string[]) {
  const slug = `cache-${unique()}`;
  const role = await admin.post('/api/roles', { slug, name: `Cache ${slug}`, permissions });
  expect(role.status).toBe(201);
  const user = await t.createUser({ role: 'user', email: `${slug}@example.com` });
  expect((await admin.post(`/api/users/${user.id}`, { role_id: role.body.data.id })).status).toBe(200);
  return { roleId: role.body.data.id as number, user, client: await t.signIn(user.email) };
}

/** Counts the record service's shows (each one an answer computed, not served from the cache) until `stop`. */
function countShows() {
  const records = t.ctx.records;
  const show = records.show;
  const counted = {
    count: 0,
    stop: () => {
      records.show = show;
    },
  };
  records.show = (...args) => {
    counted.count++;
    return show.apply(records, args);
  };
  return counted;
}

describe('the read cache (READ_CACHE)', () => {
  it('is on by default on both databases, and READ_CACHE=0 turns it off', async () => {
    const plain = await startTestApp();
    try {
      expect(plain.ctx.readCache).not.toBeNull();
      // Several processes may write PostgreSQL: what is kept is checked against the counters they all move.
      expect(plain.database.writes.isShared).toBe(plain.database.kind === 'postgres');
    } finally {
      await plain.close();
    }
    const off = await startTestApp({ READ_CACHE: '0' });
    try {
      expect(off.ctx.readCache).toBeNull();
      expect(off.database.writes.isShared).toBe(false);
    } finally {
      await off.close();
    }
    expect(t.ctx.readCache).not.toBeNull();
  });

  it('serves a repeated read from memory until the next write', async () => {
    const user = await t.createUser({ role: 'user', first_name: 'Cached' });
    const shows = countShows();
    try {
      const first = await admin.get(`/api/users/${user.id}`);
      expect(first.status).toBe(200);
      expect((await admin.get(`/api/users/${user.id}`)).body).toEqual(first.body);
      expect(shows.count).toBe(1);
      await t.ctx.db.updateTable('features').set({ updated_at: new Date() }).where('id', '=', -1).execute(); // no row: no change
      await admin.get(`/api/users/${user.id}`);
      expect(shows.count).toBe(1);
      await t.ctx.db.updateTable('users').set({ updated_at: new Date() }).where('id', '=', user.id).execute();
      await admin.get(`/api/users/${user.id}`);
      expect(shows.count).toBe(2);
    } finally {
      shows.stop();
    }
  });

  it('outlives a poll of the job queue that claims nothing, and moves on when a job is claimed', async () => {
    const user = await t.createUser({ role: 'user', first_name: 'Polled' });
    const shows = countShows();
    const type = `cache-poll-${unique()}`;
    try {
      await admin.get(`/api/users/${user.id}`);
      const data = t.database.writes.data;
      // What the job workers ask every second: nothing of this type is due.
      expect(await claimJobs(t.ctx.db, 'cache-test', { [type]: 1 })).toEqual([]);
      expect(t.database.writes.data).toBe(data);
      await admin.get(`/api/users/${user.id}`);
      expect(shows.count).toBe(1);
      await enqueueJob(t.ctx.db, type, {});
      const data2 = t.database.writes.data;
      expect(await claimJobs(t.ctx.db, 'cache-test', { [type]: 1 })).toHaveLength(1);
      expect(t.database.writes.data).toBeGreaterThan(data2);
      await admin.get(`/api/users/${user.id}`);
      expect(shows.count).toBe(2);
    } finally {
      shows.stop();
      await sql`delete from jobs where type = ${type}`.execute(t.ctx.db);
    }
  });

  it('a record update through the API is visible on the next read, in the list and the record', async () => {
    const user = await t.createUser({ role: 'user', first_name: 'Before', last_name: `Api${unique()}` });
    const listPath = `/api/users?filter[last_name]=${user.last_name}`;
    expect((await admin.get(listPath)).body.data[0].first_name).toBe('Before');
    expect((await admin.get(`/api/users/${user.id}`)).body.data.first_name).toBe('Before');
    expect((await admin.post(`/api/users/${user.id}`, { first_name: 'After' })).status).toBe(200);
    expect((await admin.get(listPath)).body.data[0].first_name).toBe('After');
    expect((await admin.get(`/api/users/${user.id}`)).body.data.first_name).toBe('After');
  });

  it('a write outside the request path (as a background job makes) is visible on the next read', async () => {
    const user = await t.createUser({ role: 'user', first_name: 'Queued' });
    expect((await admin.get(`/api/users/${user.id}`)).body.data.first_name).toBe('Queued');
    await t.ctx.db.updateTable('users').set({ first_name: 'Processed' }).where('id', '=', user.id).execute();
    expect((await admin.get(`/api/users/${user.id}`)).body.data.first_name).toBe('Processed');
    // A raw statement and a transaction count as well.
    await sql`update users set first_name = 'Raw' where id = ${user.id}`.execute(t.ctx.db);
    expect((await admin.get(`/api/users/${user.id}`)).body.data.first_name).toBe('Raw');
    await t.ctx.db
      .transaction()
      .execute((trx) =>
        trx.updateTable('users').set({ first_name: 'Transaction' }).where('id', '=', user.id).execute(),
      );
    expect((await admin.get(`/api/users/${user.id}`)).body.data.first_name).toBe('Transaction');
  });

  it("never serves one person's cached answer to another", async () => {
    const union = await admin.post('/api/sites', { name: `Cache union ${unique()}`, type: 'union' });
    const open = await admin.post('/api/sites', { name: `Cache open ${unique()}`, type: 'non-union' });
    expect([union.status, open.status]).toEqual([201, 201]);
    const a = await personWith(['site:read']);
    const b = await personWith(['site:read:union']);
    const path = '/api/sites?per_page=-1&search=Cache';
    const seenByA = (await a.client.get(path)).body.data.map((s: any) => s.id);
    expect(seenByA).toEqual(expect.arrayContaining([union.body.data.id, open.body.data.id]));
    const seenByB = (await b.client.get(path)).body.data.map((s: any) => s.id);
    expect(seenByB).toContain(union.body.data.id);
    expect(seenByB).not.toContain(open.body.data.id);
    expect((await b.client.get(`/api/sites/${open.body.data.id}`)).status).toBe(404);
    expect((await a.client.get(`/api/sites/${open.body.data.id}`)).status).toBe(200);
    expect((await b.client.get(`/api/sites/${open.body.data.id}`)).status).toBe(404);
  });

  it('a change of permissions takes effect on the next request', async () => {
    const person = await personWith(['site:read', 'user:read']);
    expect((await person.client.get('/api/users?per_page=5')).status).toBe(200);
    expect((await person.client.get('/api/auth/check')).body.data.permissions).toContain('user:read');
    expect((await admin.post(`/api/roles/${person.roleId}`, { permissions: ['site:read'] })).status).toBe(200);
    expect((await person.client.get('/api/users?per_page=5')).status).toBe(403);
    expect((await person.client.get('/api/auth/check')).body.data.permissions).not.toContain('user:read');
    expect((await admin.post(`/api/roles/${person.roleId}`, { permissions: ['site:read', 'user:read'] })).status).toBe(
      200,
    );
    expect((await person.client.get('/api/users?per_page=5')).status).toBe(200);
  });

  it('sign-out and a deleted user end the cached session at once', async () => {
    const person = await personWith(['user:read']);
    expect((await person.client.get('/api/users?per_page=5')).status).toBe(200);
    const cookies = new Map(person.client.jar);
    expect((await person.client.post('/api/auth/logout')).status).toBeLessThan(300);
    // The old cookie, replayed after sign-out, is refused.
    const replay = t.client();
    for (const [name, value] of cookies) replay.jar.set(name, value);
    expect((await replay.get('/api/users?per_page=5')).status).toBe(401);

    const other = await personWith(['user:read']);
    expect((await other.client.get('/api/auth/check')).status).toBe(200);
    expect((await admin.delete(`/api/users/${other.user.id}`)).status).toBe(200);
    expect((await other.client.get('/api/auth/check')).status).toBe(401);
  });

  it('keeps a session through the writes of records: the next request reads no session', async () => {
    const person = await personWith(['site:read']);
    expect((await person.client.get('/api/auth/check')).status).toBe(200);
    expect((await admin.post('/api/sites', { name: `Kept session ${unique()}`, type: 'union' })).status).toBe(201);
    const next = await recordQueries(() => person.client.get('/api/auth/check'));
    expect(next.result.status).toBe(200);
    expect(next.queries.filter((q) => /from "sessions"/i.test(q.sql))).toEqual([]);
  });

  it('a change of teams, and a session ended in the table, take effect on the next request', async () => {
    const person = await personWith(['site:read']);
    const team = await admin.post('/api/teams', { name: `Kept team ${unique()}` });
    expect(team.status).toBe(201);
    expect((await person.client.get('/api/auth/check')).body.data.team_ids).not.toContain(team.body.data.id);
    expect((await admin.post(`/api/users/${person.user.id}`, { team_ids: [team.body.data.id] })).status).toBe(200);
    expect((await person.client.get('/api/auth/check')).body.data.team_ids).toContain(team.body.data.id);
    // A membership removed outside the API (an import, a job) too.
    await t.ctx.db.deleteFrom('team_user').where('user_id', '=', person.user.id).execute();
    expect((await person.client.get('/api/auth/check')).body.data.team_ids).not.toContain(team.body.data.id);

    // An operator ending a person's sessions by hand, and a statement whose table is not known, are believed at once.
    await sql`delete from sessions where user_id = ${person.user.id}`.execute(t.ctx.db);
    expect((await person.client.get('/api/auth/check')).status).toBe(401);
    const other = await personWith(['site:read']);
    expect((await other.client.get('/api/auth/check')).status).toBe(200);
    await sql`with gone as (select ${other.user.id}::int as id) delete from sessions where user_id in (select id from gone)`.execute(
      t.ctx.db,
    );
    expect((await other.client.get('/api/auth/check')).status).toBe(401);
  });
});
