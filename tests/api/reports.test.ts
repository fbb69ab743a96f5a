import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamicTables } from '../../src/server/db/dynamic-tables.js';
import { csvCell } from '../../src/server/exports/csv.js';
import { toCsv } from '../../src/server/reports/csv.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The reports against a small hand-counted fixture (written straight into the tables, so the numbers below are
 * counted by hand from this file, not by the code under test).
 *
 * Contractors: CU union, CN non-union, CG general, CX none.
 * Sites (value / hours; created; regions; trades):
 *   S1 pending,     GC CU            -> union (contractor)          100/10  2025-01-15  North      T1
 *   S2 union,       linked CN        -> non-union (contractor wins) 200/20  2025-01-20  North      T1,T2
 *   S3 non-union,   linked CU and CN -> union (any union contractor) 300/30 2025-02-03  South      T2
 *   S4 pla,         none             -> union (own type)            400/40  2025-02-28  South
 *   S5 non-union,   GC CG            -> non-union (own type)        500/50  2025-03-01  North,South
 *   S6 mega,        none             -> unknown                     600/60  now         -
 *   S7 union,       deleted          -> not counted                 700/70
 *   S8 development, linked CX        -> unknown                     800/80  2025-04-10  North
 */
let t: TestApp;
let admin: TestClient;
const ids: Record<string, number> = {};

async function insert(table: string, values: Record<string, unknown>): Promise<number> {
  const row = await dynamicTables(t.ctx.db).insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
  return row.id as number;
}

async function fixture() {
  ids.north = await insert('regions', { name: 'North', geometry_type: 'county', code: 'N' });
  ids.south = await insert('regions', { name: 'South', geometry_type: 'county', code: 'S' });
  const trades = await t.ctx.db.selectFrom('trades').select(['id', 'name']).orderBy('id').limit(2).execute();
  ids.t1 = trades[0].id;
  ids.t2 = trades[1].id;
  for (const [key, type] of [
    ['cu', 'union'],
    ['cn', 'non-union'],
    ['cg', 'general'],
    ['cx', 'none'],
  ] as const)
    ids[key] = await insert('contractors', { name: `Contractor ${key}`, type });
  const site = (
    name: string,
    type: string,
    value: number,
    created: string | Date,
    extra: Record<string, unknown> = {},
  ) =>
    insert('sites', {
      name,
      type,
      estimated_value: value,
      estimated_hours: value / 10,
      created_at: created,
      updated_at: created,
      ...extra,
    });
  ids.s1 = await site('S1', 'pending', 100, '2025-01-15T12:00:00Z', { general_contractor_id: ids.cu });
  ids.s2 = await site('S2', 'union', 200, '2025-01-20T12:00:00Z');
  ids.s3 = await site('S3', 'non-union', 300, '2025-02-03T12:00:00Z');
  ids.s4 = await site('S4', 'pla', 400, '2025-02-28T12:00:00Z');
  ids.s5 = await site('S5', 'non-union', 500, '2025-03-01T12:00:00Z', { general_contractor_id: ids.cg });
  ids.s6 = await site('S6', 'mega', 600, new Date());
  ids.s7 = await site('S7', 'union', 700, '2025-03-05T12:00:00Z', { deleted_at: new Date() });
  ids.s8 = await site('S8', 'development', 800, '2025-04-10T12:00:00Z');
  await t.ctx.db
    .insertInto('site_contractors')
    .values([
      { site_id: ids.s2, contractor_id: ids.cn },
      { site_id: ids.s3, contractor_id: ids.cu },
      { site_id: ids.s3, contractor_id: ids.cn },
      { site_id: ids.s7, contractor_id: ids.cu },
      { site_id: ids.s8, contractor_id: ids.cx },
    ])
    .execute();
  await t.ctx.db
    .insertInto('site_regions')
    .values([
      { site_id: ids.s1, region_id: ids.north },
      { site_id: ids.s2, region_id: ids.north },
      { site_id: ids.s3, region_id: ids.south },
      { site_id: ids.s4, region_id: ids.south },
      { site_id: ids.s5, region_id: ids.north },
      { site_id: ids.s5, region_id: ids.south },
      { site_id: ids.s7, region_id: ids.north },
      { site_id: ids.s8, region_id: ids.north },
    ])
    .execute();
  await t.ctx.db
    .insertInto('site_trades')
    .values([
      { site_id: ids.s1, trade_id: ids.t1 },
      { site_id: ids.s2, trade_id: ids.t1 },
      { site_id: ids.s2, trade_id: ids.t2 },
      { site_id: ids.s3, trade_id: ids.t2 },
    ])
    .execute();
}

