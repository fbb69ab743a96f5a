import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthUser } from '../../src/server/auth/load-user.js';
import { dynamicTables } from '../../src/server/db/dynamic-tables.js';
import type { ResourceDefinition } from '../../src/server/records/resource.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Dashboard figures against a hand-counted fixture, then every figure of the dashboard and the reports against the
 * list it links to, on the demo data ("numbers people can trust").
 */

/**
 * Where a resource is not served yet by the generic routes, its list is still counted by the record service's own
 * list code (`RecordService.list`, the same filter parsing and visibility) with these definitions.
 */
const LIST_FALLBACKS: Record<string, Partial<ResourceDefinition>> = {
  sites: {
    type: 'site',
    table: 'sites',
    categoryColumn: 'type',
    softDelete: true,
    fields: {
      type: { kind: 'text' },
      site_status_id: { kind: 'integer' },
      team_id: { kind: 'integer' },
      user_id: { kind: 'integer' },
      region_ids: { kind: 'integer[]', storage: { pivot: 'site_regions', ownKey: 'site_id', otherKey: 'region_id' } },
    },
  },
  tasks: {
    type: 'task',
    table: 'tasks',
    softDelete: true,
    fields: {
      type: { kind: 'text' },
      assignee_id: { kind: 'integer' },
      completed_at: { kind: 'datetime' },
      due_at: { kind: 'datetime' },
    },
  },
  recruits: {
    type: 'recruit',
    table: 'recruits',
    softDelete: true,
    fields: { user_id: { kind: 'integer' }, signed_at: { kind: 'date' } },
  },
  grievances: {
    type: 'grievance',
    table: 'grievances',
    softDelete: true,
    fields: { status: { kind: 'text' }, team_id: { kind: 'integer' } },
  },
  members: {
    type: 'member',
    table: 'members',
    softDelete: true,
    fields: {
      classification_id: { kind: 'integer' },
      is_steward: { kind: 'boolean' },
      union_id: { kind: 'integer' },
      trade_id: { kind: 'integer' },
      team_id: { kind: 'integer' },
    },
  },
  contacts: {
    type: 'contact',
    table: 'contacts',
    softDelete: true,
    fields: {
      classification_id: { kind: 'integer', storage: 'custom' },
      trade_id: { kind: 'integer' },
      team_id: { kind: 'integer' },
    },
  },
};

