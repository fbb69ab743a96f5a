import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthUser } from '../../src/server/auth/load-user.js';
import { jsonObject } from '../../src/server/db/dynamic-tables.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let adminId: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  adminId = (await admin.get('/api/auth/check')).body.data.id;
});
afterAll(async () => {
  await t?.close();
});

async function revisionsOf(type: string, id: number) {
  return t.ctx.db
    .selectFrom('revisions')
    .selectAll()
    .where('revisionable_type', '=', type)
    .where('revisionable_id', '=', id)
    .orderBy('id')
    .execute();
}

describe('the users list', () => {
  const LAST = 'Listtest';
  let team: number;
  let people: Record<string, any>[];

  beforeAll(async () => {
    team = (await admin.post('/api/teams', { name: 'List team' })).body.data.id;
    const specs = [
      { first_name: 'Alice', role: 'leader', team_id: team },
      { first_name: 'Bruno', role: 'user', team_ids: [team] },
      { first_name: 'Chloe', role: 'user' },
      { first_name: 'Dmitri', role: 'assistant' },
      { first_name: 'Esther', role: 'user' },
    ];
    people = [];
    for (const spec of specs)
      people.push(
        await t.createUser({ ...spec, last_name: LAST, email: `${spec.first_name.toLowerCase()}@list.example.com` }),
      );
  });

  const list = (query: string) => admin.get(`/api/users?filter[last_name]=${LAST}&${query}`);

  it('answers {data, meta} with the documented meta, never a password or realtime key', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
    expect(res.body.meta).toEqual({ current_page: 1, from: 1, to: 5, per_page: 25, total: 5, last_page: 1 });
    for (const user of res.body.data) {
      expect(user).not.toHaveProperty('password');
      expect(user).not.toHaveProperty('realtime_key');
      expect(user).not.toHaveProperty('custom');
      expect(user).toMatchObject({
        id: expect.any(Number),
        name: `${user.first_name} ${LAST}`,
        role: { slug: expect.any(String) },
        team_ids: expect.any(Array),
      });
      expect(new Date(user.created_at).toISOString()).toBe(user.created_at);
    }
    expect(JSON.stringify(res.body)).not.toContain('$argon2');
  });

  it('paginates', async () => {
    const page2 = await list('per_page=2&page=2&sort=first_name');
    expect(page2.body.meta).toEqual({
      current_page: 2,
      from: 3,
      to: 4,
      per_page: 2,
      total: 5,
      last_page: 3,
      next_cursor: expect.any(String),
    });
    expect(page2.body.data.map((u: any) => u.first_name)).toEqual(['Chloe', 'Dmitri']);
    const last = await list('per_page=2&page=3&sort=first_name');
    expect(last.body.data.map((u: any) => u.first_name)).toEqual(['Esther']);
    expect(last.body.meta).toMatchObject({ from: 5, to: 5 });
    const beyond = await list('per_page=2&page=9');
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta).toMatchObject({ from: null, to: null, total: 5, current_page: 9 });
  });

  it('per_page=-1 returns every row on one page', async () => {
    // More rows than a default page holds (made directly: no password hashing needed).
    await t.ctx.db
      .insertInto('users')
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          first_name: `Bulk${i}`,
          last_name: 'Bulk',
          email: `bulk${i}@example.com`,
          password: 'not-a-hash',
          realtime_key: `bulk${i}`,
        })),
      )
      .execute();
    const res = await list('per_page=-1');
    expect(res.body.data).toHaveLength(5);
    expect(res.body.meta).toEqual({ current_page: 1, from: 1, to: 5, per_page: -1, total: 5, last_page: 1 });
    const everyone = await admin.get('/api/users?per_page=-1');
    const count = Number(
      (
        await t.ctx.db
          .selectFrom('users')
          .select(sql<number>`count(*)`.as('n'))
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(everyone.body.data).toHaveLength(count);
    expect(count).toBeGreaterThan(25);
  });

  it('sorts by a field, ascending or descending, and by -field', async () => {
    const names = async (query: string) => (await list(query)).body.data.map((u: any) => u.first_name);
    expect(await names('sort=first_name&order=asc')).toEqual(['Alice', 'Bruno', 'Chloe', 'Dmitri', 'Esther']);
    expect(await names('sort=first_name&order=desc')).toEqual(['Esther', 'Dmitri', 'Chloe', 'Bruno', 'Alice']);
    expect(await names('sort=-email')).toEqual(['Esther', 'Dmitri', 'Chloe', 'Bruno', 'Alice']);
    expect(await names('sort=id&order=DESC')).toEqual(['Esther', 'Dmitri', 'Chloe', 'Bruno', 'Alice']);
  });

  it('filters by field, by list, by suffix operator, by JSON filter, and by team membership', async () => {
    const names = async (query: string) => (await list(query)).body.data.map((u: any) => u.first_name).sort();
    expect(await names(`filter[role_id]=${await t.roleId('user')}`)).toEqual(['Bruno', 'Chloe', 'Esther']);
    expect(
      await names(`filter[role_id][]=${await t.roleId('leader')}&filter[role_id][]=${await t.roleId('assistant')}`),
    ).toEqual(['Alice', 'Dmitri']);
    // team_id is the primary team (a column); team_ids the memberships (the team_user table).
    expect(await names(`filter[team_id]=${team}`)).toEqual(['Alice']);
    expect(await names(`filter[team_ids]=${team}`)).toEqual(['Bruno']);
    expect(await names('filter[first_name_like]=hl')).toEqual(['Chloe']);
    expect(await names(`filter[id_gte]=${people[3].id}`)).toEqual(['Dmitri', 'Esther']);
    expect(await names('filter[team_id_null]=1')).toEqual(['Bruno', 'Chloe', 'Dmitri', 'Esther']);
    expect(await names(`filter[role_id_neq]=${await t.roleId('user')}`)).toEqual(['Alice', 'Dmitri']);
    const json = await admin.get(
      `/api/users?filter=${encodeURIComponent(JSON.stringify({ last_name: LAST, first_name: 'bruno' }))}`,
    );
    expect(json.body.data.map((u: any) => u.first_name)).toEqual(['Bruno']);
  });

  it('searches first name, last name and email, case-insensitively, with % and _ taken literally', async () => {
    const names = async (query: string) => (await list(query)).body.data.map((u: any) => u.first_name).sort();
    expect(await names('search=ESTH')).toEqual(['Esther']);
    expect(await names('search=alice%40list')).toEqual(['Alice']);
    expect(await names(`filter[q]=dmit`)).toEqual(['Dmitri']);
    expect(await names('search=%25')).toEqual([]);
    expect(await names('search=_')).toEqual([]);
  });

  it('includes soft-deleted rows only when asked', async () => {
    const gone = await t.createUser({ role: 'user', first_name: 'Gone', last_name: LAST });
    expect((await admin.delete(`/api/users/${gone.id}`)).status).toBe(200);
    const names = async (query: string) => (await list(query)).body.data.map((u: any) => u.first_name).sort();
    expect(await names('')).not.toContain('Gone');
    expect(await names('with_trashed=1')).toContain('Gone');
    expect(await names('only_trashed=1')).toEqual(['Gone']);
    // A deleted user cannot sign in.
    expect((await t.client().login(gone.email, 'user-password-123')).status).toBe(422);
  });
});