/** The people and tasks of the performance reports (March 2025). */
async function peopleFixture() {
  ids.teamA = (await admin.post('/api/teams', { name: 'Team A' })).body.data.id;
  ids.teamB = (await admin.post('/api/teams', { name: 'Team B' })).body.data.id;
  const a = await t.createUser({
    role: 'user',
    first_name: 'Alma',
    last_name: 'Aa',
    email: 'alma@example.com',
    team_id: ids.teamA,
  });
  const b = await t.createUser({
    role: 'user',
    first_name: 'Boris',
    last_name: 'Bb',
    email: 'boris@example.com',
    team_id: ids.teamA,
  });
  ids.a = a.id;
  ids.b = b.id;
  await t.ctx.db
    .insertInto('team_user')
    .values([{ team_id: ids.teamB, user_id: ids.b }])
    .onConflict((oc) => oc.doNothing())
    .execute();
  const task = (values: Record<string, unknown>) => insert('tasks', { title: 'Task', ...values });
  // Alma
  await task({
    type: 'call',
    assignee_id: ids.a,
    completed_at: '2025-03-05T12:00:00Z',
    due_at: '2025-03-06T12:00:00Z',
  });
  await task({ type: 'call', assignee_id: ids.a, completed_at: '2025-03-10T12:00:00Z' });
  await task({
    type: 'meeting',
    assignee_id: ids.a,
    completed_at: '2025-02-27T12:00:00Z',
    due_at: '2025-03-02T12:00:00Z',
  });
  await task({ type: 'visit', assignee_id: ids.a, due_at: '2025-03-15T12:00:00Z' });
  await task({ type: 'visit', assignee_id: ids.a, due_at: '2025-04-02T12:00:00Z' });
  await task({ type: 'call', assignee_id: ids.a, completed_at: '2025-03-20T12:00:00Z', deleted_at: new Date() });
  // Boris
  await task({
    type: 'visit',
    assignee_id: ids.b,
    completed_at: '2025-03-31T12:00:00Z',
    due_at: '2025-03-31T09:00:00Z',
  });
  await task({
    type: 'meeting',
    assignee_id: ids.b,
    completed_at: '2025-04-01T12:00:00Z',
    due_at: '2025-03-25T12:00:00Z',
  });
  await task({ type: 'call', assignee_id: ids.b, due_at: '2025-03-28T12:00:00Z' });
  // Nobody
  await task({ type: 'call', due_at: '2025-03-12T12:00:00Z' });
  // Recruits of Alma: one signed in March, one in April, one not signed.
  await insert('recruits', { first_name: 'R1', user_id: ids.a, signed_at: '2025-03-10' });
  await insert('recruits', { first_name: 'R2', user_id: ids.a, signed_at: '2025-04-01' });
  await insert('recruits', { first_name: 'R3', user_id: ids.a });
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  await fixture();
  await peopleFixture();
});
afterAll(async () => {
  await t?.close();
});

const figures = (sites: number, value: number, hours: number) => ({ sites, value, hours });
const rowOf = (body: any, label: string) => body.data.find((r: any) => r.label === label);

/** A role with reports but only union, PLA and development sites and union contractors. */
async function analyst(): Promise<TestClient> {
  const role = await admin.post('/api/roles', {
    slug: 'analyst',
    name: 'Analyst',
    permissions: ['report:read', 'site:read:union', 'site:read:pla', 'site:read:development', 'contractor:read:union'],
  });
  expect(role.status).toBe(201);
  await t.roleId('analyst');
  const user = await t.createUser({ role: 'analyst', email: 'analyst@example.com' });
  expect(user.id).toBeGreaterThan(0);
  return t.signIn('analyst@example.com');
}