/** `meta.total` of the list a figure links to, as `GET /api/{resource}?filter=...` answers it for this person. */
export async function listTotal(
  app: TestApp,
  client: TestClient,
  userId: number,
  link: { resource: string; filter: Record<string, unknown> },
): Promise<number> {
  if (app.ctx.resources.get(link.resource)) {
    const res = await client.get(
      `/api/${link.resource}?per_page=1&filter=${encodeURIComponent(JSON.stringify(link.filter))}`,
    );
    expect(res.status, `${link.resource} ${JSON.stringify(link.filter)}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.meta.total;
  }
  const fallback = LIST_FALLBACKS[link.resource];
  if (!fallback) throw new Error(`No list for ${link.resource}`);
  const def = {
    name: link.resource,
    singular: link.resource,
    restorable: false,
    fields: {},
    ...fallback,
  } as ResourceDefinition;
  const user = await loadAuthUser(app.ctx.db, userId);
  const result = await app.ctx.records.list(user, def, { per_page: '1', filter: JSON.stringify(link.filter) });
  return result.meta.total;
}

let t: TestApp;
let admin: TestClient;
const ids: Record<string, number> = {};

async function insert(table: string, values: Record<string, unknown>): Promise<number> {
  const row = await dynamicTables(t.ctx.db).insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
  return row.id as number;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  ids.team = (await admin.post('/api/teams', { name: 'Harbor Team' })).body.data.id;
  ids.alma = (
    await t.createUser({ role: 'user', first_name: 'Alma', email: 'alma@example.com', team_id: ids.team })
  ).id;
  ids.boris = (
    await t.createUser({ role: 'user', first_name: 'Boris', email: 'boris@example.com', team_id: ids.team })
  ).id;
  ids.ana = (await t.createUser({ role: 'assistant', first_name: 'Ana', email: 'assistant@example.com' })).id;
  await admin.post(`/api/users/${ids.alma}/goals`, { calls: 10, meetings: 4, visits: 6, recruits: 2 });
  await admin.post(`/api/users/${ids.alma}/goals`, { period: '2025-03', calls: 8 });
  await admin.post(`/api/users/${ids.boris}/goals`, { calls: 1, meetings: 1, visits: 1, recruits: 1 });

  const task = (values: Record<string, unknown>) => insert('tasks', { title: 'Task', ...values });
  // Alma, March 2025: 2 calls and 1 visit done; 1 meeting done in April; 2 open (one overdue, one due next year).
  await task({ type: 'call', assignee_id: ids.alma, completed_at: '2025-03-03T12:00:00Z' });
  await task({ type: 'call', assignee_id: ids.alma, completed_at: '2025-03-30T12:00:00Z' });
  await task({ type: 'visit', assignee_id: ids.alma, completed_at: '2025-03-15T12:00:00Z' });
  await task({ type: 'meeting', assignee_id: ids.alma, completed_at: '2025-04-02T12:00:00Z' });
  await task({ type: 'call', assignee_id: ids.alma, due_at: '2025-01-10T12:00:00Z' });
  await task({ type: 'visit', assignee_id: ids.alma, due_at: new Date(Date.now() + 365 * 86_400_000) });
  await task({ type: 'call', assignee_id: ids.alma, deleted_at: new Date() });
  // Boris: 1 meeting done in March, 1 open.
  await task({ type: 'meeting', assignee_id: ids.boris, completed_at: '2025-03-20T12:00:00Z' });
  await task({ type: 'call', assignee_id: ids.boris });
  // Recruits: Alma signed one in March, Boris one in March.
  await insert('recruits', { first_name: 'R1', user_id: ids.alma, signed_at: '2025-03-05' });
  await insert('recruits', { first_name: 'R2', user_id: ids.boris, signed_at: '2025-03-06' });
  await insert('recruits', { first_name: 'R3', user_id: ids.alma });
  // Grievances: 2 open (one of the team), 1 closed, 1 open but deleted.
  await insert('grievances', { title: 'G1', status: 'open', team_id: ids.team });
  await insert('grievances', { title: 'G2', status: 'open' });
  await insert('grievances', { title: 'G3', status: 'closed' });
  await insert('grievances', { title: 'G4', status: 'open', deleted_at: new Date() });
  // Notifications of Alma: 1 unread, 1 read, 1 dismissed.
  await insert('notifications', { user_id: ids.alma, title: 'N1' });
  await insert('notifications', { user_id: ids.alma, title: 'N2', read_at: new Date() });
  await insert('notifications', { user_id: ids.alma, title: 'N3', dismissed_at: new Date() });
  // Sites: 3 union (one of the team, one in the region, one created this week), 2 non-union, 1 mega, 1 deleted union.
  ids.region = await insert('regions', { name: 'Bay', geometry_type: 'county', code: 'B' });
  const statuses = await t.ctx.db.selectFrom('site_statuses').select(['id', 'name']).orderBy('position').execute();
  ids.status1 = statuses[0].id;
  const old = '2025-01-01T12:00:00Z';
  const s1 = await insert('sites', {
    name: 'U1',
    type: 'union',
    site_status_id: ids.status1,
    team_id: ids.team,
    created_at: old,
  });
  const s2 = await insert('sites', { name: 'U2', type: 'union', site_status_id: ids.status1, created_at: old });
  await insert('sites', { name: 'U3', type: 'union', created_at: new Date() });
  await insert('sites', { name: 'N1', type: 'non-union', site_status_id: ids.status1, created_at: old });
  await insert('sites', { name: 'N2', type: 'non-union', created_at: new Date() });
  await insert('sites', { name: 'M1', type: 'mega', created_at: old });
  await insert('sites', { name: 'D1', type: 'union', deleted_at: new Date(), created_at: new Date() });
  await t.ctx.db
    .insertInto('site_regions')
    .values([{ site_id: s2, region_id: ids.region }])
    .execute();
  void s1;
});
afterAll(async () => {
  await t?.close();
});

const figure = (body: any, key: string) => body.data.figures.find((f: any) => f.key === key);

describe('GET /api/dashboard/statistics', () => {
  it('needs a sign-in; without parameters it is the sidebar counts of the person', async () => {
    expect((await t.client().get('/api/dashboard/statistics')).status).toBe(401);
    const alma = await t.signIn('alma@example.com');
    const res = await alma.get('/api/dashboard/statistics');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      tasks_open: 2,
      tasks_overdue: 1,
      notifications_unread: 1,
      grievances_open: 2,
    });
  });

  it("counts the person's calls, meetings, visits and recruits in the range against their goals", async () => {
    const alma = await t.signIn('alma@example.com');
    const res = await alma.get('/api/dashboard/statistics?from=2025-03-01&to=2025-03-31');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      calls: 2,
      meetings: 0,
      visits: 1,
      recruits: 1,
      goals: { calls: 8, meetings: 4, visits: 6, recruits: 2 },
      range: { from: '2025-03-01', to: '2025-03-31' },
    });
    expect(figure(res.body, 'calls')).toMatchObject({
      value: 2,
      goal: 8,
      link: {
        resource: 'tasks',
        filter: { assignee_id: ids.alma, type: 'call', completed_at_gte: '2025-03-01', completed_at_lt: '2025-04-01' },
      },
    });
    const april = await alma.get('/api/dashboard/statistics?from=2025-04-01&to=2025-04-30');
    expect(april.body.data).toMatchObject({ calls: 0, meetings: 1, goals: { calls: 10 } });
  });

  it("a team's figures add up its people and their goals, and need report:read", async () => {
    const alma = await t.signIn('alma@example.com');
    const res = await alma.get(`/api/dashboard/statistics?from=2025-03-01&to=2025-03-31&team_id=${ids.team}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      calls: 2,
      meetings: 1,
      visits: 1,
      recruits: 2,
      tasks_open: 3,
      grievances_open: 1,
      goals: { calls: 9, meetings: 5, visits: 7, recruits: 3 },
    });
    const ana = await t.signIn('assistant@example.com');
    expect((await ana.get(`/api/dashboard/statistics?team_id=${ids.team}`)).status).toBe(403);
    expect((await ana.get(`/api/dashboard/statistics?user_id=${ids.alma}`)).status).toBe(403);
  });

  it('an empty filter is no filter: every role gets its figures when a form sends team_id= and region_id=', async () => {
    for (const email of ['alma@example.com', 'assistant@example.com']) {
      const person = await t.signIn(email);
      for (const path of ['/api/dashboard/statistics', '/api/dashboard/data']) {
        const empty = await person.get(`${path}?from=2025-03-01&to=2025-03-31&team_id=&region_id=&user_id=`);
        expect(empty.status, `${email} ${path}`).toBe(200);
        const none = await person.get(`${path}?from=2025-03-01&to=2025-03-31`);
        const values = (body: any) => body.data.figures.map((f: any) => [f.key, f.value]);
        expect(values(empty.body)).toEqual(values(none.body));
      }
    }
  });

  it('leaves out what the person may not read', async () => {
    const ana = await t.signIn('assistant@example.com');
    const res = await ana.get('/api/dashboard/statistics');
    expect(res.status).toBe(200);
    // The assistant role reads tasks but not recruits or grievances.
    expect(res.body.data.recruits).toBeNull();
    expect(res.body.data.grievances_open).toBeNull();
    expect(res.body.data.figures.map((f: any) => f.key)).toEqual([
      'tasks_open',
      'tasks_overdue',
      'calls',
      'meetings',
      'visits',
    ]);
  });

  it('GET /api/profile/statistics gives the person their own month', async () => {
    const alma = await t.signIn('alma@example.com');
    const res = await alma.get('/api/profile/statistics?month=2025-03');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      calls: 2,
      visits: 1,
      recruits: 1,
      goals: { calls: 8 },
      scope: { kind: 'me', user_ids: [ids.alma] },
    });
    expect((await alma.get('/api/profile/statistics?month=2025-13')).status).toBe(422);
  });
});