describe('create, show, update, delete, restore, with a revision for every write', () => {
  it('runs the whole life of a team', async () => {
    const member = await t.createUser({ role: 'user' });
    const created = await admin.post('/api/teams', {
      name: 'Lifecycle',
      description: 'First',
      color: '#1e88e5',
      user_ids: [member.id],
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Team created successfully.');
    const team = created.body.data;
    expect(team).toMatchObject({
      id: expect.any(Number),
      name: 'Lifecycle',
      description: 'First',
      color: '#1e88e5',
      user_ids: [member.id],
      deleted_at: null,
    });
    // The membership is real: the member's session sees the team.
    const memberClient = await t.signIn(member.email);
    expect((await memberClient.get('/api/auth/check')).body.data.team_ids).toEqual([team.id]);

    const shown = await admin.get(`/api/teams/${team.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ data: team });

    const updated = await admin.post(`/api/teams/${team.id}`, { description: 'Second', updated_at: team.updated_at });
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe('Team updated successfully.');
    expect(updated.body.data).toMatchObject({ name: 'Lifecycle', description: 'Second' });
    expect(new Date(updated.body.data.updated_at).getTime()).toBeGreaterThanOrEqual(
      new Date(team.updated_at).getTime(),
    );

    // PUT and PATCH do the same as POST.
    expect((await admin.put(`/api/teams/${team.id}`, { description: 'Third' })).body.data.description).toBe('Third');
    expect((await admin.patch(`/api/teams/${team.id}`, { description: 'Fourth' })).body.data.description).toBe(
      'Fourth',
    );

    // An update that changes nothing writes no revision.
    const before = (await revisionsOf('team', team.id)).length;
    expect((await admin.post(`/api/teams/${team.id}`, { description: 'Fourth' })).status).toBe(200);
    expect(await revisionsOf('team', team.id)).toHaveLength(before);

    const deleted = await admin.delete(`/api/teams/${team.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe('Team deleted successfully.');
    const row = await t.ctx.db.selectFrom('teams').selectAll().where('id', '=', team.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect((await admin.get(`/api/teams/${team.id}`)).status).toBe(404);
    expect((await admin.get(`/api/teams/${team.id}?with_trashed=1`)).body.data.deleted_at).not.toBeNull();
    expect((await admin.get('/api/teams?per_page=-1')).body.data.map((r: any) => r.id)).not.toContain(team.id);
    expect((await admin.delete(`/api/teams/${team.id}`)).status).toBe(404);

    const restored = await admin.post(`/api/teams/${team.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.message).toBe('Team restored successfully.');
    expect(restored.body.data).toMatchObject({
      id: team.id,
      name: 'Lifecycle',
      description: 'Fourth',
      deleted_at: null,
      user_ids: [member.id],
    });
    expect((await admin.get(`/api/teams/${team.id}`)).status).toBe(200);
    // Restoring what is not deleted is a 404.
    expect((await admin.post(`/api/teams/${team.id}/restore`)).status).toBe(404);

    const revisions = await revisionsOf('team', team.id);
    expect(revisions.map((r) => r.action)).toEqual(['created', 'updated', 'updated', 'updated', 'deleted', 'restored']);
    expect(revisions.every((r) => r.user_id === adminId)).toBe(true);
    expect(revisions[0].changes).toEqual({
      name: [null, 'Lifecycle'],
      description: [null, 'First'],
      color: [null, '#1e88e5'],
      user_ids: [null, [member.id]],
    });
    expect(revisions[1].changes).toEqual({ description: ['First', 'Second'] });
  });

  it('soft-deletes and restores a user, who can then sign in again', async () => {
    const person = await t.createUser({ role: 'user' });
    expect((await admin.delete(`/api/users/${person.id}`)).body.message).toBe('User deleted successfully.');
    expect((await t.client().login(person.email, 'user-password-123')).status).toBe(422);
    const restored = await admin.post(`/api/users/${person.id}/restore`);
    expect(restored.body).toMatchObject({
      message: 'User restored successfully.',
      data: { id: person.id, deleted_at: null },
    });
    expect((await t.client().login(person.email, 'user-password-123')).status).toBe(200);
    expect((await revisionsOf('user', person.id)).map((r) => r.action)).toEqual(['created', 'deleted', 'restored']);
  });

  it('deletes features for good (no soft delete, no restore route)', async () => {
    const created = await admin.post('/api/features', { slug: 'temporary', name: 'Temporary' });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect((await admin.delete(`/api/features/${id}`)).body.message).toBe('Feature deleted successfully.');
    expect(await t.ctx.db.selectFrom('features').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect((await admin.post(`/api/features/${id}/restore`)).status).toBe(404);
    expect((await revisionsOf('feature', id)).map((r) => r.action)).toEqual(['created', 'deleted']);
  });

  it('writes "imported" revisions for writes made by an import', async () => {
    const user = (await loadAuthUser(t.ctx.db, adminId))!;
    const teams = t.ctx.resources.get('teams')!;
    const { record } = await t.ctx.records.create(user, teams, { name: 'Imported team' }, { importId: 77 });
    await t.ctx.records.update(user, teams, record.id, { description: 'From the second file' }, { importId: 78 });
    const revisions = await revisionsOf('team', record.id);
    expect(revisions.map((r) => [r.action, r.import_id])).toEqual([
      ['imported', 77],
      ['imported', 78],
    ]);
    const listed = await admin.get('/api/revisions?import_id=78');
    expect(listed.body.data.map((r: any) => r.revisionable_id)).toEqual([record.id]);
  });

  it('masks passwords in revisions and never stores a hash there', async () => {
    const person = await t.createUser({ role: 'user' });
    expect((await admin.post(`/api/users/${person.id}`, { password: 'a-new-password-1' })).status).toBe(200);
    const revisions = await revisionsOf('user', person.id);
    expect(jsonObject(revisions[0].changes)?.password).toEqual(['••••', '••••']);
    expect(revisions[1].changes).toEqual({ password: ['••••', '••••'] });
    const leaked = await t.ctx.db
      .selectFrom('revisions')
      .select('id')
      .where(sql`changes::text`, 'like', '%argon2%')
      .execute();
    expect(leaked).toEqual([]);
    expect((await t.client().login(person.email, 'a-new-password-1')).status).toBe(200);
  });

  it('a write that fails validation changes nothing and writes no revision', async () => {
    const count = async () =>
      Number(
        (await t.ctx.db.selectFrom('revisions').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n,
      );
    const before = await count();
    expect(
      (
        await admin.post('/api/users', {
          first_name: 'Dup',
          email: 'admin@example.com',
          password: 'password-123',
          role_id: await t.roleId('user'),
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await admin.post('/api/users', {
          first_name: 'Norole',
          email: 'norole@example.com',
          password: 'password-123',
          role_id: 999999,
        })
      ).status,
    ).toBe(422);
    expect((await admin.post('/api/roles', { slug: 'admin', name: 'Second admin' })).body.errors).toEqual({
      slug: ['The slug has already been taken.'],
    });
    expect(await count()).toBe(before);
  });
});

describe('edit conflicts', () => {
  it('answers 409 when updated_at is stale, and changes nothing', async () => {
    const team = (await admin.post('/api/teams', { name: 'Contested' })).body.data;
    const other = await t.admin();
    const first = await other.post(`/api/teams/${team.id}`, { name: 'Saved first', updated_at: team.updated_at });
    expect(first.status).toBe(200);
    const stale = await admin.post(`/api/teams/${team.id}`, { name: 'Saved second', updated_at: team.updated_at });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      message: 'Someone else saved this team after you opened it. Reload to see their changes, then make yours again.',
    });
    expect((await admin.get(`/api/teams/${team.id}`)).body.data.name).toBe('Saved first');
    expect((await revisionsOf('team', team.id)).map((r) => r.action)).toEqual(['created', 'updated']);
    // With the fresh version the save goes through.
    const fresh = await admin.post(`/api/teams/${team.id}`, {
      name: 'Saved second',
      updated_at: first.body.data.updated_at,
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.name).toBe('Saved second');
  });
});

describe('roles take effect at once', () => {
  it('a permission added to or removed from a role changes what its members may do on their next request', async () => {
    const role = (await admin.post('/api/roles', { slug: 'growing', name: 'Growing', permissions: ['team:read'] })).body
      .data;
    const member = await t.createUser({ role: 'growing' });
    const client = await t.signIn(member.email);
    expect((await client.get('/api/users')).status).toBe(403);
    expect((await admin.post(`/api/roles/${role.id}`, { permissions: ['team:read', 'user:read'] })).status).toBe(200);
    expect((await client.get('/api/users')).status).toBe(200);
    expect((await client.get('/api/auth/check')).body.data.permissions).toEqual(['team:read', 'user:read']);
    // Deleting the role leaves its members with no permissions at all.
    expect((await admin.delete(`/api/roles/${role.id}`)).status).toBe(200);
    expect((await client.get('/api/users')).status).toBe(403);
    expect((await client.get('/api/teams')).status).toBe(403);
    expect((await client.get('/api/auth/check')).body.data).toMatchObject({
      role: null,
      role_id: null,
      permissions: [],
    });
  });
});

describe('POST /api/users/{id}/goals', () => {
  it('merges goals per month, with "default" when no period is given', async () => {
    const person = await t.createUser({ role: 'user' });
    const first = await admin.post(`/api/users/${person.id}/goals`, { period: '2026-11', calls: 40, visits: 10 });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      data: { '2026-11': { calls: 40, visits: 10 } },
      message: 'Goals updated successfully.',
    });
    const second = await admin.post(`/api/users/${person.id}/goals`, { period: '2026-11', visits: 12, recruits: 2 });
    expect(second.body.data).toEqual({ '2026-11': { calls: 40, visits: 12, recruits: 2 } });
    const fallback = await admin.post(`/api/users/${person.id}/goals`, { meetings: 5 });
    expect(fallback.body.data).toEqual({ '2026-11': { calls: 40, visits: 12, recruits: 2 }, default: { meetings: 5 } });
    expect((await admin.get(`/api/users/${person.id}`)).body.data.goals).toEqual(fallback.body.data);
    expect((await revisionsOf('user', person.id)).map((r) => r.action)).toEqual([
      'created',
      'updated',
      'updated',
      'updated',
    ]);
  });

  it('refuses bad periods, negative or fractional counts, unknown keys, and unknown users', async () => {
    const person = await t.createUser({ role: 'user' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ period: '2026-13', calls: 1 }, 'period'],
      [{ period: 'November', calls: 1 }, 'period'],
      [{ calls: -1 }, 'calls'],
      [{ calls: 1.5 }, 'calls'],
      [{ calls: 'many' }, 'calls'],
      [{ sales: 3 }, 'sales'],
    ];
    for (const [body, field] of cases) {
      const res = await admin.post(`/api/users/${person.id}/goals`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    expect(
      (await admin.post(`/api/users/${person.id}/goals`, { period: '2026-13', calls: 1 })).body.errors.period,
    ).toEqual(['The period must be a month like 2026-11.']);
    expect((await admin.post('/api/users/999999/goals', { calls: 1 })).status).toBe(404);
    expect((await admin.get(`/api/users/${person.id}`)).body.data.goals).toEqual({});
  });
});

describe('GET /api/options/roles|teams|users', () => {
  it('answer {data: [{id, name}]} ordered by name, without deleted rows, with q and ids', async () => {
    const roles = await admin.get('/api/options/roles');
    expect(roles.status).toBe(200);
    const seeded = roles.body.data.filter((o: any) =>
      ['Administrator', 'Assistant', 'Leader', 'Organizer', 'Super Administrator'].includes(o.name),
    );
    expect(seeded.map((o: any) => o.name)).toEqual([
      'Administrator',
      'Assistant',
      'Leader',
      'Organizer',
      'Super Administrator',
    ]);
    for (const option of roles.body.data) expect(Object.keys(option).sort()).toEqual(['id', 'name']);

    const zeta = (await admin.post('/api/teams', { name: 'Zeta options' })).body.data;
    const alpha = (await admin.post('/api/teams', { name: 'Alpha options' })).body.data;
    const gone = (await admin.post('/api/teams', { name: 'Gone options' })).body.data;
    await admin.delete(`/api/teams/${gone.id}`);
    const teams = await admin.get('/api/options/teams?q=options');
    expect(teams.body.data).toEqual([
      { id: alpha.id, name: 'Alpha options' },
      { id: zeta.id, name: 'Zeta options' },
    ]);
    const byIds = await admin.get(`/api/options/teams?ids=${zeta.id},${gone.id}`);
    expect(byIds.body.data).toEqual([{ id: zeta.id, name: 'Zeta options' }]);
    const byIdList = await admin.get(`/api/options/teams?ids[]=${alpha.id}&ids[]=${zeta.id}`);
    expect(byIdList.body.data.map((o: any) => o.id)).toEqual([alpha.id, zeta.id]);

    const person = await t.createUser({ role: 'user', first_name: 'Optionella', last_name: 'Pickable' });
    const usersOptions = await admin.get('/api/options/users?q=optionella');
    expect(usersOptions.body.data).toEqual([{ id: person.id, name: 'Optionella Pickable' }]);
  });
});

describe('GET /api/revisions', () => {
  let team: Record<string, any>;
  let editor: Record<string, any>;
  beforeAll(async () => {
    editor = await t.createUser({ role: 'admin', first_name: 'Rev', last_name: 'Editor' });
    const client = await t.signIn(editor.email);
    team = (await client.post('/api/teams', { name: 'History team' })).body.data;
    await client.post(`/api/teams/${team.id}`, { name: 'History team 2' });
    await client.delete(`/api/teams/${team.id}`);
    await client.post(`/api/teams/${team.id}/restore`);
  });

  it('lists newest first in the list shape, with who did it', async () => {
    const res = await admin.get(`/api/revisions?type=team&revisionable_id=${team.id}`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ current_page: 1, from: 1, to: 4, per_page: 25, total: 4, last_page: 1 });
    expect(res.body.data.map((r: any) => r.action)).toEqual(['restored', 'deleted', 'updated', 'created']);
    expect(res.body.data[0]).toMatchObject({
      revisionable_type: 'team',
      revisionable_id: team.id,
      user_id: editor.id,
      user_name: 'Rev Editor',
      import_id: null,
      changes: {},
    });
    expect(res.body.data[2].changes).toEqual({ name: ['History team', 'History team 2'] });
    expect(new Date(res.body.data[0].created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('filters by action, user, type and time, and paginates', async () => {
    const updated = await admin.get(`/api/revisions?revisionable_type=team&revisionable_id=${team.id}&action=updated`);
    expect(updated.body.data.map((r: any) => r.action)).toEqual(['updated']);
    const byUser = await admin.get(`/api/revisions?user_id=${editor.id}`);
    expect(byUser.body.meta.total).toBe(4);
    expect(byUser.body.data.every((r: any) => r.user_id === editor.id)).toBe(true);
    const future = await admin.get(
      `/api/revisions?from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`,
    );
    expect(future.body.meta.total).toBe(0);
    const past = await admin.get(`/api/revisions?user_id=${editor.id}&to=2000-01-01`);
    expect(past.body.meta.total).toBe(0);
    const window = await admin.get(
      `/api/revisions?user_id=${editor.id}&from=2000-01-01&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(window.body.meta.total).toBe(4);
    const page = await admin.get(`/api/revisions?user_id=${editor.id}&per_page=3&page=2`);
    expect(page.body.meta).toEqual({ current_page: 2, from: 4, to: 4, per_page: 3, total: 4, last_page: 2 });
    expect(page.body.data.map((r: any) => r.action)).toEqual(['created']);
    const bad = await admin.get('/api/revisions?action=exploded');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['action']);
  });

  it('shows only revisions of record types the reader may read', async () => {
    const leader = await t.createUser({ role: 'leader' });
    const client = await t.signIn(leader.email);
    // Leaders read users and teams but not roles.
    expect((await client.get('/api/revisions?type=team')).body.meta.total).toBeGreaterThan(0);
    expect((await client.get('/api/revisions?type=role')).body.meta.total).toBe(0);
    expect((await admin.get('/api/revisions?type=role')).body.meta.total).toBeGreaterThan(0);
  });
});