describe('GET /api/reports/market-share', () => {
  it('counts union, non-union and unknown work by the documented rule', async () => {
    const res = await admin.get('/api/reports/market-share?group_by=none');
    expect(res.status).toBe(200);
    expect(res.body.totals.union).toEqual(figures(3, 800, 80)); // S1, S3, S4
    expect(res.body.totals.non_union).toEqual(figures(2, 700, 70)); // S2, S5
    expect(res.body.totals.unknown).toEqual(figures(2, 1400, 140)); // S6, S8
    expect(res.body.totals.share).toEqual({ sites: 60, value: 53.3, hours: 53.3 });
    expect(res.body.data).toHaveLength(1);
  });

  it('groups by region: a site in two regions counts in each, the total once', async () => {
    const res = await admin.get('/api/reports/market-share?group_by=region');
    expect(res.status).toBe(200);
    const north = rowOf(res.body, 'North');
    expect(north.union).toEqual(figures(1, 100, 10)); // S1
    expect(north.non_union).toEqual(figures(2, 700, 70)); // S2, S5
    expect(north.unknown).toEqual(figures(1, 800, 80)); // S8
    const south = rowOf(res.body, 'South');
    expect(south.union).toEqual(figures(2, 700, 70)); // S3, S4
    expect(south.non_union).toEqual(figures(1, 500, 50)); // S5
    expect(south.share.sites).toBe(66.7);
    expect(rowOf(res.body, 'None').unknown).toEqual(figures(1, 600, 60)); // S6
    expect(res.body.totals.total.sites).toBe(7);
  });

  it('groups by trade, site type and month, and filters by dates and region', async () => {
    const trade = await admin.get('/api/reports/market-share?group_by=trade');
    const trades = await t.ctx.db
      .selectFrom('trades')
      .select(['id', 'name'])
      .where('id', 'in', [ids.t1, ids.t2])
      .execute();
    const name = (id: number) => trades.find((r) => r.id === id)!.name;
    expect(rowOf(trade.body, name(ids.t1)).union.sites).toBe(1);
    expect(rowOf(trade.body, name(ids.t1)).non_union.sites).toBe(1);
    expect(rowOf(trade.body, name(ids.t2)).union.sites).toBe(1);
    expect(rowOf(trade.body, name(ids.t2)).non_union.sites).toBe(1);
    expect(rowOf(trade.body, 'None').total.sites).toBe(4); // S4, S5, S6, S8

    const type = await admin.get('/api/reports/market-share?group_by=site_type');
    const byKey = Object.fromEntries(type.body.data.map((r: any) => [r.key, r]));
    expect(byKey['non-union'].union.sites).toBe(1); // S3
    expect(byKey['non-union'].non_union.sites).toBe(1); // S5
    expect(byKey.union.non_union.sites).toBe(1); // S2
    expect(byKey.pla.union.sites).toBe(1);
    expect(byKey.mega.unknown.sites).toBe(1);

    const period = await admin.get(
      '/api/reports/market-share?group_by=period&interval=month&from=2025-01-01&to=2025-04-30',
    );
    expect(period.body.data.map((r: any) => r.key)).toEqual(['2025-01', '2025-02', '2025-03', '2025-04']);
    expect(period.body.data[0].union.sites).toBe(1);
    expect(period.body.data[0].non_union.sites).toBe(1);
    expect(period.body.data[1].union).toEqual(figures(2, 700, 70));

    const filtered = await admin.get('/api/reports/market-share?group_by=none&from=2025-02-01&to=2025-03-31');
    expect(filtered.body.totals.union.sites).toBe(2); // S3, S4
    expect(filtered.body.totals.non_union.sites).toBe(1); // S5
    expect(filtered.body.totals.unknown.sites).toBe(0);

    const region = await admin.get(`/api/reports/market-share?group_by=site_type&region_id=${ids.south}`);
    expect(region.body.totals.total.sites).toBe(3); // S3, S4, S5
  });

  it('each cell opens the sites it counts (the drill-down list total equals the cell)', async () => {
    for (const group of ['region', 'trade', 'site_type', 'building_type', 'period', 'none']) {
      const res = await admin.get(`/api/reports/market-share?group_by=${group}`);
      expect(res.status).toBe(200);
      for (const row of res.body.data) {
        for (const [labour, slot] of [
          ['union', 'union'],
          ['non-union', 'non_union'],
          ['unknown', 'unknown'],
        ] as const) {
          const query = new URLSearchParams({ ...row.link, labour }).toString();
          const list = await admin.get(`/api/reports/market-share/sites?${query}`);
          expect(list.status).toBe(200);
          expect(list.body.meta.total, `${group} ${row.label} ${labour}`).toBe(row[slot].sites);
        }
      }
    }
    const s3 = await admin.get(`/api/reports/market-share/sites?group_by=region&key=${ids.south}&labour=union`);
    expect(s3.body.data.map((s: any) => s.name).sort()).toEqual(['S3', 'S4']);
  });

  it('a person without site:read:non-union gets shares computed only from what they may read', async () => {
    const client = await analyst();
    const res = await client.get('/api/reports/market-share?group_by=none');
    expect(res.status).toBe(200);
    // Visible: S2 (union type; its non-union contractor is not readable, so its own type decides), S4 (pla), S8.
    expect(res.body.totals.union).toEqual(figures(2, 600, 60));
    expect(res.body.totals.non_union).toEqual(figures(0, 0, 0));
    expect(res.body.totals.unknown).toEqual(figures(1, 800, 80));
    expect(res.body.totals.share.sites).toBe(100);
    const list = await client.get('/api/reports/market-share/sites?group_by=none&key=all');
    expect(list.body.data.map((s: any) => s.name).sort()).toEqual(['S2', 'S4', 'S8']);
  });

  it('is refused without report:read, and without any site permission', async () => {
    await t.createUser({ role: 'assistant', email: 'assistant@example.com' });
    const assistant = await t.signIn('assistant@example.com');
    expect((await assistant.get('/api/reports/market-share')).status).toBe(403);
    await admin.post('/api/roles', { slug: 'reader', name: 'Reader', permissions: ['report:read'] });
    await t.createUser({ role: 'reader', email: 'reader@example.com' });
    const reader = await t.signIn('reader@example.com');
    const res = await reader.get('/api/reports/market-share');
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/job sites/);
    expect((await t.client().get('/api/reports/market-share')).status).toBe(401);
  });

  it('rejects bad parameters with 422', async () => {
    expect((await admin.get('/api/reports/market-share?group_by=colour')).status).toBe(422);
    expect((await admin.get('/api/reports/market-share?from=2025-13-45')).status).toBe(422);
    expect((await admin.get('/api/reports/market-share?from=2025-03-01&to=2025-02-01')).status).toBe(422);
  });

  it('exports CSV with formula injection escaped', async () => {
    await t.ctx.db
      .updateTable('regions')
      .set({ name: '=HYPERLINK("http://evil")' })
      .where('id', '=', ids.south)
      .execute();
    const res = await admin.get('/api/reports/market-share?group_by=region&format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(
      /attachment; filename="market-share-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = String(res.body).trim().split('\r\n');
    expect(lines[0]).toBe(
      'Group,Union sites,Union estimated value,Union estimated hours,Non-union sites,Non-union estimated value,Non-union estimated hours,Unknown sites,Unknown estimated value,Unknown estimated hours,All sites,All estimated value,All estimated hours,Union share of sites (%),Union share of value (%),Union share of hours (%)',
    );
    expect(lines).toContain(`"'=HYPERLINK(""http://evil"")",2,700,70,1,500,50,0,0,0,3,1200,120,66.7,58.3,58.3`);
    expect(lines.at(-1)).toMatch(/^Total,3,800,80,2,700,70,2,1400,140,7,2900,290,60,53.3,53.3$/);
    await t.ctx.db.updateTable('regions').set({ name: 'South' }).where('id', '=', ids.south).execute();
  });
});

