import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowRule } from '../../src/common/access-rules.js';
import { readersOf } from '../../src/server/access/fan-out.js';
import { KeptRoles } from '../../src/server/access/kept-roles.js';
import { runTool } from '../../src/server/assistant/tools/index.js';
import { createScope } from '../../src/server/assistant/tools/scope.js';
import { mapServiceFor } from '../../src/server/map/map-service.js';
import { recordEvents } from '../support/assistant.js';
import { square } from '../support/geometry.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The access policy (docs/security.md "The access policy", issue 31): one table, every read and write path × every
 * kind of row rule (all, own, team, turf, a condition, combinations) × a built-in type (sites) and a type made in the
 * app (inspections); then the field rules (hidden, read-only) on the same paths, imports and bulk edits, own work, and
 * nobody granting more than they hold. Runs on both databases (tests/support/api-on-postgres.ts).
 */
let t: TestApp;
let admin: TestClient;
let organizer: TestClient;
let roleId: number;
/** A row of an answer's list (only `id` and a few fields are read). */
// biome-ignore lint/suspicious/noExplicitAny: rows of JSON answers, read field by field.
type Row = Record<string, any>;
const users: Record<string, Row> = {};
const teams: Record<string, number> = {};
const INSIDE = { lat: 44.06, lng: -121.31 }; // Bend, OR: no other test's records
const OUTSIDE = { lat: 42.33, lng: -122.87 }; // Medford, OR

/** The records of each type, by what they are to the organizer. */
const KEYS = ['own', 'team', 'teamcond', 'turf', 'cond', 'none'] as const;
type Key = (typeof KEYS)[number];
const ids: Record<'site' | 'inspection', Record<Key, number>> = {
  site: {} as Record<Key, number>,
  inspection: {} as Record<Key, number>,
};
let inspections: { resource: string; type: string };

