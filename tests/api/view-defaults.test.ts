/**
 * Default views kept by the server (docs/views.md "Default views"): one default view per role and record type, set by
 * those who manage roles; a person's own choice over it (GET/PUT /api/views/default); and a view shared with teams
 * only by one who sees the team.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okBody } from '../support/api-answers.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let organizer: TestClient;
let otherOrganizer: TestClient;
let leader: TestClient;
let organizerRole: number;

/** The answer's data (any: each endpoint's own), after checking its status. */
const ok = (res: Parameters<typeof okBody>[0], status = 200) => okBody(res, status).data;
const opensIn = async (client: TestClient, type = 'site') => {
  const answer = ok(await client.get(`/api/views/default?record_type=${type}`));
  return { id: answer.view?.id ?? null, source: answer.source };
};
const choose = (client: TestClient, viewId: number | null, type = 'site') =>
  client.put('/api/views/default', { record_type: type, view_id: viewId });

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  organizerRole = await t.roleId('user');
  await t.createUser({ role: 'user', email: 'org-a@example.com' });
  await t.createUser({ role: 'user', email: 'org-b@example.com' });
  await t.createUser({ role: 'leader', email: 'lead-a@example.com' });
  organizer = await t.signIn('org-a@example.com');
  otherOrganizer = await t.signIn('org-b@example.com');
  leader = await t.signIn('lead-a@example.com');
});
afterAll(async () => {
  await t?.close();
});

describe("a role's default view", () => {
  let first: number;
  let second: number;

  it('is the view a person of the role opens the list in; another role opens the whole list', async () => {
    first = ok(
      await admin.post('/api/views', { name: 'Start here', record_type: 'site', default_role_ids: [organizerRole] }),
      201,
    ).id;
    expect(await opensIn(organizer)).toEqual({ id: first, source: 'role' });
    expect(await opensIn(leader)).toEqual({ id: null, source: null });
  });

  it('is one per role and type: set again, it moves from the view that was it', async () => {
    second = ok(
      await admin.post('/api/views', {
        name: 'Start here now',
        record_type: 'site',
        default_role_ids: [organizerRole],
      }),
      201,
    ).id;
    expect(ok(await admin.get(`/api/views/${first}`)).default_role_ids).toEqual([]);
    expect(ok(await admin.get(`/api/views/${second}`)).default_role_ids).toEqual([organizerRole]);
    expect(await opensIn(organizer)).toEqual({ id: second, source: 'role' });
    // Set back on the first view by an update, it moves again.
    ok(await admin.patch(`/api/views/${first}`, { default_role_ids: [organizerRole] }));
    expect(ok(await admin.get(`/api/views/${second}`)).default_role_ids).toEqual([]);
    expect(await opensIn(organizer)).toEqual({ id: first, source: 'role' });
  });

  it("is kept per record type: another type's default leaves this one", async () => {
    const contacts = ok(
      await admin.post('/api/views', {
        name: 'Contacts start',
        record_type: 'contact',
        default_role_ids: [organizerRole],
      }),
      201,
    ).id;
    expect(await opensIn(organizer, 'contact')).toEqual({ id: contacts, source: 'role' });
    expect(await opensIn(organizer)).toEqual({ id: first, source: 'role' });
  });

  it('is set only by those who manage roles', async () => {
    const res = await leader.post('/api/views', {
      name: 'Leaders start',
      record_type: 'site',
      default_role_ids: [await t.roleId('leader')],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors?.default_role_ids?.[0]).toMatch(/manage roles/);
  });
});

describe("a person's own default view", () => {
  let own: number;

  it("is chosen over the role's, by the person alone", async () => {
    own = ok(await organizer.post('/api/views', { name: 'My sites', record_type: 'site' }), 201).id;
    const chosen = await choose(organizer, own);
    expect(ok(chosen)).toMatchObject({ view: { id: own, name: 'My sites' }, source: 'person' });
    expect(await opensIn(organizer)).toEqual({ id: own, source: 'person' });
    // The other organizer still opens in their role's default.
    expect((await opensIn(otherOrganizer)).source).toBe('role');
  });

  it('is a view of that type the person reads, else 422 naming what is wrong', async () => {
    const contactView = ok(await organizer.post('/api/views', { name: 'My contacts', record_type: 'contact' }), 201).id;
    const wrongType = await choose(organizer, contactView);
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors?.view_id?.[0]).toMatch(/contact records, not site records/);
    const private_ = ok(await otherOrganizer.post('/api/views', { name: 'Not yours', record_type: 'site' }), 201).id;
    const unseen = await choose(organizer, private_);
    expect(unseen.status).toBe(422);
    expect(unseen.body.errors?.view_id?.[0]).toMatch(/No view has the id/);
    const unknownType = await choose(organizer, own, 'spaceship');
    expect(unknownType.status).toBe(422);
    expect(Object.keys(unknownType.body.errors ?? {})).toEqual(['record_type']);
    expect((await organizer.get('/api/views/default?record_type=spaceship')).status).toBe(422);
    expect(await opensIn(organizer)).toEqual({ id: own, source: 'person' });
  });

  it("goes back to the role's when cleared, or when the chosen view is deleted", async () => {
    ok(await choose(organizer, null));
    expect((await opensIn(organizer)).source).toBe('role');
    ok(await choose(organizer, own));
    expect((await organizer.delete(`/api/views/${own}`)).status).toBe(200);
    expect((await opensIn(organizer)).source).toBe('role');
  });

  it('needs a session', async () => {
    const anonymous = t.client();
    expect((await anonymous.get('/api/views/default?record_type=site')).status).toBe(401);
  });
});