describe('the CSV writer', () => {
  it('escapes formulas, quotes and line breaks, and keeps numbers as numbers', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-cmd')).toBe("'-cmd");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(toCsv([{ header: 'A', value: (r: any) => r.a }], [{ a: 1 }, { a: '=x' }])).toBe("A\r\n1\r\n'=x\r\n");
  });
});

describe('GET /api/reports/task-performance', () => {
  it('counts tasks done by type, due, overdue and the completion rate per person in the period', async () => {
    const res = await admin.get('/api/reports/task-performance?from=2025-03-01&to=2025-03-31');
    expect(res.status).toBe(200);
    const alma = res.body.data.find((r: any) => r.key === ids.a);
    expect(alma).toMatchObject({
      label: 'Alma Aa',
      calls: 2,
      meetings: 0,
      visits: 0,
      done: 2,
      due: 3,
      due_done: 2,
      overdue: 1,
      completion_rate: 66.7,
    });
    const boris = res.body.data.find((r: any) => r.key === ids.b);
    expect(boris).toMatchObject({
      calls: 0,
      meetings: 0,
      visits: 1,
      done: 1,
      due: 3,
      due_done: 2,
      overdue: 1,
      completion_rate: 66.7,
    });
    const nobody = res.body.data.find((r: any) => r.key === null);
    expect(nobody).toMatchObject({ label: 'Unassigned', done: 0, due: 1, overdue: 1, completion_rate: 0 });
    expect(res.body.totals).toMatchObject({
      calls: 2,
      meetings: 0,
      visits: 1,
      done: 3,
      due: 7,
      due_done: 4,
      overdue: 3,
    });
  });

  it('groups by team (a person in two teams counts in both) and by month', async () => {
    const res = await admin.get('/api/reports/task-performance?from=2025-03-01&to=2025-03-31&group_by=team');
    const teamA = res.body.data.find((r: any) => r.key === ids.teamA);
    expect(teamA).toMatchObject({ label: 'Team A', calls: 2, visits: 1, done: 3, due: 6, due_done: 4, overdue: 2 });
    const teamB = res.body.data.find((r: any) => r.key === ids.teamB);
    expect(teamB).toMatchObject({ visits: 1, done: 1, due: 3, overdue: 1 });
    expect(res.body.totals).toBeNull();

    const months = await admin.get(
      `/api/reports/task-performance?from=2025-02-01&to=2025-04-30&interval=month&user_id=${ids.a}`,
    );
    const periods = Object.fromEntries(months.body.data.map((r: any) => [r.period, r]));
    expect(periods['2025-02']).toMatchObject({ meetings: 1, done: 1, due: 0 });
    expect(periods['2025-03']).toMatchObject({ calls: 2, done: 2, due: 3 });
    expect(periods['2025-04']).toMatchObject({ done: 0, due: 1, overdue: 1 });
  });

  it('needs task:read and exports CSV', async () => {
    const reader = await t.signIn('reader@example.com');
    expect((await reader.get('/api/reports/task-performance')).status).toBe(403);
    const csv = await admin.get('/api/reports/task-performance?from=2025-03-01&to=2025-03-31&format=csv');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(String(csv.body)).toContain('Alma Aa,,2,0,0,2,3,2,1,66.7');
  });
});

