import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedKind } from '../../src/server/activity/activity-routes.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/** GET /api/actions: the activity feed built on the revisions every write leaves. */
let t: TestApp;
let superAdmin: TestClient; // the seeded Super Administrator: an incognito role
let admin: TestClient; // Administrator: not incognito, may not see incognito actions
let leader: TestClient;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestApp();
  superAdmin = await t.admin();
  ids.admin = (await t.createUser({ role: 'admin', first_name: 'Ada', last_name: 'Admin', email: 'ada@example.com' })).id;
  ids.leader = (await t.createUser({ role: 'leader', first_name: 'Lee', last_name: 'Leader', email: 'lee@example.com' })).id;
  admin = await t.signIn('ada@example.com');
  leader = await t.signIn('lee@example.com');
});
afterAll(async () => {
  await t?.close();
});

const feed = async (client: TestClient, query = '') => {
  const res = await client.get(`/api/actions${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('GET /api/actions', () => {
  it('lists what happened newest first, each entry naming the person, the record and its link', async () => {
    const created = await admin.post('/api/teams', { name: 'Harbor Organizers' });
    expect(created.status).toBe(201);
    ids.team = created.body.data.id;
    expect((await admin.post(`/api/teams/${ids.team}`, { description: 'Port and rail' })).status).toBe(200);
    expect((await admin.delete(`/api/teams/${ids.team}`)).status).toBe(200);
    expect((await admin.post(`/api/teams/${ids.team}/restore`)).status).toBe(200);

    const body = await feed(leader, '?type=team');
    const mine = body.data.filter((e: any) => e.record_id === ids.team);
    expect(mine.map((e: any) => e.kind)).toEqual(['restored', 'deleted', 'updated', 'created']);
    expect(mine[0]).toMatchObject({ type: 'team', type_name: 'Team', resource: 'teams', record_label: 'Harbor Organizers', link: `/teams/${ids.team}/show`, user: { id: ids.admin, name: 'Ada Admin' } });
    expect(mine[2].fields).toEqual(['description']);
    // Values of changes only for those who may read the history (revision:read): the leader may.
    expect(mine[2].changes).toEqual({ description: [null, 'Port and rail'] });
    const ids_ = body.data.map((e: any) => e.id);
    expect([...ids_].sort((a: number, b: number) => b - a)).toEqual(ids_);
  });

  it("hides the actions of incognito users from those who may not see them", async () => {
    const secret = await superAdmin.post('/api/teams', { name: 'Secret Squad' });
    expect(secret.status).toBe(201);
    const seen = (body: any) => body.data.some((e: any) => e.record_id === secret.body.data.id && e.type === 'team');
    expect(seen(await feed(leader))).toBe(false);
    expect(seen(await feed(admin))).toBe(false); // Administrators lack revision:read:incognito
    expect(seen(await feed(superAdmin))).toBe(true);
    // The history follows the same rule.
    const history = await leader.get(`/api/revisions?type=team&revisionable_id=${secret.body.data.id}`);
    expect(history.status).toBe(200);
    expect(history.body.data).toHaveLength(0);
    // Filtering by the incognito person gives nothing either.
    const superId = (await t.ctx.db.selectFrom('users').select('id').where('email', '=', 'admin@example.com').executeTakeFirstOrThrow()).id;
    expect((await feed(leader, `?user_id=${superId}`)).data).toHaveLength(0);
    expect((await feed(superAdmin, `?user_id=${superId}`)).data.length).toBeGreaterThan(0);
  });

  it('never shows records of a type the person may not read', async () => {
    // The assistant role may read teams but not roles or users.
    await t.createUser({ role: 'assistant', email: 'ana@example.com' });
    expect((await admin.post('/api/roles', { slug: 'visitor', name: 'Visitor', permissions: ['feature:read'] })).status).toBe(201);
    expect((await admin.post(`/api/users/${ids.leader}`, { last_name: 'Leader-Smith' })).status).toBe(200);
    expect((await feed(superAdmin, '?type=role,user')).data.length).toBeGreaterThanOrEqual(2);
    const assistant = await t.signIn('ana@example.com');
    const body = await feed(assistant);
    expect(body.data.filter((e: any) => e.type === 'role' || e.type === 'user')).toHaveLength(0);
    expect(body.data.some((e: any) => e.type === 'team')).toBe(true);
    // ...and no values of changes without revision:read.
    for (const entry of body.data) expect(entry.changes).toBeUndefined();
  });

  it('never shows sites of a category the person may not read', async () => {
    if (!t.ctx.resources.get('sites')) {
      // The sites resource is not served yet: the rule is the record service's, so revisions of sites are hidden from all.
      await t.ctx.db.insertInto('revisions').values({ revisionable_type: 'site', revisionable_id: 1, action: 'created', user_id: ids.admin }).execute();
      expect((await feed(admin, '?type=site')).data).toHaveLength(0);
      return;
    }
    const union = await admin.post('/api/sites', { name: 'Union Tower', type: 'union' });
    const nonUnion = await admin.post('/api/sites', { name: 'Open Shop Plaza', type: 'non-union' });
    expect(union.status).toBe(201);
    expect(nonUnion.status).toBe(201);
    const assistant = await t.signIn('ana@example.com'); // site:read:union and site:read:pla only
    const labels = (await feed(assistant, '?type=site')).data.map((e: any) => e.record_label);
    expect(labels).toContain('Union Tower');
    expect(labels).not.toContain('Open Shop Plaza');
    // A site changed to a category the person may not read disappears from their feed, history included.
    expect((await admin.post(`/api/sites/${union.body.data.id}`, { type: 'non-union' })).status).toBe(200);
    expect((await feed(assistant, '?type=site')).data.map((e: any) => e.record_label)).not.toContain('Union Tower');
    expect((await feed(admin, '?type=site')).data.map((e: any) => e.record_label)).toContain('Union Tower');
  });

  it('filters by person, record type, action and date, and pages with a cursor', async () => {
    for (let i = 0; i < 5; i++) expect((await admin.post('/api/teams', { name: `Page team ${i}` })).status).toBe(201);
    const first = await feed(leader, `?user_id=${ids.admin}&type=teams&action=created&per_page=3`);
    expect(first.data).toHaveLength(3);
    expect(first.data.every((e: any) => e.user.id === ids.admin && e.type === 'team' && e.action === 'created')).toBe(true);
    expect(first.meta.has_more).toBe(true);
    const second = await feed(leader, `?user_id=${ids.admin}&type=teams&action=created&per_page=3&before=${first.meta.next_before}`);
    expect(second.data[0].id).toBeLessThan(first.data[2].id);
    const today = new Date().toISOString().slice(0, 10);
    expect((await feed(leader, `?from=${today}&to=${today}`)).data.length).toBeGreaterThan(0);
    expect((await feed(leader, '?from=2000-01-01&to=2000-01-31')).data).toHaveLength(0);
    const newest = (await feed(leader)).meta.newest;
    expect((await feed(leader, `?after=${newest}`)).data).toHaveLength(0);
    expect((await leader.get('/api/actions?per_page=0')).status).toBe(422);
    expect((await leader.get('/api/actions?action=exploded')).status).toBe(422);
    expect((await t.client().get('/api/actions')).status).toBe(401);
  });

  it('names notes added, tasks done and imports finished', () => {
    expect(feedKind('task', 'updated', { completed_at: [null, '2026-01-01T00:00:00Z'] })).toBe('task-completed');
    expect(feedKind('task', 'updated', { title: ['a', 'b'] })).toBe('updated');
    expect(feedKind('note', 'created', {})).toBe('note-added');
    expect(feedKind('import', 'updated', { status: ['processing', 'complete'] })).toBe('import-finished');
    expect(feedKind('site', 'imported', {})).toBe('imported');
  });
});