async function created(resource: string, values: Record<string, unknown>, client = admin) {
  const res = await client.post(`/api/${resource}`, values);
  expect(res.status, `${resource}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data as Row;
}

/** The records of one key: whose they are, their team, where, and the condition's field. */
const SHAPE: Record<Key, { user: string; team: string; inside: boolean; cond: boolean }> = {
  own: { user: 'organizer', team: 'b', inside: false, cond: false },
  team: { user: 'teammate', team: 'a', inside: false, cond: false },
  teamcond: { user: 'teammate', team: 'a', inside: false, cond: true },
  turf: { user: 'other', team: 'b', inside: true, cond: false },
  cond: { user: 'other', team: 'b', inside: false, cond: true },
  none: { user: 'other', team: 'b', inside: false, cond: false },
};

const conditionOf = (type: 'site' | 'inspection'): RowRule => ({
  condition: {
    all: type === 'site' ? [{ field: 'type', op: 'eq', value: 'pla' }] : [{ field: 'status', op: 'eq', value: 'open' }],
  },
});

/** Each rule kind, and which records it admits. */
const RULES: Array<{ name: string; rule: (type: 'site' | 'inspection') => RowRule; sees: Key[] }> = [
  { name: 'all', rule: () => 'all', sees: [...KEYS] },
  { name: 'own', rule: () => 'own', sees: ['own'] },
  // Their team's: the team field, or a person of the team named (the organizer is of team A).
  { name: 'team', rule: () => 'team', sees: ['own', 'team', 'teamcond'] },
  { name: 'turf', rule: () => 'turf', sees: ['turf'] },
  { name: 'condition', rule: conditionOf, sees: ['teamcond', 'cond'] },
  { name: 'own or turf', rule: () => ({ any: ['own', 'turf'] }), sees: ['own', 'turf'] },
  { name: 'team and condition', rule: (type) => ({ all: ['team', conditionOf(type)] }), sees: ['teamcond'] },
];

const ORGANIZER = [
  'site:read',
  'site:update',
  'export:create',
  'revision:read',
  // The test's administrator is incognito: the organizer sees their actions in the feed with this.
  'revision:read:incognito',
  'map:read',
  'report:read',
  'import:create',
];

/** An import the organizer runs (imports write their rows through the batch path). */
async function importRow() {
  const row = await t.ctx.db
    .insertInto('imports')
    .values({
      record_type: inspections.type,
      user_id: users.organizer.id,
      name: 'policy rows.csv',
      status: 'processing',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id as number;
}

async function setPolicy(policy: Record<string, unknown>, extra: string[] = []) {
  const role = (await admin.get(`/api/roles/${roleId}`)).body.data;
  const res = await admin.put(`/api/roles/${roleId}`, {
    permissions: [...ORGANIZER, `${inspections.type}:read`, `${inspections.type}:update`, ...extra],
    policy,
    updated_at: role.updated_at,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  mapServiceFor(t.ctx).invalidate();
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  teams.a = (await created('teams', { name: 'Policy team A' })).id;
  teams.b = (await created('teams', { name: 'Policy team B' })).id;
  const schema = await created('schemas', {
    name_singular: 'Inspection',
    name_plural: 'Inspections',
    fields: [
      { name: 'Status', type: 'dropdown', options: { choices: [{ value: 'open' }, { value: 'closed' }] } },
      { name: 'Fine', type: 'number', options: { format: 'currency' } },
      { name: 'Site', type: 'relation', options: { target: 'site' } },
    ],
  });
  inspections = { resource: schema.resource, type: schema.type };
  roleId = (await created('roles', { slug: 'policy-organizer', name: 'Policy organizer', permissions: ORGANIZER })).id;
  users.organizer = await t.createUser({
    role: 'policy-organizer',
    first_name: 'Pat',
    email: 'policy-organizer@example.com',
    team_ids: [teams.a],
  });
  users.teammate = await t.createUser({
    role: 'user',
    first_name: 'Tam',
    email: 'policy-teammate@example.com',
    team_ids: [teams.a],
  });
  users.other = await t.createUser({
    role: 'user',
    first_name: 'Oli',
    email: 'policy-other@example.com',
    team_ids: [teams.b],
  });
  organizer = await t.signIn(users.organizer.email);
  await created('regions', {
    name: 'Policy turf',
    geometry_type: 'drawn',
    geometry: square(INSIDE.lat, INSIDE.lng),
    user_ids: [users.organizer.id],
  });
  for (const key of KEYS) {
    const shape = SHAPE[key];
    const at = shape.inside ? INSIDE : OUTSIDE;
    const site = await created('sites', {
      name: `Policy ${key} site`,
      type: shape.cond ? 'pla' : 'union',
      latitude: at.lat + 0.01 * KEYS.indexOf(key),
      longitude: at.lng,
      user_id: users[shape.user].id,
      team_id: teams[shape.team],
      estimated_value: 1000,
    });
    ids.site[key] = site.id;
    const inspection = await created(inspections.resource, {
      name: `Policy ${key} inspection`,
      status: shape.cond ? 'open' : 'closed',
      fine: 250,
      site: site.id,
      user_id: users[shape.user].id,
      team_id: teams[shape.team],
    });
    ids.inspection[key] = inspection.id;
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const TYPES = ['site', 'inspection'] as const;
const resourceOf = (type: (typeof TYPES)[number]) => (type === 'site' ? 'sites' : inspections.resource);
const typeOf = (type: (typeof TYPES)[number]) => (type === 'site' ? 'site' : inspections.type);
const ofKeys = (type: (typeof TYPES)[number], keys: readonly Key[]) =>
  keys.map((key) => ids[type][key]).sort((a, b) => a - b);
const mine = (type: (typeof TYPES)[number], seen: number[]) =>
  seen.filter((id) => Object.values(ids[type]).includes(id)).sort((a, b) => a - b);

/** One read path: the ids of the table's records it shows the organizer. */
interface Path {
  name: string;
  types?: ReadonlyArray<(typeof TYPES)[number]>;
  seen(type: (typeof TYPES)[number]): Promise<number[]>;
}

const csvNames = (text: string) =>
  text
    .split('\n')
    .slice(1)
    .map((line) => line.replace(/"/g, '').trim())
    .filter(Boolean);
const idOfName = (type: (typeof TYPES)[number], name: string) =>
  KEYS.map((key) => [key, `Policy ${key} ${type === 'site' ? 'site' : 'inspection'}`] as const).find(
    ([, n]) => n === name,
  )?.[0];

const PATHS: Path[] = [
  {
    name: 'list',
    seen: async (type) =>
      (await organizer.get(`/api/${resourceOf(type)}?per_page=100`)).body.data.map((r: Row) => r.id),
  },
  {
    name: 'search',
    seen: async (type) =>
      (await organizer.get(`/api/${resourceOf(type)}?per_page=100&search=Policy`)).body.data.map((r: Row) => r.id),
  },
  {
    name: 'show',
    seen: async (type) => {
      const out: number[] = [];
      for (const key of KEYS) {
        const res = await organizer.get(`/api/${resourceOf(type)}/${ids[type][key]}`);
        expect([200, 403], JSON.stringify(res.body)).toContain(res.status);
        if (res.status === 200) out.push(ids[type][key]);
        else expect(res.body.message).not.toMatch(/deleted/);
      }
      return out;
    },
  },
  {
    name: 'options',
    seen: async (type) => (await organizer.get(`/api/options/${resourceOf(type)}`)).body.data.map((r: Row) => r.id),
  },
  {
    name: 'export',
    seen: async (type) => {
      const res = await organizer.get(`/api/exports/download?resource=${resourceOf(type)}&columns=name`);
      expect(res.status, String(res.body)).toBe(200);
      return csvNames(String(res.body))
        .map((name) => idOfName(type, name))
        .filter((key): key is Key => Boolean(key))
        .map((key) => ids[type][key]);
    },
  },
  {
    name: 'activity feed',
    seen: async (type) =>
      (await organizer.get(`/api/actions?per_page=100&type=${resourceOf(type)}`)).body.data.map(
        (e: Row) => e.record_id,
      ),
  },
  {
    name: 'history',
    seen: async (type) =>
      (await organizer.get(`/api/revisions?per_page=100&type=${typeOf(type)}`)).body.data.map(
        (r: Row) => r.revisionable_id,
      ),
  },
  {
    name: 'assistant search',
    seen: async (type) => {
      const scope = await createScope(t.ctx, await t.authUser(users.organizer.email));
      const result = await runTool('search_records', { type: typeOf(type), search: 'Policy', limit: 50 }, scope);
      expect(result.error, JSON.stringify(result.data)).toBeUndefined();
      return result.records.map((r: Row) => r.id);
    },
  },
  {
    name: 'map markers',
    types: ['site'],
    seen: async () =>
      (await organizer.get('/api/map/markers?bbox=-180,-90,180,90&zoom=17&layers=sites')).body.data
        .filter((d: Row) => d.kind === 'site')
        .map((d: Row) => d.id),
  },
  {
    name: 'edit in place (update)',
    seen: async (type) => {
      const out: number[] = [];
      for (const key of KEYS) {
        const res = await organizer.put(`/api/${resourceOf(type)}/${ids[type][key]}`, {
          name: `Policy ${key} ${type === 'site' ? 'site' : 'inspection'}`,
        });
        expect([200, 403], JSON.stringify(res.body)).toContain(res.status);
        if (res.status === 200) out.push(ids[type][key]);
      }
      return out;
    },
  },
  {
    name: 'realtime',
    seen: async (type) => {
      const events = recordEvents(t);
      for (const key of KEYS) {
        const res = await admin.put(`/api/${resourceOf(type)}/${ids[type][key]}`, {
          name: `Policy ${key} ${type === 'site' ? 'site' : 'inspection'} `,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        await admin.put(`/api/${resourceOf(type)}/${ids[type][key]}`, {
          name: `Policy ${key} ${type === 'site' ? 'site' : 'inspection'}`,
        });
      }
      const reaches = [`private-App.Models.User.${users.organizer.id}`, `private-App.Models.Role.${roleId}`];
      return events
        .filter((e) => e.data?.type === typeOf(type) && e.channels.some((c) => reaches.includes(c)))
        .map((e) => e.data.id);
    },
  },
];

describe('every path × every row rule × a built-in type and a type made in the app', () => {
  for (const rule of RULES) {
    describe(`rule: ${rule.name}`, () => {
      beforeAll(async () => {
        await setPolicy({ site: { read: rule.rule('site') }, [inspections.type]: { read: rule.rule('inspection') } });
      });
      for (const type of TYPES) {
        for (const path of PATHS) {
          if (path.types && !path.types.includes(type)) continue;
          it(`${type === 'site' ? 'sites' : 'inspections'}: ${path.name}`, async () => {
            const seen = [...new Set(mine(type, await path.seen(type)))];
            expect(seen, `${rule.name} / ${path.name}`).toEqual(ofKeys(type, rule.sees));
          });
        }
      }
      it('counts (the assistant, the market share) agree with the list', async () => {
        const scope = await createScope(t.ctx, await t.authUser(users.organizer.email));
        const counted = await runTool('count_records', { type: inspections.type, search: 'Policy' }, scope);
        expect((counted.data as Row).total).toBe(rule.sees.length);
        const share = await organizer.get('/api/reports/market-share?group_by=none&search=Policy');
        expect(share.status, JSON.stringify(share.body)).toBe(200);
      });
    });
  }
});

describe('field rules', () => {
  beforeAll(async () => {
    await setPolicy({
      site: { fields: { estimated_value: 'hidden', owner: 'read_only' } },
      [inspections.type]: { fields: { fine: 'hidden', status: 'read_only' } },
    });
  });

  it('a hidden field is in no list, show, export, history, assistant answer or realtime payload, and cannot be filtered or sorted by', async () => {
    for (const [type, field] of [
      ['site', 'estimated_value'],
      ['inspection', 'fine'],
    ] as const) {
      const list = (await organizer.get(`/api/${resourceOf(type)}?per_page=100&search=Policy`)).body.data;
      expect(list.length).toBe(KEYS.length);
      for (const row of list) expect(row, `${type} list`).not.toHaveProperty(field);
      expect((await organizer.get(`/api/${resourceOf(type)}/${ids[type].own}`)).body.data).not.toHaveProperty(field);
      expect((await organizer.get(`/api/${resourceOf(type)}?filter[${field}_gte]=1`)).status).toBe(422);
      expect((await organizer.get(`/api/${resourceOf(type)}?sort=${field}`)).status).toBe(422);
      expect(
        (await organizer.get(`/api/exports/download?resource=${resourceOf(type)}&columns=name,${field}`)).status,
      ).toBe(422);
      const exported = await organizer.get(`/api/exports/download?resource=${resourceOf(type)}&search=Policy`);
      expect(exported.status).toBe(200);
      expect(String(exported.body).split('\n')[0]).not.toMatch(/Estimated value|Fine/);
      const events = recordEvents(t);
      await admin.put(`/api/${resourceOf(type)}/${ids[type].own}`, { [field]: 4321 });
      const history = (await organizer.get(`/api/revisions?type=${typeOf(type)}&revisionable_id=${ids[type].own}`)).body
        .data;
      expect(history.length).toBeGreaterThan(0);
      for (const revision of history) expect(revision.changes, `${type} history`).not.toHaveProperty(field);
      const toOrganizer = events.filter(
        (e) => e.data?.id === ids[type].own && e.channels.includes(`private-App.Models.Role.${roleId}`),
      );
      expect(toOrganizer.length, `${type} realtime`).toBeGreaterThan(0);
      for (const event of toOrganizer) expect(event.data.data, `${type} realtime payload`).not.toHaveProperty(field);
      // The administrator's channel gets the whole record.
      const toEveryone = events.find(
        (e) => e.data?.id === ids[type].own && !e.channels.includes(`private-App.Models.Role.${roleId}`),
      );
      expect(toEveryone?.data.data).toHaveProperty(field, 4321);
      const scope = await createScope(t.ctx, await t.authUser(users.organizer.email));
      const found = await runTool('search_records', { type: typeOf(type), search: 'Policy own' }, scope);
      for (const record of found.records) expect(record, `${type} assistant`).not.toHaveProperty(field);
      // Setting it is refused, in words.
      const set = await organizer.put(`/api/${resourceOf(type)}/${ids[type].own}`, { [field]: 1 });
      expect(set.status).toBe(422);
      expect(set.body.errors[field][0]).toMatch(/may not see or set/);
    }
  });

  it('a read-only field is shown and sent back unchanged, never changed; other fields still change', async () => {
    for (const [type, field, value, other] of [
      ['site', 'owner', 'Someone else', { street: '1 Policy Way' }],
      ['inspection', 'status', 'open', { name: 'Policy own inspection' }],
    ] as const) {
      const record = (await organizer.get(`/api/${resourceOf(type)}/${ids[type].own}`)).body.data;
      expect(record).toHaveProperty(field);
      const changed = await organizer.put(`/api/${resourceOf(type)}/${ids[type].own}`, { [field]: value });
      expect(changed.status, JSON.stringify(changed.body)).toBe(422);
      expect(changed.body.errors[field][0]).toMatch(/may not change/);
      const same = await organizer.put(`/api/${resourceOf(type)}/${ids[type].own}`, {
        [field]: record[field],
        ...other,
      });
      expect(same.status, JSON.stringify(same.body)).toBe(200);
    }
  });

  it('an import refuses the rows setting a read-only field, naming the reason, and writes the others', async () => {
    const person = await t.authUser(users.organizer.email);
    const def = t.ctx.resources.get(inspections.resource)!;
    const importId = await importRow();
    const outcomes = await t.ctx.db
      .transaction()
      .execute((trx) =>
        t.ctx.records.importBatch(
          trx,
          person,
          def,
          [
            { values: { name: 'Policy own inspection', status: 'open' } },
            { values: { name: 'Policy team inspection', site: ids.site.turf } },
          ],
          { importId, keyField: 'name', create: false, recordUndo: false },
        ),
      );
    expect(outcomes.map((o) => o.outcome)).toEqual(['failed', 'updated']);
    expect(outcomes[0].reason).toMatch(/may not change the Status/);
  });
});

describe('imports and bulk edits name the rows refused with the reason', () => {
  beforeAll(async () => {
    await setPolicy({ site: { read: 'all', update: 'own' }, [inspections.type]: { read: 'all', update: 'team' } });
  });

  it('a bulk edit changes what the person may change and lists the others with the rule’s words', async () => {
    const res = await organizer.post('/api/bulk-edits', {
      resource: 'sites',
      field: 'street',
      value: 'Bulk Street',
      ids: KEYS.map((key) => ids.site[key]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await t.app.jobs.drain();
    const done = (await organizer.get(`/api/bulk-edits/${res.body.data.id}`)).body.data;
    expect(done).toMatchObject({ status: 'complete', changed_count: 1, refused_count: KEYS.length - 1 });
    for (const refusal of done.refusals)
      expect(refusal.reason).toBe('You may change only the sites you created or are assigned.');
  });

  it('an import updates what the person may change and fails the rest, one by one', async () => {
    const person = await t.authUser(users.organizer.email);
    const def = t.ctx.resources.get(inspections.resource)!;
    const importId = await importRow();
    const outcomes = await t.ctx.db.transaction().execute((trx) =>
      t.ctx.records.importBatch(
        trx,
        person,
        def,
        KEYS.map((key) => ({ values: { name: `Policy ${key} inspection`, fine: 999 } })),
        { importId, keyField: 'name', create: false, recordUndo: false },
      ),
    );
    expect(Object.fromEntries(KEYS.map((key, i) => [key, outcomes[i].outcome]))).toEqual({
      own: 'updated',
      team: 'updated',
      teamcond: 'updated',
      turf: 'failed',
      cond: 'failed',
      none: 'failed',
    });
    expect(outcomes[3].reason).toBe('You may change only the inspections of your team.');
  });
});

describe('own work stays one’s own (the seeded organizer role)', () => {
  it('an organizer edits and deletes the notes and tasks they wrote or are assigned, not another’s: 403 in plain words', async () => {
    const worker = await t.signIn(users.teammate.email);
    const adminNote = await created('notes', { body: 'Admin note', notable_type: 'site', notable_id: ids.site.none });
    const adminTask = await created('tasks', {
      title: 'Admin task',
      type: 'call',
      taskable_type: 'site',
      taskable_id: ids.site.none,
      assignee_id: users.other.id,
    });
    const assigned = await created('tasks', { title: 'For Tam', type: 'call', assignee_id: users.teammate.id });
    const theirs = await created(
      'notes',
      { body: 'Tam note', notable_type: 'site', notable_id: ids.site.none },
      worker,
    );
    const edit = await worker.put(`/api/notes/${adminNote.id}`, { body: 'Changed' });
    expect(edit.status).toBe(403);
    expect(edit.body.message).toBe('You may change only the notes you created or are assigned.');
    expect((await worker.delete(`/api/tasks/${adminTask.id}`)).status).toBe(403);
    expect((await worker.get(`/api/notes/${adminNote.id}`)).status).toBe(200);
    expect((await worker.put(`/api/notes/${theirs.id}`, { body: 'Mine, changed' })).status).toBe(200);
    expect((await worker.put(`/api/tasks/${assigned.id}`, { completed: true })).status).toBe(200);
    expect((await worker.delete(`/api/notes/${theirs.id}`)).status).toBe(200);
    // Administrators change anyone's.
    expect((await admin.put(`/api/notes/${adminNote.id}`, { body: 'Changed by the administrator' })).status).toBe(200);
  });
});

describe('realtime fan-out of a rule on the parent record', () => {
  it('reaches the role’s channel when the parent’s rule is alike for all, member by member when it depends on the person', async () => {
    const outside = await created('notes', { body: 'Fan-out note', notable_type: 'site', notable_id: ids.site.none });
    const inside = await created('notes', { body: 'Turf note', notable_type: 'site', notable_id: ids.site.turf });
    const notes = t.ctx.resources.get('notes')!;
    // One kept list throughout, as the broadcaster keeps it: each policy change below must reach it.
    const roles = KeptRoles.of(t.ctx.database);
    const readersFor = async (note: Row) =>
      (await readersOf(t.ctx.db, t.ctx.records.access, notes, note, await roles.all())).find(
        (readers) => readers.roleId === roleId,
      );
    // Notes on the sites they read, and every site: each member reads the note, so it goes on the role's channel.
    await setPolicy({ note: { read: 'parent' } }, ['note:read']);
    expect((await readersFor(outside))?.members).toBe('role');
    // Sites of their turf only: the note on a turf site reaches the members whose turf holds it, one by one.
    await setPolicy({ note: { read: 'parent' }, site: { read: 'turf' } }, ['note:read']);
    expect((await readersFor(inside))?.members).toEqual([users.organizer.id]);
    expect(await readersFor(outside)).toBeUndefined();
    // A condition on the site, the same for everyone: the role's channel again, for the notes on sites it admits.
    await setPolicy({ note: { read: 'parent' }, site: { read: conditionOf('site') } }, ['note:read']);
    const onCondition = await created('notes', { body: 'Cond note', notable_type: 'site', notable_id: ids.site.cond });
    expect((await readersFor(onCondition))?.members).toBe('role');
    expect(await readersFor(outside)).toBeUndefined();
  });
});

describe('nobody grants what they do not hold', () => {
  it('a role editor cannot widen a row rule beyond their own, nor open a field they may not see', async () => {
    const editorRole = await created('roles', {
      slug: 'policy-editor',
      name: 'Policy editor',
      permissions: ['role:read', 'role:create', 'role:update', 'site:read', 'user:read', 'user:update'],
      policy: { site: { read: 'turf', fields: { estimated_value: 'hidden' } } },
    });
    await t.createUser({ role: 'policy-editor', email: 'policy-editor@example.com' });
    const editor = await t.signIn('policy-editor@example.com');
    const make = (policy: Record<string, unknown>) =>
      editor.post('/api/roles', {
        slug: `made-${Math.random().toString(36).slice(2, 8)}`,
        name: 'Made',
        permissions: ['site:read'],
        policy,
      });
    expect((await make({ site: { read: 'turf', fields: { estimated_value: 'hidden' } } })).status).toBe(201);
    expect(
      (await make({ site: { read: { all: ['turf', 'own'] }, fields: { estimated_value: 'hidden' } } })).status,
    ).toBe(201);
    const wider = await make({ site: { read: 'all', fields: { estimated_value: 'hidden' } } });
    expect(wider.status).toBe(403);
    expect(wider.body.message).toMatch(/read site rows/);
    expect((await make({ site: { read: 'turf' } })).status).toBe(403);
    // A bad rule is a 422 naming it.
    const bad = await admin.post('/api/roles', {
      slug: 'bad-rule',
      name: 'Bad',
      permissions: [],
      policy: { site: { read: { condition: { all: [{ field: 'nope', op: 'eq', value: 1 }] } } } },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)[0]).toBe('policy.site.read');
    expect(editorRole.policy).toEqual({ site: { read: 'turf', fields: { estimated_value: 'hidden' } } });
  });
});

describe('see as', () => {
  it('says how many records of each type a person would see under a role not saved yet, with a few by name', async () => {
    const res = await admin.post('/api/access/see-as', {
      user_id: users.organizer.id,
      permissions: ['site:read', `${inspections.type}:read`],
      policy: { site: { read: 'own' }, [inspections.type]: { read: 'team' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byType = Object.fromEntries(res.body.data.map((row: Row) => [row.type, row]));
    expect(byType.site.count).toBe(1);
    expect(byType.site.sample.map((s: Row) => s.id)).toEqual([ids.site.own]);
    expect(byType[inspections.type].count).toBe(3);
    expect(Object.keys(byType).sort()).toEqual(['site', inspections.type].sort());
    expect((await organizer.post('/api/access/see-as', { user_id: users.organizer.id })).status).toBe(403);
  });
});