describe('goals and GET /api/reports/user-performance', () => {
  it('saves monthly goals and reads them back against the work done', async () => {
    const base = await admin.post(`/api/users/${ids.a}/goals`, { calls: 5, meetings: 2, visits: 3, recruits: 1 });
    expect(base.status).toBe(200);
    const march = await admin.post(`/api/users/${ids.a}/goals`, { period: '2025-03', calls: 4 });
    expect(march.status).toBe(200);
    expect(march.body.data).toEqual({
      default: { calls: 5, meetings: 2, visits: 3, recruits: 1 },
      '2025-03': { calls: 4 },
    });
    expect((await admin.get(`/api/users/${ids.a}`)).body.data.goals['2025-03']).toEqual({ calls: 4 });

    const res = await admin.get('/api/reports/user-performance?month=2025-03');
    expect(res.status).toBe(200);
    const alma = res.body.data.find((r: any) => r.user_id === ids.a);
    expect(alma.goals).toEqual({ calls: 4, meetings: 2, visits: 3, recruits: 1, source: 'mixed' });
    expect(alma.month_goals).toEqual({ calls: 4 });
    expect(alma.done).toEqual({ calls: 2, meetings: 0, visits: 0, recruits: 1 });
    expect(alma.progress).toEqual({ calls: 50, meetings: 0, visits: 0, recruits: 100 });
    const april = await admin.get('/api/reports/user-performance?month=2025-04');
    expect(april.body.data.find((r: any) => r.user_id === ids.a).goals.calls).toBe(5);
    // Goals across two months add up.
    const two = await admin.get(`/api/reports/user-performance?from=2025-03-01&to=2025-04-30&user_id=${ids.a}`);
    expect(two.body.data[0].goals).toMatchObject({ calls: 9, meetings: 4, visits: 6, recruits: 2 });
    expect(two.body.data[0].done.recruits).toBe(2);
  });

  it('lists incognito users only to those allowed to see them, and filters by team', async () => {
    const leader = await t.createUser({ role: 'leader', email: 'leader@example.com' });
    expect(leader.id).toBeGreaterThan(0);
    const client = await t.signIn('leader@example.com');
    const res = await client.get('/api/reports/user-performance?month=2025-03');
    expect(res.status).toBe(200);
    expect(res.body.data.some((r: any) => r.name === 'Admin Administrator')).toBe(false);
    const all = await admin.get('/api/reports/user-performance?month=2025-03');
    expect(all.body.data.some((r: any) => r.name === 'Admin Administrator')).toBe(true);
    const team = await admin.get(`/api/reports/user-performance?month=2025-03&team_id=${ids.teamB}`);
    expect(team.body.data.map((r: any) => r.user_id)).toEqual([ids.b]);
  });

  it('refuses goals that are not counts', async () => {
    expect((await admin.post(`/api/users/${ids.a}/goals`, { period: '2025-3', calls: 4 })).status).toBe(422);
    expect((await admin.post(`/api/users/${ids.a}/goals`, { calls: -1 })).status).toBe(422);
  });
});