describe('a view shared with teams', () => {
  it('is shared by an administrator with any team they see, never with one that is not there', async () => {
    const team = ok(await admin.post('/api/teams', { name: 'East crew' }), 201).id;
    const gone = ok(await admin.post('/api/teams', { name: 'Old crew' }), 201).id;
    expect((await admin.delete(`/api/teams/${gone}`)).status).toBe(200);
    const view = ok(await admin.post('/api/views', { name: 'East', record_type: 'site', team_ids: [team] }), 201);
    expect(view.team_ids).toEqual([team]);
    for (const teams of [[gone], [team, 999_999]]) {
      const res = await admin.patch(`/api/views/${view.id}`, { team_ids: teams });
      expect(res.status).toBe(422);
      expect(res.body.errors?.team_ids?.[0]).toMatch(/does not exist/);
    }
  });

  it('is refused to one who may share and manage roles but does not see teams', async () => {
    ok(
      await admin.post('/api/roles', {
        slug: 'sharer-without-teams',
        name: 'Sharer without teams',
        permissions: ['site:read', 'view:create', 'view:read', 'view:update', 'view:share', 'role:update'],
      }),
      201,
    );
    await t.createUser({ role: 'sharer-without-teams', email: 'sharer@example.com' });
    const sharer = await t.signIn('sharer@example.com');
    const team = ok(await admin.post('/api/teams', { name: 'West crew' }), 201).id;
    const res = await sharer.post('/api/views', { name: 'West', record_type: 'site', team_ids: [team] });
    expect(res.status).toBe(422);
    expect(res.body.errors?.team_ids?.[0]).toMatch(/There is no team \d+ you may see/);
  });
});

describe("a role's default view set on a view someone else owns (PUT /api/views/role-defaults)", () => {
  let otherAdmin: TestClient;
  let adminRole: number;
  let leaderRole: number;
  let view: { id: number; name: string; user_id: number };
  const setDefaults = (client: TestClient, viewId: number, roleIds: number[]) =>
    client.put('/api/views/role-defaults', { view_id: viewId, role_ids: roleIds });

  beforeAll(async () => {
    // The test's administrator holds the super role; the other is an Administrator. Both manage roles.
    adminRole = await t.roleId('super');
    leaderRole = await t.roleId('leader');
    await t.createUser({ role: 'admin', email: 'admin-b@example.com' });
    // Shared with the first administrator's role (so they read it) and the organizers'.
    otherAdmin = await t.signIn('admin-b@example.com');
    view = ok(
      await otherAdmin.post('/api/views', {
        name: 'Shared by another',
        record_type: 'site',
        role_ids: [adminRole, organizerRole],
      }),
      201,
    );
  });

  it('makes a view the manager reads, shared with the role, its default; the view stays its owner’s', async () => {
    const answer = okBody(await setDefaults(admin, view.id, [organizerRole]));
    expect(answer.message).toMatch(/default of 1 role/);
    expect(answer.data).toMatchObject({ id: view.id, user_id: view.user_id, default_role_ids: [organizerRole] });
    expect(await opensIn(otherOrganizer)).toEqual({ id: view.id, source: 'role' });
    // The manager still may not change the view itself: its owner alone does.
    expect((await admin.patch(`/api/views/${view.id}`, { name: 'Renamed' })).status).toBeGreaterThanOrEqual(403);
    expect(ok(await otherAdmin.get(`/api/views/${view.id}`)).name).toBe('Shared by another');
  });

  it("moves the role's default from the view that was it, and [] takes it away", async () => {
    const mine = ok(
      await admin.post('/api/views', { name: 'Mine for organizers', record_type: 'site', role_ids: [organizerRole] }),
      201,
    ).id;
    ok(await setDefaults(admin, mine, [organizerRole]));
    expect(ok(await admin.get(`/api/views/${view.id}`)).default_role_ids).toEqual([]);
    expect(await opensIn(otherOrganizer)).toEqual({ id: mine, source: 'role' });
    ok(await setDefaults(admin, mine, []));
    expect(await opensIn(otherOrganizer)).toEqual({ id: null, source: null });
  });

  it('answers 422 for a role the view is not shared with, and for a view the manager does not read', async () => {
    const unshared = await setDefaults(admin, view.id, [organizerRole, leaderRole]);
    expect(unshared.status).toBe(422);
    expect(unshared.body.errors?.role_ids?.[0]).toMatch(/not shared with role \d+/);
    const leadersOnly = ok(
      await leader.post('/api/views', { name: 'Leaders only', record_type: 'site', role_ids: [leaderRole] }),
      201,
    ).id;
    const unseen = await setDefaults(admin, leadersOnly, [leaderRole]);
    expect(unseen.status).toBe(422);
    expect(unseen.body.errors?.view_id?.[0]).toMatch(/No view has the id/);
    expect((await setDefaults(admin, 999_999, [])).status).toBe(422);
    expect(await opensIn(leader)).toEqual({ id: null, source: null });
  });

  it('is refused (403) to those who do not manage roles, owner or not', async () => {
    const own = ok(
      await leader.post('/api/views', { name: 'Leaders start', record_type: 'site', role_ids: [leaderRole] }),
      201,
    ).id;
    expect((await setDefaults(leader, own, [leaderRole])).status).toBe(403);
    expect((await setDefaults(organizer, view.id, [organizerRole])).status).toBe(403);
    expect((await t.client().put('/api/views/role-defaults', { view_id: own, role_ids: [] })).status).toBe(401);
  });
});