describe('GET /api/dashboard/data', () => {
  it('counts sites by category and status, new this week, narrowed by team and region', async () => {
    const res = await admin.get('/api/dashboard/data');
    expect(res.status).toBe(200);
    const byType = Object.fromEntries(res.body.data.sites_by_type.map((r: any) => [r.key, r.value]));
    expect(byType).toEqual({ union: 3, 'non-union': 2, mega: 1 });
    expect(res.body.data.sites_total).toBe(6);
    expect(res.body.data.sites_new_week).toBe(2);
    const status = res.body.data.sites_by_status.find((r: any) => r.key === ids.status1);
    expect(status.value).toBe(3);
    expect(res.body.data.sites_by_status.find((r: any) => r.key === null)).toMatchObject({
      label: 'No status',
      value: 3,
    });
    expect(res.body.data.sites_by_type.find((r: any) => r.key === 'union').link).toEqual({
      resource: 'sites',
      filter: { type: 'union' },
    });

    const team = await admin.get(`/api/dashboard/data?team_id=${ids.team}`);
    expect(team.body.data.sites_total).toBe(1);
    const region = await admin.get(`/api/dashboard/data?region_id=${ids.region}`);
    expect(region.body.data.sites_total).toBe(1);
    expect(region.body.data.sites_by_type[0].link).toEqual({
      resource: 'sites',
      filter: { region_ids: [ids.region], type: 'union' },
    });
  });

  it('counts only the sites the person may read', async () => {
    const ana = await t.signIn('assistant@example.com');
    const res = await ana.get('/api/dashboard/data');
    expect(res.status).toBe(200);
    expect(res.body.data.sites_total).toBe(3); // union only: the assistant may read union and PLA sites
    expect(res.body.data.sites_by_type.map((r: any) => r.key)).toEqual(['union']);
  });
});