describe('GET /api/reports/classifications', () => {
  it('counts members and stewards per classification and per classification type', async () => {
    const classes = await t.ctx.db
      .selectFrom('classifications as c')
      .innerJoin('classification_types as ct', 'ct.id', 'c.classification_type_id')
      .select(['c.id', 'c.name', 'ct.name as type'])
      .orderBy('c.id')
      .execute();
    const [first, second] = classes;
    await insert('members', { first_name: 'M1', classification_id: first.id, is_steward: true });
    await insert('members', { first_name: 'M2', classification_id: first.id });
    await insert('members', { first_name: 'M3', classification_id: second.id });
    await insert('members', { first_name: 'M4' });
    await insert('members', { first_name: 'M5', classification_id: first.id, deleted_at: new Date() });
    await insert('contacts', { first_name: 'C1', custom: JSON.stringify({ classification_id: first.id }) });
    const res = await admin.get('/api/reports/classifications');
    expect(res.status).toBe(200);
    // Contacts count only where the contact record type has a classification field; else the column is null.
    const classified = res.body.meta.contacts_classified;
    const row = res.body.data.find((r: any) => r.key === first.id);
    expect(row).toMatchObject({
      label: first.name,
      classification_type: first.type,
      members: 2,
      stewards: 1,
      contacts: classified ? 1 : null,
    });
    expect(res.body.data.find((r: any) => r.key === second.id)).toMatchObject({
      members: 1,
      stewards: 0,
      contacts: classified ? 0 : null,
    });
    expect(res.body.data.find((r: any) => r.key === null)).toMatchObject({ label: 'No classification', members: 1 });
    expect(res.body.totals).toEqual({ members: 4, stewards: 1, contacts: classified ? 1 : null });
    const byType = await admin.get('/api/reports/classifications?group_by=classification_type');
    const type = byType.body.data.find((r: any) => r.label === first.type);
    expect(type.members).toBe(first.type === second.type ? 3 : 2);
    const csv = await admin.get('/api/reports/classifications?format=csv');
    expect(String(csv.body).split('\r\n')[0]).toBe('Classification,Classification type,Members,Stewards,Contacts');
  });
});
