import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPermissions } from '../../src/common/permission-catalogue.js';
import type { AuthUser } from '../../src/server/auth/auth-user.js';
import { loadAuthUser } from '../../src/server/auth/load-user.js';
import { dynamicTables } from '../../src/server/db/dynamic-tables.js';
import type { ResourceDefinition } from '../../src/server/records/resource.js';
import { startTestApp, type TestApp, type TestClient, type TestResponse } from '../support/test-app.js';

const ROLES = ['super', 'admin', 'leader', 'user', 'assistant'] as const;
type Role = (typeof ROLES)[number];

let t: TestApp;
const clients = {} as Record<Role, TestClient>;
const users = {} as Record<Role, Record<string, any>>;

beforeAll(async () => {
  t = await startTestApp();
  for (const role of ROLES) {
    users[role] = await t.createUser({ role, first_name: `Matrix${role}`, email: `matrix-${role}@example.com` });
    clients[role] = await t.signIn(users[role].email);
  }
});
afterAll(async () => {
  await t?.close();
});

/** A user row made directly in the database: a target for writes, no password hashing needed. */
async function targetUser(deleted = false): Promise<number> {
  const row = await t.ctx.db
    .insertInto('users')
    .values({
      first_name: 'Target',
      last_name: randomBytes(3).toString('hex'),
      email: `target-${randomBytes(5).toString('hex')}@example.com`,
      password: 'not-a-hash',
      role_id: await t.roleId('user'),
      realtime_key: randomBytes(16).toString('hex'),
      deleted_at: deleted ? new Date() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function target(table: string, values: Record<string, unknown>): Promise<number> {
  return (await dynamicTables(t.ctx.db).insertInto(table).values(values).returning('id').executeTakeFirstOrThrow())
    .id as number;
}

const unique = () => randomBytes(4).toString('hex');
const revisionCount = async () =>
  Number((await t.ctx.db.selectFrom('revisions').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

interface Row {
  name: string;
  allowed: readonly Role[];
  /** Expected status when allowed. */
  ok?: number;
  /** Whether the call writes (a refused write must leave no revision behind). */
  write?: boolean;
  call(client: TestClient): Promise<TestResponse>;
  /** The 403 message when refused, where it is fixed. */
  denied?: string;
  cleanup?(client: TestClient): Promise<unknown>;
}

const ALL = ROLES;
const ADMINS = ['super', 'admin'] as const;
const READERS_OF_USERS = ['super', 'admin', 'leader'] as const;

const matrix: Row[] = [
  { name: 'GET /api/auth/check', allowed: ALL, call: (c) => c.get('/api/auth/check') },
  { name: 'GET /api/dashboard/statistics', allowed: ALL, call: (c) => c.get('/api/dashboard/statistics') },
  {
    name: 'GET /api/users',
    allowed: READERS_OF_USERS,
    call: (c) => c.get('/api/users'),
    denied: 'You do not have permission to read users.',
  },
  {
    name: 'GET /api/users/{id}',
    allowed: READERS_OF_USERS,
    call: async (c) => c.get(`/api/users/${await targetUser()}`),
  },
  {
    name: 'POST /api/users',
    allowed: ADMINS,
    ok: 201,
    write: true,
    denied: 'You do not have permission to create users.',
    call: async (c) =>
      c.post('/api/users', {
        first_name: 'Made',
        last_name: 'ByMatrix',
        email: `made-${unique()}@example.com`,
        password: 'password-123',
        role_id: await t.roleId('user'),
      }),
  },
  {
    name: 'POST /api/users/{id}',
    allowed: ADMINS,
    write: true,
    call: async (c) => c.post(`/api/users/${await targetUser()}`, { last_name: 'Updated' }),
  },
  {
    name: 'PUT /api/users/{id}',
    allowed: ADMINS,
    write: true,
    call: async (c) => c.put(`/api/users/${await targetUser()}`, { last_name: 'Put' }),
  },
  {
    name: 'DELETE /api/users/{id}',
    allowed: ADMINS,
    write: true,
    call: async (c) => c.delete(`/api/users/${await targetUser()}`),
  },
  {
    name: 'POST /api/users/{id}/restore',
    allowed: ADMINS,
    write: true,
    call: async (c) => c.post(`/api/users/${await targetUser(true)}/restore`),
  },
  { name: 'GET /api/users?only_trashed=1', allowed: ADMINS, call: (c) => c.get('/api/users?only_trashed=1') },
  {
    name: 'POST /api/users/{id}/goals',
    allowed: ADMINS,
    write: true,
    call: async (c) => c.post(`/api/users/${await targetUser()}/goals`, { calls: 3 }),
  },
  {
    name: 'GET /api/roles',
    allowed: ADMINS,
    call: (c) => c.get('/api/roles'),
    denied: 'You do not have permission to read roles.',
  },
  { name: 'GET /api/roles/{id}', allowed: ADMINS, call: async (c) => c.get(`/api/roles/${await t.roleId('user')}`) },
  {
    name: 'POST /api/roles',
    allowed: ADMINS,
    ok: 201,
    write: true,
    call: (c) => c.post('/api/roles', { slug: `matrix-${unique()}`, name: 'Matrix role', permissions: ['team:read'] }),
  },
  {
    name: 'POST /api/roles/{id}',
    allowed: ADMINS,
    write: true,
    call: async (c) =>
      c.post(`/api/roles/${await target('roles', { slug: `r-${unique()}`, name: 'R', permissions: '[]' })}`, {
        name: 'Renamed',
      }),
  },
  {
    name: 'DELETE /api/roles/{id}',
    allowed: ADMINS,
    write: true,
    call: async (c) =>
      c.delete(`/api/roles/${await target('roles', { slug: `r-${unique()}`, name: 'R', permissions: '[]' })}`),
  },
  { name: 'GET /api/teams', allowed: ALL, call: (c) => c.get('/api/teams') },
  {
    name: 'GET /api/teams/{id}',
    allowed: ALL,
    call: async (c) => c.get(`/api/teams/${await target('teams', { name: 'Readable team' })}`),
  },
  {
    name: 'POST /api/teams',
    allowed: ADMINS,
    ok: 201,
    write: true,
    call: (c) => c.post('/api/teams', { name: `Team ${unique()}` }),
    denied: 'You do not have permission to create teams.',
  },
  {
    name: 'POST /api/teams/{id}',
    allowed: ADMINS,
    write: true,
    call: async (c) => c.post(`/api/teams/${await target('teams', { name: 'T' })}`, { name: 'Renamed team' }),
  },
  {
    name: 'DELETE /api/teams/{id}',
    allowed: ADMINS,
    write: true,
    call: async (c) => c.delete(`/api/teams/${await target('teams', { name: 'T' })}`),
  },
  {
    name: 'POST /api/teams/{id}/restore',
    allowed: ADMINS,
    write: true,
    call: async (c) => c.post(`/api/teams/${await target('teams', { name: 'T', deleted_at: new Date() })}/restore`),
  },
  { name: 'GET /api/features', allowed: ALL, call: (c) => c.get('/api/features?per_page=-1') },
  // Feature switches: admin may turn them on and off but not add or remove them.
  {
    name: 'POST /api/features',
    allowed: ['super'],
    ok: 201,
    write: true,
    call: (c) => c.post('/api/features', { slug: `f-${unique()}`, name: 'F' }),
    denied: 'You do not have permission to create features.',
  },
  {
    name: 'POST /api/features/{id}',
    allowed: ADMINS,
    write: true,
    call: async (c) =>
      c.post(`/api/features/${await target('features', { slug: `f-${unique()}`, name: 'F' })}`, { enabled: false }),
  },
  {
    name: 'DELETE /api/features/{id}',
    allowed: ['super'],
    write: true,
    call: async (c) => c.delete(`/api/features/${await target('features', { slug: `f-${unique()}`, name: 'F' })}`),
  },
  {
    name: 'GET /api/revisions',
    allowed: READERS_OF_USERS,
    call: (c) => c.get('/api/revisions'),
    denied: 'You do not have permission to read the history.',
  },
  { name: 'GET /api/options/users', allowed: READERS_OF_USERS, call: (c) => c.get('/api/options/users') },
  { name: 'GET /api/options/roles', allowed: ADMINS, call: (c) => c.get('/api/options/roles') },
  { name: 'GET /api/options/teams', allowed: ALL, call: (c) => c.get('/api/options/teams') },
  {
    name: 'POST /api/auth/impersonate/{id}',
    allowed: ['super'],
    call: async (c) => c.post(`/api/auth/impersonate/${await targetUser()}`),
    denied: 'You do not have permission to impersonate users.',
    cleanup: (c) => c.post('/api/auth/impersonate/leave'),
  },
];

describe('seeded roles', () => {
  it('hold the documented permissions, read through the API', async () => {
    const res = await clients.admin.get('/api/roles?per_page=-1');
    expect(res.status).toBe(200);
    const bySlug = new Map<string, any>(res.body.data.map((role: any) => [role.slug, role]));
    expect([...bySlug.keys()].sort()).toEqual([...ROLES].sort());
    expect(bySlug.get('super')).toMatchObject({ name: 'Super Administrator', incognito: true });
    expect(bySlug.get('admin')).toMatchObject({ name: 'Administrator', incognito: false });
    expect(bySlug.get('super').permissions).toEqual(allPermissions());
    expect(allPermissions().filter((p) => !bySlug.get('admin').permissions.includes(p))).toEqual([
      'feature:create',
      'feature:delete',
      'revision:read:incognito',
      'user:impersonate',
    ]);
    const assistant: string[] = bySlug.get('assistant').permissions;
    expect(assistant).toEqual(expect.arrayContaining(['site:read:union', 'site:read:pla', 'contractor:read:union']));
    expect(assistant).not.toContain('site:read');
    expect(bySlug.get('leader').permissions).toEqual(
      expect.arrayContaining(['user:read', 'revision:read', 'site:delete']),
    );
    expect(bySlug.get('user').permissions).not.toContain('user:read');
    // Each role's members see those permissions on themselves.
    for (const role of ROLES) {
      const me = (await clients[role].get('/api/auth/check')).body.data;
      expect(me.role.slug).toBe(role);
      expect(me.permissions).toEqual(bySlug.get(role).permissions);
    }
  });
});

describe('permission matrix', () => {
  for (const row of matrix) {
    describe(row.name, () => {
      for (const role of ROLES) {
        const allowed = row.allowed.includes(role);
        it(`${role}: ${allowed ? 'allowed' : 'denied'}`, async () => {
          const before = row.write ? await revisionCount() : 0;
          const res = await row.call(clients[role]);
          if (allowed) {
            expect(res.status, JSON.stringify(res.body)).toBe(row.ok ?? 200);
            if (row.write) expect(await revisionCount()).toBe(before + 1);
            await row.cleanup?.(clients[role]);
          } else {
            expect(res.status, JSON.stringify(res.body)).toBe(403);
            expect(Object.keys(res.body)).toEqual(['message']);
            if (row.denied) expect(res.body.message).toBe(row.denied);
            if (row.write) expect(await revisionCount()).toBe(before);
          }
        });
      }
      it('signed out: 401', async () => {
        const res = await row.call(t.client());
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: 'Unauthenticated.' });
      });
    });
  }
});

describe('category permissions filter rows (sites by type)', () => {
  /** A tiny resource over the real sites table, served by the real data service. */
  const sites: ResourceDefinition = {
    name: 'sites',
    type: 'site',
    table: 'sites',
    singular: 'Site',
    fields: {
      name: { kind: 'text', required: true, max: 200 },
      type: {
        kind: 'enum',
        required: true,
        options: ['development', 'lcmt', 'non-union', 'pla', 'public-works', 'union', 'pending'],
      },
    },
    search: ['name'],
    defaultSort: { field: 'name', order: 'asc' },
    softDelete: true,
    restorable: true,
    categoryColumn: 'type',
  };
  const TYPES = ['union', 'union', 'pla', 'non-union', 'development', 'lcmt', 'public-works'];
  const ids: Record<string, number[]> = {};
  let writer: AuthUser;

  /** A role made through the API with exactly these permissions, and a user holding it (as the service sees them). */
  async function personWith(permissions: string[]): Promise<AuthUser> {
    const slug = `cat-${unique()}`;
    const role = await clients.admin.post('/api/roles', { slug, name: `Category ${slug}`, permissions });
    expect(role.status).toBe(201);
    expect(role.body.data.permissions).toEqual([...permissions].sort());
    const user = await t.createUser({ role: slug });
    return (await loadAuthUser(t.ctx.db, user.id))!;
  }
  async function seeded(role: Role) {
    return (await loadAuthUser(t.ctx.db, users[role].id))!;
  }
  const typesSeen = (rows: Record<string, any>[]) => [...new Set(rows.map((r) => r.type))].sort();

  beforeAll(async () => {
    // The admin role is not incognito, so its writes show in everyone's history.
    writer = (await loadAuthUser(t.ctx.db, users.admin.id))!;
    for (const [i, type] of TYPES.entries()) {
      const { record } = await t.ctx.records.create(writer, sites, { name: `Site ${i} ${type}`, type });
      (ids[type] ??= []).push(record.id);
    }
  });

  const cases: Array<{ who: string; person: () => Promise<AuthUser>; sees: string[] | 'denied' }> = [
    { who: 'a role with site:read:union only', person: () => personWith(['site:read:union']), sees: ['union'] },
    {
      who: 'a role with site:read:lcmt and site:read:development',
      person: () => personWith(['site:read:lcmt', 'site:read:development']),
      sees: ['development', 'lcmt'],
    },
    { who: 'the seeded assistant (union, pla)', person: () => seeded('assistant'), sees: ['pla', 'union'] },
    {
      who: 'the seeded leader (site:read)',
      person: () => seeded('leader'),
      sees: ['development', 'lcmt', 'non-union', 'pla', 'public-works', 'union'],
    },
    {
      who: 'the seeded user (site:read)',
      person: () => seeded('user'),
      sees: ['development', 'lcmt', 'non-union', 'pla', 'public-works', 'union'],
    },
    {
      who: 'the seeded admin',
      person: () => seeded('admin'),
      sees: ['development', 'lcmt', 'non-union', 'pla', 'public-works', 'union'],
    },
    { who: 'a role with no site permission', person: () => personWith(['team:read']), sees: 'denied' },
  ];

  for (const { who, person, sees } of cases) {
    it(`list: ${who} ${sees === 'denied' ? 'is refused' : `sees ${sees.join(', ')}`}`, async () => {
      const subject = await person();
      if (sees === 'denied') {
        await expect(t.ctx.records.list(subject, sites, {})).rejects.toMatchObject({ statusCode: 403 });
        return;
      }
      const result = await t.ctx.records.list(subject, sites, { per_page: '-1' });
      expect(typesSeen(result.data)).toEqual(sees);
      const expectedCount = TYPES.filter((type) => sees.includes(type)).length;
      expect(result.meta.total).toBe(expectedCount);
      expect(result.data).toHaveLength(expectedCount);
      // Filters and search cannot reach rows outside the permitted categories.
      const filtered = await t.ctx.records.list(subject, sites, { 'filter[type]': 'non-union', search: 'Site' });
      expect(filtered.meta.total).toBe(sees.includes('non-union') ? 1 : 0);
    });
  }

  it('show: a row outside the permitted categories is 404, as if it did not exist', async () => {
    const unionOnly = await personWith(['site:read:union']);
    const visible = await t.ctx.records.show(unionOnly, sites, ids.union[0]);
    expect(visible).toMatchObject({ id: ids.union[0], type: 'union' });
    await expect(t.ctx.records.show(unionOnly, sites, ids['non-union'][0])).rejects.toMatchObject({ statusCode: 404 });
  });

  it('writes: category create, update and delete permissions apply to the old and the new category', async () => {
    const worker = await personWith(['site:read:union', 'site:create:union', 'site:update:union', 'site:delete:union']);
    const { record } = await t.ctx.records.create(worker, sites, { name: 'Worker union site', type: 'union' });
    expect(record.type).toBe('union');
    await expect(
      t.ctx.records.create(worker, sites, { name: 'Worker non-union site', type: 'non-union' }),
    ).rejects.toMatchObject({ statusCode: 403 });
    const updated = await t.ctx.records.update(worker, sites, record.id, { name: 'Renamed union site' });
    expect(updated.record.name).toBe('Renamed union site');
    // Moving a row to a category one may not write is refused, and nothing changes.
    await expect(t.ctx.records.update(worker, sites, record.id, { type: 'non-union' })).rejects.toMatchObject({
      statusCode: 403,
    });
    expect(
      (await t.ctx.db.selectFrom('sites').select('type').where('id', '=', record.id).executeTakeFirstOrThrow()).type,
    ).toBe('union');
    // Rows of other categories are invisible to writes too.
    await expect(t.ctx.records.update(worker, sites, ids.pla[0], { name: 'Nope' })).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(t.ctx.records.remove(worker, sites, ids.pla[0])).rejects.toMatchObject({ statusCode: 404 });
    await t.ctx.records.remove(worker, sites, record.id);
    expect(
      (await t.ctx.db.selectFrom('sites').select('deleted_at').where('id', '=', record.id).executeTakeFirstOrThrow())
        .deleted_at,
    ).not.toBeNull();
    // Read-only category holders cannot write at all.
    const reader = await personWith(['site:read:union']);
    await expect(t.ctx.records.update(reader, sites, ids.union[0], { name: 'Nope' })).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('history (GET /api/revisions) and pickers (GET /api/options) follow the same row rules', async () => {
    // Served by the generic routes only when the sites resource is registered; register ours if none is yet.
    if (!t.ctx.resources.get('sites')) t.ctx.resources.add(sites);
    const slug = `hist-${unique()}`;
    expect(
      (
        await clients.admin.post('/api/roles', {
          slug,
          name: 'History reader',
          permissions: ['site:read:union', 'revision:read'],
        })
      ).status,
    ).toBe(201);
    const reader = await t.createUser({ role: slug });
    const client = await t.signIn(reader.email);

    const history = await client.get('/api/revisions?type=site&per_page=200');
    expect(history.status).toBe(200);
    const seenIds = new Set(history.body.data.map((r: any) => r.revisionable_id));
    const unionIds = (await t.ctx.db.selectFrom('sites').select('id').where('type', '=', 'union').execute()).map(
      (r) => r.id,
    );
    expect([...seenIds].sort()).toEqual([...unionIds].sort());
    expect(history.body.meta.total).toBe(history.body.data.length);
    // Users' history is not theirs to read at all.
    expect((await client.get('/api/revisions?type=user')).body.meta.total).toBe(0);

    const options = await client.get('/api/options/sites');
    expect(options.status).toBe(200);
    expect(options.body.data.map((o: any) => o.id).sort()).toEqual(
      (
        await t.ctx.db
          .selectFrom('sites')
          .select('id')
          .where('type', '=', 'union')
          .where('deleted_at', 'is', null)
          .execute()
      )
        .map((r) => r.id)
        .sort(),
    );
    const all = await clients.leader.get('/api/options/sites');
    expect(all.body.data).toHaveLength(
      Number(
        (
          await t.ctx.db
            .selectFrom('sites')
            .select(sql<number>`count(*)`.as('n'))
            .where('deleted_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
  });
});