describe('every figure equals its list (fixture)', () => {
  it('for the person, the team and the sites', async () => {
    for (const [email, userId] of [
      ['alma@example.com', ids.alma],
      ['assistant@example.com', ids.ana],
    ] as const) {
      const client = await t.signIn(email);
      for (const query of ['', '?from=2025-03-01&to=2025-03-31']) {
        const stats = await client.get(`/api/dashboard/statistics${query}`);
        const data = await client.get(`/api/dashboard/data${query}`);
        for (const f of [...stats.body.data.figures, ...data.body.data.figures]) {
          expect(await listTotal(t, client, userId, f.link), `${email} ${f.key} ${JSON.stringify(f.link)}`).toBe(
            f.value,
          );
        }
      }
    }
  });
});

describe('every figure equals its list (demo data)', () => {
  let demo: TestApp;
  beforeAll(async () => {
    demo = await startTestApp({ SEED_DEMO: '1' });
  });
  afterAll(async () => {
    await demo?.close();
  });

  it('on the dashboard and in the reports, for an administrator, a leader, an organizer and an assistant', async () => {
    const people = await demo.ctx.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', 'in', [
        'admin@example.com',
        'leader@example.com',
        'organizer@example.com',
        'assistant@example.com',
      ])
      .execute();
    expect(people).toHaveLength(4);
    let checked = 0;
    for (const person of people) {
      const client =
        person.email === 'admin@example.com'
          ? await demo.admin()
          : await demo.signIn(person.email, 'admin-password-123');
      const check = async (link: any, value: number | null, what: string) => {
        if (!link || value === null) return;
        expect(await listTotal(demo, client, person.id, link), `${person.email} ${what} ${JSON.stringify(link)}`).toBe(
          value,
        );
        checked++;
      };
      const month = new Date().toISOString().slice(0, 7);
      for (const query of [
        '',
        `?from=${month}-01&to=${new Date().toISOString().slice(0, 10)}`,
        '?from=2020-01-01&to=2030-12-31',
      ]) {
        const stats = await client.get(`/api/dashboard/statistics${query}`);
        expect(stats.status).toBe(200);
        const data = await client.get(`/api/dashboard/data${query}`);
        expect(data.status).toBe(200);
        for (const f of [...stats.body.data.figures, ...data.body.data.figures]) await check(f.link, f.value, f.key);
      }
      const perf = await client.get('/api/reports/task-performance?from=2020-01-01&to=2030-12-31&interval=month');
      if (perf.status === 200) {
        for (const row of perf.body.data)
          for (const key of ['calls', 'meetings', 'visits', 'done', 'due', 'overdue'] as const)
            await check(row.links[key], row[key], `task-performance ${row.label} ${row.period} ${key}`);
      }
      const team = await client.get('/api/reports/task-performance?from=2020-01-01&to=2030-12-31&group_by=team');
      if (team.status === 200)
        for (const row of team.body.data) await check(row.links.done, row.done, `task-performance team ${row.label}`);
      const users = await client.get('/api/reports/user-performance?from=2020-01-01&to=2030-12-31');
      if (users.status === 200) {
        for (const row of users.body.data)
          for (const key of ['calls', 'meetings', 'visits', 'recruits'] as const)
            await check(row.links[key], row.done[key], `user-performance ${row.name} ${key}`);
      }
      const classes = await client.get('/api/reports/classifications');
      if (classes.status === 200) {
        for (const row of classes.body.data)
          for (const key of ['members', 'stewards', 'contacts'] as const)
            await check(row.links[key], row[key], `classifications ${row.label} ${key}`);
      }
      const share = await client.get('/api/reports/market-share?group_by=site_type');
      if (share.status === 200) {
        for (const row of share.body.data)
          await check({ resource: 'sites', filter: { type: row.key } }, row.total.sites, `market share ${row.label}`);
        for (const row of share.body.data) {
          const drill = await client.get(
            `/api/reports/market-share/sites?${new URLSearchParams({ ...row.link, labour: 'union' })}`,
          );
          expect(drill.body.meta.total).toBe(row.union.sites);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  }, 180_000); // Every figure of four people against its list: many requests, on a demo database.
});
