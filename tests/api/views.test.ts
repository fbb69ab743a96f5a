/**
 * Saved views (docs/views.md): /api/views kept per person and shared with roles and teams by those holding view:share
 * (with their own role and teams; administrators with any), a role's default view set by those who manage roles,
 * `view=<id>` on lists and exports, what a view names checked against its record type, live updates to those who read
 * the view alone, and a shared view never showing anyone more than their own access does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let leader: TestClient;
let otherLeader: TestClient;
let organizer: TestClient;
let teamOrganizer: TestClient;
let assistant: TestClient;
let ids: { leader: number; organizer: number; teamOrganizer: number; otherLeader: number };
let teamId: number;
const sites: Record<string, number> = {};
const events: Array<{ channels: string[]; event: string; data: { type?: string } | null }> = [];

interface Answer {
  status: number;
  body: { data?: unknown; errors?: Record<string, string[]>; message?: string };
}
// biome-ignore lint/suspicious/noExplicitAny: an answer's data is whatever the endpoint returns
const ok = (res: Answer, status = 200): any => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.data;
};
const names = (rows: Array<{ name: string }>) => rows.map((row) => row.name).sort();
const unionOrValley = {
  any: [
    { field: 'type', op: 'eq', value: 'union' },
    { field: 'name', op: 'contains', value: 'Valley' },
  ],
};

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const publish = t.ctx.realtime.publish.bind(t.ctx.realtime);
  t.ctx.realtime.publish = async (channels: string[], event: string, data: unknown, options?: unknown) => {
    events.push({ channels, event, data: data as { type?: string } | null });
    return publish(channels, event, data, options as never);
  };
  teamId = ok(await admin.post('/api/teams', { name: 'North crew' }), 201).id;
  const people = {
    leader: await t.createUser({ role: 'leader', email: 'lead@example.com', team_ids: [teamId] }),
    otherLeader: await t.createUser({ role: 'leader', email: 'lead2@example.com' }),
    organizer: await t.createUser({ role: 'user', email: 'org@example.com' }),
    teamOrganizer: await t.createUser({ role: 'user', email: 'org-team@example.com', team_ids: [teamId] }),
    assistant: await t.createUser({ role: 'assistant', email: 'asst@example.com' }),
  };
  ids = {
    leader: people.leader.id,
    otherLeader: people.otherLeader.id,
    organizer: people.organizer.id,
    teamOrganizer: people.teamOrganizer.id,
  };
  leader = await t.signIn('lead@example.com');
  otherLeader = await t.signIn('lead2@example.com');
  organizer = await t.signIn('org@example.com');
  teamOrganizer = await t.signIn('org-team@example.com');
  assistant = await t.signIn('asst@example.com');
  for (const [name, type] of [
    ['Harbor Tower', 'union'],
    ['Valley Mall', 'non-union'],
    ['Union Hall Annex', 'union'],
    ['Dock Works', 'non-union'],
    ['Civic Center', 'pla'],
  ])
    sites[name] = ok(await admin.post('/api/sites', { name, type }), 201).id;
});
afterAll(async () => {
  await t?.close();
});

describe('personal views', () => {
  let viewId: number;

  it('keeps a view with its filters, sorts, columns and layout, answering its id and its URL in the app', async () => {
    const view = ok(
      await organizer.post('/api/views', {
        name: 'Union or Valley',
        record_type: 'site',
        filters: unionOrValley,
        sorts: [{ field: 'name', order: 'desc' }],
        columns: [{ field: 'name', width: 240 }, { field: 'type' }],
        group_by: 'type',
      }),
      201,
    );
    viewId = view.id;
    expect(view).toMatchObject({
      name: 'Union or Valley',
      record_type: 'site',
      layout: 'grid',
      user_id: ids.organizer,
      filters: unionOrValley,
      url: `/sites?view=${view.id}`,
      shared: false,
      role_ids: [],
    });
  });

  it('applies the view to the list with view=: its filters and its sort', async () => {
    const rows = ok(await organizer.get(`/api/sites?view=${viewId}`));
    expect(rows.map((row: { name: string }) => row.name)).toEqual(['Valley Mall', 'Union Hall Annex', 'Harbor Tower']);
  });

  it("adds the list's own filters= to the view's (both hold), and its own sort wins", async () => {
    const more = encodeURIComponent(JSON.stringify({ all: [{ field: 'type', op: 'eq', value: 'union' }] }));
    const rows = ok(await organizer.get(`/api/sites?view=${viewId}&filters=${more}&sort=name&order=asc`));
    expect(rows.map((row: { name: string }) => row.name)).toEqual(['Harbor Tower', 'Union Hall Annex']);
  });

  it('exports what the view shows', async () => {
    const res = await organizer.get(`/api/exports/download?resource=sites&view=${viewId}&columns=name`);
    expect(res.status).toBe(200);
    const text = typeof res.body === 'string' ? res.body : String(res.body);
    expect(text).toContain('Valley Mall');
    expect(text).toContain('Harbor Tower');
    expect(text).not.toContain('Dock Works');
  });

  it('is nobody else’s: another person neither lists, reads, applies nor changes it', async () => {
    expect(names(ok(await otherLeader.get('/api/views?per_page=-1')))).not.toContain('Union or Valley');
    expect((await otherLeader.get(`/api/views/${viewId}`)).status).toBe(404);
    expect((await otherLeader.get(`/api/sites?view=${viewId}`)).status).toBe(404);
    expect((await otherLeader.patch(`/api/views/${viewId}`, { name: 'Mine now' })).status).toBe(404);
  });

  it('is changed and deleted by its owner', async () => {
    expect(ok(await organizer.patch(`/api/views/${viewId}`, { name: 'Union or Valley sites' })).name).toBe(
      'Union or Valley sites',
    );
    const second = ok(await organizer.post('/api/views', { name: 'Scratch', record_type: 'site' }), 201);
    ok(await organizer.delete(`/api/views/${second.id}`));
    expect((await organizer.get(`/api/views/${second.id}`)).status).toBe(404);
  });

  it('has nothing hung on it: a note, task or document naming a view is refused, naming why', async () => {
    const view = ok(await organizer.post('/api/views', { name: 'Nothing hangs here', record_type: 'site' }), 201);
    const note = await organizer.post('/api/notes', { body: 'On a view', notable_type: 'view', notable_id: view.id });
    expect(note.status).toBe(422);
    expect(note.body.errors.notable_type[0]).toMatch(/Nothing can be attached to a view/);
    const task = await admin.post('/api/tasks', {
      title: 'On a view',
      type: 'call',
      taskable_type: 'view',
      taskable_id: view.id,
    });
    expect(task.status).toBe(422);
    expect(task.body.errors.taskable_type[0]).toMatch(/Nothing can be attached to a view/);
  });

  it('refuses what the record type does not have, naming it', async () => {
    const bad = async (values: Record<string, unknown>, key: string) => {
      const res = await organizer.post('/api/views', { name: 'Bad', record_type: 'site', ...values });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(Object.keys(res.body.errors ?? {})).toContain(key);
      return JSON.stringify(res.body.errors);
    };
    expect(await bad({ filters: { all: [{ field: 'colour', op: 'eq', value: 'red' }] } }, 'filters')).toContain(
      'colour',
    );
    expect(await bad({ filters: { all: [{ field: 'name', op: 'sounds_like', value: 'x' }] } }, 'filters')).toContain(
      'sounds_like',
    );
    expect(await bad({ sorts: [{ field: 'colour', order: 'asc' }] }, 'sorts.0')).toContain('colour');
    expect(await bad({ group_by: 'colour' }, 'group_by')).toContain('colour');
    expect(await bad({ record_type: 'spaceship' }, 'record_type')).toContain('spaceship');
    expect(await bad({ layout: 'spreadsheet' }, 'layout')).toBeTruthy();
    // A type the person may not read is no type for them (roles are an administrator's).
    expect(await bad({ record_type: 'role' }, 'record_type')).toContain('role');
  });

  it('applies only to lists of its own type', async () => {
    const res = await organizer.get(`/api/contractors?view=${viewId}`);
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('shows site records');
    expect((await organizer.get('/api/sites?view=999999')).status).toBe(404);
  });
});

describe('shared views', () => {
  it('are shared only by those holding view:share', async () => {
    const res = await organizer.post('/api/views', {
      name: 'Shared by an organizer',
      record_type: 'site',
      role_ids: [await t.roleId('user')],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors?.role_ids?.[0]).toMatch(/permission to share/);
  });

  it('are shared by a leader with their own role and teams, never beyond', async () => {
    const other = await organizer.post('/api/views', { name: 'x', record_type: 'site' });
    expect(other.status).toBe(201);
    const wider = await leader.post('/api/views', {
      name: 'For organizers',
      record_type: 'site',
      role_ids: [await t.roleId('user')],
    });
    expect(wider.status).toBe(422);
    expect(wider.body.errors?.role_ids?.[0]).toMatch(/your own role/);
    const otherTeam = ok(await admin.post('/api/teams', { name: 'South crew' }), 201).id;
    const elsewhere = await leader.post('/api/views', { name: 'South', record_type: 'site', team_ids: [otherTeam] });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors?.team_ids?.[0]).toMatch(/your own teams/);
    const defaults = await leader.post('/api/views', {
      name: 'Default',
      record_type: 'site',
      role_ids: [await t.roleId('leader')],
      default_role_ids: [await t.roleId('leader')],
    });
    expect(defaults.status).toBe(422);
    expect(defaults.body.errors?.default_role_ids?.[0]).toMatch(/manage roles/);
  });

  it("reach the team's people and the role's, and go live to them alone", async () => {
    events.length = 0;
    const view = ok(
      await leader.post('/api/views', {
        name: 'North union sites',
        record_type: 'site',
        filters: { all: [{ field: 'type', op: 'eq', value: 'union' }] },
        team_ids: [teamId],
        role_ids: [await t.roleId('leader')],
      }),
      201,
    );
    expect(view.shared).toBe(true);
    // A person of the team (an organizer) and of the role (another leader) read it; an organizer of neither does not.
    expect(names(ok(await teamOrganizer.get('/api/views?per_page=-1')))).toContain('North union sites');
    expect(names(ok(await otherLeader.get('/api/views?per_page=-1')))).toContain('North union sites');
    expect(names(ok(await organizer.get('/api/views?per_page=-1')))).not.toContain('North union sites');
    expect(names(ok(await teamOrganizer.get(`/api/sites?view=${view.id}`)))).toEqual([
      'Harbor Tower',
      'Union Hall Annex',
    ]);
    expect((await organizer.get(`/api/sites?view=${view.id}`)).status).toBe(404);
    // Only its owner changes it.
    const change = await otherLeader.patch(`/api/views/${view.id}`, { name: 'Taken over' });
    expect([403, 404]).toContain(change.status);
    expect((await teamOrganizer.delete(`/api/views/${view.id}`)).status).toBe(403);

    // Live: the change reaches those who read the view, on their own channels; nobody else hears of it.
    events.length = 0;
    ok(await leader.patch(`/api/views/${view.id}`, { name: 'North union sites (live)' }));
    const heardOf = () => events.filter((e) => e.event === 'App.Events.ModelUpdated' && e.data?.type === 'view');
    for (let tries = 0; tries < 50 && !heardOf().length; tries++) await new Promise((r) => setTimeout(r, 20));
    const heard = heardOf();
    expect(heard.length).toBeGreaterThan(0);
    const channels = heard.flatMap((e) => e.channels);
    for (const id of [ids.leader, ids.otherLeader, ids.teamOrganizer])
      expect(channels).toContain(`private-App.Models.User.${id}`);
    expect(channels).not.toContain(`private-App.Models.User.${ids.organizer}`);
    expect(channels.some((channel) => channel.startsWith('private-App.Models.Role.'))).toBe(false);
  });

  it('never show a person more than their own access: the assistant sees only union and PLA sites', async () => {
    const view = ok(
      await admin.post('/api/views', {
        name: 'Every site',
        record_type: 'site',
        role_ids: [await t.roleId('assistant')],
      }),
      201,
    );
    expect(names(ok(await admin.get(`/api/sites?view=${view.id}&per_page=-1`)))).toEqual(Object.keys(sites).sort());
    expect(names(ok(await assistant.get(`/api/sites?view=${view.id}&per_page=-1`)))).toEqual([
      'Civic Center',
      'Harbor Tower',
      'Union Hall Annex',
    ]);
    // A view whose filters look for what the person may not see finds nothing more.
    const nonUnion = ok(
      await admin.post('/api/views', {
        name: 'Non-union',
        record_type: 'site',
        filters: { all: [{ field: 'type', op: 'eq', value: 'non-union' }] },
        role_ids: [await t.roleId('assistant')],
      }),
      201,
    );
    expect(ok(await assistant.get(`/api/sites?view=${nonUnion.id}`))).toEqual([]);
  });

  it("a role's default view is set by an administrator and read by the role", async () => {
    const organizerRole = await t.roleId('user');
    const view = ok(
      await admin.post('/api/views', {
        name: 'Organizers start here',
        record_type: 'site',
        default_role_ids: [organizerRole],
      }),
      201,
    );
    const mine = ok(await organizer.get('/api/views?per_page=-1')).find((row: { id: number }) => row.id === view.id);
    expect(mine?.default_role_ids).toEqual([organizerRole]);
    expect(names(ok(await otherLeader.get('/api/views?per_page=-1')))).not.toContain('Organizers start here');
  });
});

describe('a field deleted since', () => {
  it('leaves the view readable and renamable, and its list says which field is gone', async () => {
    const schema = ok(
      await admin.post('/api/schemas', {
        name_singular: 'Survey',
        name_plural: 'Surveys',
        fields: [{ name: 'Score', type: 'number' }],
      }),
      201,
    );
    const view = ok(
      await admin.post('/api/views', {
        name: 'High scores',
        record_type: schema.type,
        filters: { all: [{ field: 'score', op: 'gte', value: 5 }] },
      }),
      201,
    );
    expect(view.url).toBe(`/${schema.resource}?view=${view.id}`);
    const fields = ok(await admin.get(`/api/schema-fields?filter[schema_id]=${schema.id}&per_page=-1`));
    const score = fields.find((field: { slug: string }) => field.slug === 'score');
    ok(await admin.delete(`/api/schema-fields/${score.id}`));
    expect(ok(await admin.get(`/api/views/${view.id}`)).filters).toEqual(view.filters);
    expect(ok(await admin.patch(`/api/views/${view.id}`, { name: 'High scores (old)' })).name).toBe(
      'High scores (old)',
    );
    const res = await admin.get(`/api/${schema.resource}?view=${view.id}`);
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('score');
  });
});
