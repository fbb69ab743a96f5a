import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Predicate } from '../../src/server/access/predicate.js';
import { whoIsRow } from '../../src/server/access/who.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The SQL the access policy compiles for one person is one the planner reads as a bitmap of index lookups (issue 31's
 * list targets, docs/benchmarks.md "Access scope"): their own, team and shared ids gathered once into arrays, never
 * `in (subquery)` or `exists` tested row by row; the fan-out's per-member form keeps asking about the one record. The
 * rows stay the same: a visit one went on (a pivot, visit_users) is one's own, and so is its site; a site a teammate
 * organizes is the team's. Runs on both databases (tests/support/api-on-postgres.ts).
 */
let t: TestApp;
let admin: TestClient;
let organizer: TestClient;
// biome-ignore lint/suspicious/noExplicitAny: rows of JSON answers, read field by field.
type Row = Record<string, any>;
const users: Record<string, Row> = {};
const ids: Record<string, number> = {};

async function created(resource: string, values: Record<string, unknown>) {
  const res = await admin.post(`/api/${resource}`, values);
  expect(res.status, `${resource}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data as Row;
}

const sqlOf = (predicate: Predicate) =>
  typeof predicate === 'boolean' ? String(predicate) : predicate.compile(t.ctx.db).sql;

async function listed(resource: string) {
  const res = await organizer.get(`/api/${resource}?per_page=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as Row[]).map((row) => row.id).sort((a, b) => a - b);
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const teamA = (await created('teams', { name: 'Shape team A' })).id;
  const teamB = (await created('teams', { name: 'Shape team B' })).id;
  ids.teamA = teamA;
  await created('roles', {
    slug: 'shape-organizer',
    name: 'Shape organizer',
    permissions: ['site:read', 'visit:read'],
    policy: { site: { read: { any: ['own', 'team'] } }, visit: { read: 'own' } },
  });
  users.organizer = await t.createUser({
    role: 'shape-organizer',
    email: 'shape-organizer@example.com',
    team_ids: [teamA],
  });
  users.mate = await t.createUser({ role: 'user', email: 'shape-mate@example.com', team_ids: [teamA] });
  users.other = await t.createUser({ role: 'user', email: 'shape-other@example.com', team_ids: [teamB] });
  const site = (name: string, user: string, team: number) =>
    created('sites', {
      name,
      type: 'union',
      latitude: 44.5,
      longitude: -110.5,
      user_id: users[user].id,
      team_id: team,
    });
  ids.mine = (await site('Shape own site', 'organizer', teamB)).id;
  ids.mates = (await site('Shape teammate site', 'mate', teamB)).id;
  ids.visited = (await site('Shape visited site', 'other', teamB)).id;
  ids.others = (await site('Shape other site', 'other', teamB)).id;
  ids.went = (
    await created('visits', {
      site_id: ids.visited,
      visited_at: '2026-11-20T10:00:00Z',
      user_ids: [users.organizer.id],
    })
  ).id;
  ids.notWent = (
    await created('visits', { site_id: ids.others, visited_at: '2026-11-21T10:00:00Z', user_ids: [users.other.id] })
  ).id;
  organizer = await t.signIn(users.organizer.email);
});
afterAll(async () => {
  await t?.close();
});

describe('one person’s rule, as the planner can read it', () => {
  it('gathers their ids into arrays: team people and pivots are looked up once, not per row', async () => {
    const person = await t.authUser(users.organizer.email);
    const sites = t.ctx.resources.get('sites')!;
    const visits = t.ctx.resources.get('visits')!;
    const siteSql = sqlOf(await t.ctx.records.access.where(person, sites));
    // Sites keep their holders (access/holders.ts): "own" and "team" are ranges of record_holders, gathered once.
    expect(siteSql).toMatch(/t\.id = any\(array\(select h\.record_id from record_holders h/);
    expect(siteSql).toMatch(/h\.user_id = any\(array\(select tp\.user_id from team_user/);
    expect(siteSql).not.toMatch(/"t"\."user_id" in \(select/);
    const visitSql = sqlOf(await t.ctx.records.access.where(person, visits));
    expect(visitSql).toMatch(/"t"\."id" = any\(array\(select fh\."visit_id" from "visit_users" fh/);
    expect(visitSql).not.toMatch(/exists \(select 1 from "visit_users"/);
  });

  it('the fan-out, deciding for every member of a role at once, asks about the one record instead', async () => {
    const person = await t.authUser(users.organizer.email);
    const visits = t.ctx.resources.get('visits')!;
    const perMember = sqlOf(await t.ctx.records.access.where(person, visits, 'read', { who: whoIsRow('u') }));
    expect(perMember).toMatch(/exists \(select 1 from "visit_users" fh where fh\."visit_id" = "t"\."id"/);
    expect(perMember).not.toMatch(/any\(array\(select fh\."visit_id"/);
  });

  it('admits the same rows: their visits (through who went), their sites, the sites of their work and their team', async () => {
    expect(await listed('visits')).toEqual([ids.went]);
    expect(await listed('sites')).toEqual([ids.mine, ids.mates, ids.visited].sort((a, b) => a - b));
    const res = await organizer.get(`/api/sites/${ids.others}`);
    expect(res.status).toBe(403);
  });
});

describe('whose each site is, kept by the writer (record_holders, access/holders.ts)', () => {
  const sites = () => listed('sites');
  const expected = () => [ids.mine, ids.mates, ids.visited];
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);

  it('follows the writes: a site handed to them and back, a task assigned and deleted, a team named', async () => {
    expect(await sites()).toEqual(sorted(expected()));
    const put = async (values: Record<string, unknown>) =>
      expect((await admin.put(`/api/sites/${ids.others}`, values)).status).toBe(200);
    await put({ user_id: users.organizer.id });
    expect(await sites()).toEqual(sorted([...expected(), ids.others]));
    await put({ user_id: users.other.id });
    expect(await sites()).toEqual(sorted(expected()));

    const task = await created('tasks', {
      title: 'Shape call',
      type: 'call',
      taskable_type: 'site',
      taskable_id: ids.others,
      assignee_id: users.organizer.id,
    });
    expect(await sites()).toEqual(sorted([...expected(), ids.others]));
    expect((await admin.delete(`/api/tasks/${task.id}`)).status).toBe(200);
    expect(await sites()).toEqual(sorted(expected()));

    await put({ team_id: ids.teamA });
    expect(await sites()).toEqual(sorted([...expected(), ids.others]));
    await put({ team_id: null });
    expect(await sites()).toEqual(sorted(expected()));
  });

  it('a page in name order and by type reads the same rows as the rule, counted once each', async () => {
    const res = await organizer.get('/api/sites?sort=name&order=asc&filter[type]=union&per_page=2&page=1');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.meta.total).toBe(3);
    expect(res.body.data.map((row: Row) => row.name)).toEqual(['Shape own site', 'Shape teammate site']);
    const second = await organizer.get('/api/sites?sort=name&order=asc&filter[type]=union&per_page=2&page=2');
    expect(second.body.data.map((row: Row) => row.name)).toEqual(['Shape visited site']);
    const none = await organizer.get('/api/sites?filter[type]=non-union');
    expect(none.body.meta.total).toBe(0);
    // A deleted site leaves the list and its count.
    expect((await admin.delete(`/api/sites/${ids.mates}`)).status).toBe(200);
    const after = await organizer.get('/api/sites?sort=created_at&order=desc');
    expect(after.body.meta.total).toBe(2);
    expect((await admin.post(`/api/sites/${ids.mates}/restore`)).status).toBe(200);
    expect(await sites()).toEqual(sorted(expected()));
  });
});
