import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * The generated resources (docs/records.md): every one serves list, show, create, update, delete (and restore
 * where SPEC marks it), with permissions, category rows, conflicts, history; the work on records (notes, tasks,
 * notifications, sharing, documents); the options lists.
 */
let t: TestApp;
let admin: TestClient;
const events: Array<{ channels: string[]; event: string; data: any }> = [];
const UPLOAD_LIMIT = 64 * 1024;

beforeAll(async () => {
  t = await startTestApp({ UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT) });
  admin = await t.admin();
  const publish = t.ctx.realtime.publish.bind(t.ctx.realtime);
  t.ctx.realtime.publish = async (channels: string[], event: string, data: unknown, options?: any) => {
    events.push({ channels, event, data });
    return publish(channels, event, data, options);
  };
});
afterAll(async () => {
  await t?.close();
});

const firstId = async (resource: string) => (await admin.get(`/api/${resource}?per_page=1`)).body.data[0].id as number;

async function create(resource: string, values: Record<string, unknown>, client = admin) {
  const res = await client.post(`/api/${resource}`, values);
  expect(res.status, `${resource}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data;
}

/** multipart/form-data with the client's session and CSRF header, as the browser sends it. */
async function upload(
  client: TestClient,
  pathname: string,
  fields: Record<string, string>,
  file?: { name: string; type: string; content: Buffer | string },
) {
  if (!client.jar.has('XSRF-TOKEN')) await client.csrf();
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('file', new Blob([file.content as any], { type: file.type }), file.name);
  const response = await fetch(t.baseUrl + pathname, {
    method: 'POST',
    body: form,
    headers: {
      accept: 'application/json',
      cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-xsrf-token': decodeURIComponent(client.jar.get('XSRF-TOKEN')!),
    },
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe('every generated resource: list, show, create, update, delete, restore', () => {
  const restorable = new Set([
    'sites',
    'contractors',
    'contacts',
    'members',
    'recruits',
    'grievances',
    'building-types',
    'classifications',
    'classification-types',
    'contractor-types',
    'contact-statuses',
    'dispatch-types',
    'trades',
    'unions',
    'site-phases',
    'site-statuses',
    'site-types',
    'regions',
    'teams',
  ]);
  const payloads: Array<[string, string, () => Promise<Record<string, unknown>>, Record<string, unknown>]> = [
    [
      'sites',
      'Site',
      async () => ({
        name: 'Harbor Tower',
        type: 'union',
        city: 'Oakland',
        estimated_value: 1_500_000,
        prevailing_wage: true,
        bid_date: '2026-05-01',
      }),
      { owner: 'Port of Oakland' },
    ],
    [
      'contractors',
      'Contractor',
      async () => ({ name: 'Apex Electric', type: 'union', phone: '(510) 555-0100', email: 'office@apex.example' }),
      { city: 'Oakland' },
    ],
    [
      'contacts',
      'Contact',
      async () => ({ first_name: 'Rosa', last_name: 'Diaz', status: 'interested', email: 'rosa@example.com' }),
      { title: 'Foreman' },
    ],
    [
      'members',
      'Member',
      async () => ({
        first_name: 'Luis',
        last_name: 'Garcia',
        is_steward: true,
        union_id: await firstId('unions'),
        classification_id: await firstId('classifications'),
      }),
      { member_number: 'M-1' },
    ],
    [
      'recruits',
      'Recruit',
      async () => ({ first_name: 'Mei', last_name: 'Lee', status: 'interested' }),
      { status: 'signed', signed_at: '2026-02-02' },
    ],
    [
      'grievances',
      'Grievance',
      async () => ({ title: 'Unpaid overtime', status: 'open', filed_at: '2026-01-10' }),
      { status: 'closed', closed_at: '2026-02-10' },
    ],
    ['building-types', 'Building Type', async () => ({ name: 'Stadium' }), { color: '#336699' }],
    ['classification-types', 'Classification Type', async () => ({ name: 'Helper' }), { description: 'Helpers' }],
    [
      'classifications',
      'Classification',
      async () => ({ name: 'Helper 1', classification_type_id: await firstId('classification-types') }),
      { color: '#aa0000' },
    ],
    ['contact-statuses', 'Contact Status', async () => ({ name: 'Volunteer' }), { color: '#00aa00' }],
    ['contractor-types', 'Contractor Type', async () => ({ name: 'Signatory' }), { color: '#0000aa' }],
    ['dispatch-types', 'Dispatch Type', async () => ({ name: 'Request' }), { description: 'By name' }],
    ['trades', 'Craft', async () => ({ name: 'Boilermakers' }), { color: '#123456' }],
    ['unions', 'Union', async () => ({ name: 'Boilermakers Local 92' }), { description: 'LA' }],
    ['site-phases', 'Site Phase', async () => ({ name: 'Demolition' }), { position: 99 }],
    ['site-statuses', 'Site Status', async () => ({ name: 'Cancelled' }), { color: '#999999' }],
    ['site-types', 'Site Type', async () => ({ name: 'Data Center', slug: 'data-center' }), { color: '#654321' }],
    ['tags', 'Tag', async () => ({ name: 'Hot lead', color: '#ff0000' }), { color: '#00ff00' }],
    [
      'regions',
      'Region',
      async () => ({ name: 'Test County', geometry_type: 'county', code: '99999' }),
      { color: '#abcdef' },
    ],
    ['teams', 'Team', async () => ({ name: 'East Bay' }), { color: '#0f0f0f' }],
    [
      'tasks',
      'Task',
      async () => ({ title: 'Call the GC', type: 'call', due_at: '2026-12-01T17:00:00Z' }),
      { completed: true },
    ],
    ['notes', 'Note', async () => ({ body: 'Met the crew.' }), { body: 'Met the crew at 7.' }],
    ['notifications', 'Notification', async () => ({ title: 'Hello' }), { read_at: '2026-11-21T10:00:00Z' }],
  ];

  it.each(payloads)('%s', async (resource, name, make, change) => {
    const created = await admin.post(`/api/${resource}`, await make());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.message).toBe(`${name} created successfully.`);
    const record = created.body.data;
    expect(record).toMatchObject({
      id: expect.any(Number),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const list = await admin.get(`/api/${resource}?per_page=-1`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: any) => r.id)).toContain(record.id);
    expect((await admin.get(`/api/${resource}/${record.id}`)).body.data).toEqual(record);

    const updated = await admin.post(`/api/${resource}/${record.id}`, { ...change, updated_at: record.updated_at });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.message).toBe(`${name} updated successfully.`);
    // Saving over a change made since the form opened is refused.
    const stale = await admin.post(`/api/${resource}/${record.id}`, { ...change, updated_at: record.updated_at });
    expect(stale.status).toBe(409);

    const deleted = await admin.delete(`/api/${resource}/${record.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe(`${name} deleted successfully.`);
    expect((await admin.get(`/api/${resource}/${record.id}`)).status).toBe(404);
    const restore = await admin.post(`/api/${resource}/${record.id}/restore`);
    if (restorable.has(resource)) {
      expect(restore.status).toBe(200);
      expect(restore.body.message).toBe(`${name} restored successfully.`);
      expect((await admin.get(`/api/${resource}/${record.id}`)).status).toBe(200);
    } else {
      expect(restore.status).toBe(404);
    }
    // History shows revisions of records one may read: a notification, deleted for good, has none to show.
    if (resource !== 'notifications') {
      const history = await admin.get(`/api/revisions?revisionable_id=${record.id}&type=${await typeOf(resource)}`);
      expect(
        history.body.data
          .map((r: any) => r.action)
          .reverse()
          .slice(0, 3),
      ).toEqual(['created', 'updated', 'deleted']);
    }
  });

  const typeOf = async (resource: string) => {
    const schema = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: any) => s.resource === resource);
    return schema?.type ?? { tasks: 'task', notes: 'note', notifications: 'notification', tags: 'tag' }[resource];
  };

  it('validates by type and refuses relations to rows that do not exist', async () => {
    const bad = await admin.post('/api/sites', {
      name: 'X',
      type: 'castle',
      bid_date: 'soon',
      general_contractor_id: 999_999,
      source: 'rumour',
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['bid_date', 'source']);
    const type = await admin.post('/api/sites', { name: 'X', type: 'castle' });
    expect(type.body.errors.type[0]).toMatch(/^The type must be one of: development, /);
    const relation = await admin.post('/api/sites', {
      name: 'X',
      type: 'union',
      general_contractor_id: 999_999,
      trade_ids: [999_998],
    });
    expect(relation.status).toBe(422);
    expect(Object.keys(relation.body.errors).sort()).toEqual(['general_contractor_id', 'trade_ids']);
    const contact = await admin.post('/api/contacts', { first_name: 'A', email: 'not-mail', status: 'vip' });
    expect(Object.keys(contact.body.errors)).toEqual(['email']);
    expect((await admin.post('/api/contacts', { first_name: 'A', status: 'vip' })).body.errors.status[0]).toMatch(
      /The status must be one of/,
    );
    expect(
      (await admin.post('/api/grievances', { title: 'G', filed_at: '2026-02-01', closed_at: '2026-01-01' })).body
        .errors,
    ).toHaveProperty('closed_at');
    expect((await admin.post('/api/tasks', { title: 'T', type: 'lunch' })).body.errors).toHaveProperty('type');
  });
});

describe('sites', () => {
  it('keep their contractors with their trade, trades, contacts, tags and custom values; filter, sort and search', async () => {
    const trades = (await admin.get('/api/trades?per_page=3')).body.data.map((r: any) => r.id);
    const gc = await create('contractors', { name: 'Granite Builders', type: 'general' });
    const sub = await create('contractors', { name: 'Ironclad Steel', type: 'non-union' });
    const tag = await create('tags', { name: 'Priority' });
    const contact = await create('contacts', { first_name: 'Andre', last_name: 'Smith' });
    const site = await create('sites', {
      name: 'Summit Medical Center',
      type: 'pla',
      street: '100 Grand Ave',
      city: 'Sacramento',
      county: 'Sacramento',
      state: 'CA',
      postal_code: '95814',
      latitude: 38.58,
      longitude: -121.49,
      general_contractor_id: gc.id,
      contractors: [{ contractor_id: sub.id, trade_id: trades[1] }],
      trade_ids: [trades[0], trades[2]],
      contact_ids: [contact.id],
      tag_ids: [tag.id],
      estimated_hours: 12_000,
      permit_number: 'P-77',
    });
    expect(site).toMatchObject({
      contractors: [{ contractor_id: sub.id, trade_id: trades[1] }],
      contractor_ids: [sub.id],
      trade_ids: [trades[0], trades[2]].sort((a, b) => a - b),
      contact_ids: [contact.id],
      tag_ids: [tag.id],
      permit_number: 'P-77',
      source: 'manual',
      prevailing_wage: false,
      attachments: [],
    });
    expect((await admin.get(`/api/contacts/${contact.id}`)).body.data.site_ids).toEqual([site.id]);

    const other = await create('sites', {
      name: 'Cedar Lofts',
      type: 'union',
      city: 'Fresno',
      permit_number: 'P-12',
      estimated_hours: 500,
    });
    const ids = (res: any) => res.body.data.map((r: any) => r.id);
    expect(ids(await admin.get(`/api/sites?filter[contractor_ids]=${sub.id}`))).toEqual([site.id]);
    expect(ids(await admin.get(`/api/sites?filter[tag_ids]=${tag.id}`))).toEqual([site.id]);
    expect(ids(await admin.get(`/api/sites?filter[trade_ids][]=${trades[2]}`))).toEqual([site.id]);
    expect(ids(await admin.get('/api/sites?filter[permit_number]=p-12'))).toEqual([other.id]);
    expect(ids(await admin.get('/api/sites?filter={"city":"Fresno"}'))).toEqual([other.id]);
    expect(ids(await admin.get('/api/sites?filter[estimated_hours_gte]=1000'))).toEqual([site.id]);
    expect(
      ids(await admin.get(`/api/sites?filter[id][]=${site.id}&filter[id][]=${other.id}&sort=permit_number&order=asc`)),
    ).toEqual([other.id, site.id]);
    expect(
      ids(await admin.get(`/api/sites?filter[id][]=${site.id}&filter[id][]=${other.id}&sort=-estimated_hours`)),
    ).toEqual([site.id, other.id]);
    // Search: name, address, owner..., across columns, case-insensitive, % taken literally.
    expect(ids(await admin.get('/api/sites?search=summit med'))).toEqual([site.id]);
    expect(ids(await admin.get('/api/sites?search=100 grand'))).toEqual([site.id]);
    expect(ids(await admin.get('/api/sites?search=95814'))).toEqual([site.id]);
    expect(ids(await admin.get('/api/sites?filter[q]=FRESNO'))).toEqual([other.id]);
    expect(ids(await admin.get('/api/sites?search=%25'))).toEqual([]);

    // Contractors drop out when the list is replaced; trades of each contractor follow.
    const changed = await admin.post(`/api/sites/${site.id}`, { contractors: [] });
    expect(changed.body.data).toMatchObject({ contractors: [], contractor_ids: [] });
    const revision = (await admin.get(`/api/revisions?type=site&revisionable_id=${site.id}`)).body.data[0];
    expect(revision.changes.contractors).toEqual([[{ contractor_id: sub.id, trade_id: trades[1] }], []]);
  });

  it('POST /{id}/contacts adds, removes and replaces contacts; POST /{id}/change-type moves a site between types', async () => {
    const site = await create('sites', { name: 'Oak Plaza', type: 'union' });
    const a = await create('contacts', { first_name: 'Ann' });
    const b = await create('contacts', { first_name: 'Ben' });
    expect((await admin.post(`/api/sites/${site.id}/contacts`, { contact_id: a.id })).body.data.contact_ids).toEqual([
      a.id,
    ]);
    expect((await admin.post(`/api/sites/${site.id}/contacts`, { contact_id: b.id })).body.data.contact_ids).toEqual([
      a.id,
      b.id,
    ]);
    expect(
      (await admin.post(`/api/sites/${site.id}/contacts`, { contact_id: a.id, detach: true })).body.data.contact_ids,
    ).toEqual([b.id]);
    expect((await admin.post(`/api/sites/${site.id}/contacts`, { contact_ids: [] })).body.data.contact_ids).toEqual([]);
    expect((await admin.post(`/api/sites/${site.id}/contacts`, {})).status).toBe(422);

    const contractor = await create('contractors', { name: 'Bright Drywall', type: 'union' });
    expect(
      (await admin.post(`/api/contractors/${contractor.id}/contacts`, { contact_ids: [a.id, b.id] })).body.data
        .contact_ids,
    ).toEqual([a.id, b.id]);
    expect((await admin.get(`/api/contacts/${a.id}`)).body.data.contractor_ids).toEqual([contractor.id]);

    const moved = await admin.post(`/api/sites/${site.id}/change-type`, { type: 'non-union' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ data: { type: 'non-union' }, message: 'Site type changed successfully.' });
    expect((await admin.post(`/api/sites/${site.id}/change-type`, { type: 'castle' })).status).toBe(422);
    expect((await admin.post(`/api/sites/${site.id}/change-type`, {})).status).toBe(422);
    const stale = await admin.post(`/api/sites/${site.id}/change-type`, { type: 'pla', updated_at: site.updated_at });
    expect(stale.status).toBe(409);
  });
});

describe('permissions on the generated resources', () => {
  let assistant: TestClient;
  let organizer: TestClient;
  let siteIds: Record<string, number>;
  let contractorIds: Record<string, number>;
  beforeAll(async () => {
    siteIds = {};
    for (const type of ['union', 'pla', 'non-union', 'development', 'public-works'])
      siteIds[type] = (await create('sites', { name: `Perm ${type}`, type })).id;
    contractorIds = {};
    for (const type of ['union', 'non-union', 'general'])
      contractorIds[type] = (await create('contractors', { name: `Perm ${type}`, type })).id;
    assistant = await t.signIn((await t.createUser({ role: 'assistant' })).email);
    organizer = await t.signIn((await t.createUser({ role: 'user' })).email);
  });

  const RESOURCES: Array<[string, string]> = [
    ['sites', 'site'],
    ['contractors', 'contractor'],
    ['contacts', 'contact'],
    ['members', 'member'],
    ['recruits', 'recruit'],
    ['grievances', 'grievance'],
    ['building-types', 'building-type'],
    ['classifications', 'classification'],
    ['classification-types', 'classification-type'],
    ['contractor-types', 'contractor-type'],
    ['contact-statuses', 'contact-status'],
    ['dispatch-types', 'dispatch-type'],
    ['trades', 'trade'],
    ['unions', 'union'],
    ['site-phases', 'site-phase'],
    ['site-statuses', 'site-status'],
    ['site-types', 'site-type'],
    ['regions', 'region'],
    ['tags', 'tag'],
    ['tasks', 'task'],
    ['notes', 'note'],
    ['notifications', 'notification'],
    ['documents', 'document'],
    ['attachments', 'attachment'],
    ['schemas', 'schema'],
    ['schema-fields', 'schema-field'],
    ['logic-blocks', 'logic-block'],
    ['logic-conditions', 'logic-block'],
    ['logic-actions', 'logic-block'],
  ];

  it('every generated resource needs its own permission: none gives 403, read alone reads but does not write', async () => {
    await create('roles', { slug: 'nobody', name: 'Nobody', permissions: ['feature:read'] });
    const nobody = await t.signIn((await t.createUser({ role: 'nobody' })).email);
    await create('roles', {
      slug: 'reader',
      name: 'Reader',
      permissions: [...new Set(RESOURCES.map(([, entity]) => `${entity}:read`))],
    });
    const reader = await t.signIn((await t.createUser({ role: 'reader' })).email);
    for (const [resource] of RESOURCES) {
      expect((await nobody.get(`/api/${resource}`)).status, `${resource} list`).toBe(403);
      expect((await nobody.get(`/api/options/${resource}`)).status, `${resource} options`).toBe(403);
      expect((await nobody.post(`/api/${resource}`, {})).status, `${resource} create`).toBe(403);
      expect((await reader.get(`/api/${resource}`)).status, `${resource} read`).toBe(200);
      expect((await reader.post(`/api/${resource}`, {})).status, `${resource} create by a reader`).toBe(403);
    }
    const site = await create('sites', { name: 'Guarded', type: 'union' });
    expect((await reader.get(`/api/sites/${site.id}`)).status).toBe(200);
    for (const [method, path] of [
      ['POST', `/api/sites/${site.id}`],
      ['DELETE', `/api/sites/${site.id}`],
      ['POST', `/api/sites/${site.id}/restore`],
      ['POST', `/api/sites/${site.id}/change-type`],
      ['POST', `/api/sites/${site.id}/contacts`],
    ] as const) {
      expect(
        (await reader.request(method, path, method === 'POST' ? { type: 'pla', contact_ids: [] } : undefined)).status,
        `${method} ${path}`,
      ).toBe(403);
    }
  });

  it('the seeded assistant sees only union and PLA sites and union contractors, and writes nothing', async () => {
    const sites = (await assistant.get('/api/sites?per_page=-1')).body.data;
    expect(new Set(sites.map((s: any) => s.type))).toEqual(new Set(['union', 'pla']));
    expect(sites.map((s: any) => s.id)).toEqual(expect.arrayContaining([siteIds.union, siteIds.pla]));
    expect((await assistant.get(`/api/sites/${siteIds['non-union']}`)).status).toBe(404);
    expect((await assistant.get(`/api/sites/${siteIds.pla}`)).status).toBe(200);
    expect((await assistant.get('/api/sites?filter[type]=non-union')).body.data).toEqual([]);
    expect((await assistant.post('/api/sites', { name: 'No', type: 'union' })).status).toBe(403);
    expect((await assistant.post(`/api/sites/${siteIds.union}`, { name: 'No' })).status).toBe(403);
    expect((await assistant.post(`/api/sites/${siteIds.union}/change-type`, { type: 'pla' })).status).toBe(403);
    const contractors = (await assistant.get('/api/contractors?per_page=-1')).body.data;
    expect(new Set(contractors.map((c: any) => c.type))).toEqual(new Set(['union']));
    expect((await assistant.get(`/api/contractors/${contractorIds['non-union']}`)).status).toBe(404);
    const options = (await assistant.get('/api/options/sites')).body.data.map((o: any) => o.id);
    expect(options).toContain(siteIds.union);
    expect(options).not.toContain(siteIds['non-union']);
    expect((await assistant.get('/api/options/site-cities')).status).toBe(200);
    // Reads granted to the assistant; the rest refused.
    expect((await assistant.get('/api/contacts')).status).toBe(200);
    for (const resource of ['members', 'recruits', 'grievances'])
      expect((await assistant.get(`/api/${resource}`)).status, resource).toBe(403);
    for (const resource of ['trades', 'unions', 'site-statuses', 'regions'])
      expect((await assistant.get(`/api/${resource}`)).status, resource).toBe(200);
    expect((await assistant.post('/api/trades', { name: 'No' })).status).toBe(403);
  });

  it('an organizer (user) works records but deletes no sites and no reference data', async () => {
    const site = await create('sites', { name: 'Organizer site', type: 'union' }, organizer);
    expect(site.user_id).not.toBeNull();
    expect((await organizer.post(`/api/sites/${site.id}`, { owner: 'Me' })).status).toBe(200);
    expect((await organizer.delete(`/api/sites/${site.id}`)).status).toBe(403);
    expect((await organizer.post('/api/unions', { name: 'No' })).status).toBe(403);
    expect((await organizer.delete(`/api/trades/${await firstId('trades')}`)).status).toBe(403);
    expect((await organizer.get('/api/sites?only_trashed=1')).status).toBe(403);
  });

  it('category permissions apply to the old and the new type when a site changes type', async () => {
    const role = await create('roles', {
      slug: 'union-desk',
      name: 'Union desk',
      permissions: ['site:read', 'site:update:union', 'site:update:pla'],
    });
    const user = await t.createUser({ role: 'union-desk' });
    const desk = await t.signIn(user.email);
    expect((await desk.post(`/api/sites/${siteIds.union}/change-type`, { type: 'pla' })).status).toBe(200);
    expect((await desk.post(`/api/sites/${siteIds.pla}/change-type`, { type: 'non-union' })).status).toBe(403);
    expect((await desk.post(`/api/sites/${siteIds['non-union']}/change-type`, { type: 'union' })).status).toBe(403);
    expect((await admin.get(`/api/sites/${siteIds['non-union']}`)).body.data.type).toBe('non-union');
    expect(role.permissions).toContain('site:update:union');
  });

  it('model events for a category row go only to roles that may read it', async () => {
    events.length = 0;
    const site = await create('sites', { name: 'Secret yard', type: 'non-union' });
    const saved = events.find(
      (e) => e.event === 'App.Events.ModelCreated' && e.data.type === 'site' && e.data.id === site.id,
    )!;
    expect(saved).toBeTruthy();
    expect(saved.channels).not.toContain(`private-App.Models.Role.${await t.roleId('assistant')}`);
    expect(saved.channels).toContain(`private-App.Models.Role.${await t.roleId('user')}`);
  });
});

describe('work on records', () => {
  it('notes: on a record, completed with POST /{id}/complete, hidden with the record from those who may not read it', async () => {
    const union = await create('sites', { name: 'Noted union', type: 'union' });
    const secret = await create('sites', { name: 'Noted non-union', type: 'non-union' });
    const note = await create('notes', { body: 'Crew of 20', notable_type: 'site', notable_id: union.id });
    const hidden = await create('notes', { body: 'Secret', notable_type: 'site', notable_id: secret.id });
    expect(note).toMatchObject({ completed: false, completed_at: null, user_name: 'Admin Administrator' });
    const done = await admin.post(`/api/notes/${note.id}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.data.completed).toBe(true);
    expect(done.body.data.completed_at).toEqual(expect.any(String));
    expect(
      (await admin.post(`/api/notes/${note.id}/complete`, { completed: false })).body.data.completed_at,
    ).toBeNull();
    expect(
      (await admin.get(`/api/notes?filter[notable_type]=site&filter[notable_id]=${union.id}`)).body.data.map(
        (n: any) => n.id,
      ),
    ).toEqual([note.id]);

    const assistant = await t.signIn((await t.createUser({ role: 'assistant' })).email);
    const seen = (await assistant.get('/api/notes?per_page=-1')).body.data.map((n: any) => n.id);
    expect(seen).toContain(note.id);
    expect(seen).not.toContain(hidden.id);
    expect((await assistant.get(`/api/notes/${hidden.id}`)).status).toBe(404);
    const onSecret = await assistant.post('/api/notes', {
      body: 'sneaky',
      notable_type: 'site',
      notable_id: secret.id,
    });
    expect(onSecret.status).toBe(422);
    expect(onSecret.body.errors).toHaveProperty('notable_id');
    expect((await admin.post('/api/notes', { body: 'x', notable_type: 'planet', notable_id: 1 })).status).toBe(422);
  });

  it('tasks: call, meeting or visit, due, assigned (to the creator by default), completed', async () => {
    const site = await create('sites', { name: 'Tasked', type: 'union' });
    const task = await create('tasks', {
      title: 'Visit the yard',
      type: 'visit',
      due_at: '2026-12-24T09:00:00Z',
      taskable_type: 'site',
      taskable_id: site.id,
    });
    expect(task).toMatchObject({
      type: 'visit',
      due_at: '2026-12-24T09:00:00.000Z',
      completed: false,
      assignee_id: task.user_id,
    });
    const done = await admin.post(`/api/tasks/${task.id}`, { completed: true });
    expect(done.body.data.completed).toBe(true);
    expect(
      (await admin.get('/api/tasks?filter[completed_at_null]=1&per_page=-1')).body.data.map((r: any) => r.id),
    ).not.toContain(task.id);
  });

  it('notifications: each person sees and changes only their own; dismiss; sharing a site or contractor notifies people and team members', async () => {
    const team = await create('teams', { name: 'Share team' });
    const one = await t.createUser({ role: 'user', team_id: team.id });
    const two = await t.createUser({ role: 'leader', team_id: team.id });
    const three = await t.createUser({ role: 'user' });
    const site = await create('sites', { name: 'Shared site', type: 'union' });
    events.length = 0;
    const shared = await admin.post(`/api/sites/${site.id}/share`, {
      team_id: team.id,
      user_id: three.id,
      message: 'Have a look',
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    expect(shared.body).toMatchObject({ message: 'Site shared successfully.', data: { notified: 3 } });
    const notificationEvents = events.filter(
      (e) => e.data.type === 'notification' && e.event === 'App.Events.ModelCreated',
    );
    expect(notificationEvents.map((e) => e.channels)).toEqual(
      expect.arrayContaining([[`private-App.Models.User.${one.id}`]]),
    );

    const client = await t.signIn(one.email);
    const mine = (await client.get('/api/notifications')).body.data;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      user_id: one.id,
      title: expect.stringContaining('Shared site'),
      body: 'Have a look',
      link: `/sites/${site.id}/show`,
      data: { type: 'site', id: site.id },
    });
    const theirs = (await (await t.signIn(three.email)).get('/api/notifications')).body.data[0];
    expect((await client.get(`/api/notifications/${theirs.id}`)).status).toBe(404);
    expect((await client.post(`/api/notifications/${theirs.id}/dismiss`)).status).toBe(404);
    const dismissed = await client.post(`/api/notifications/${mine[0].id}/dismiss`);
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.data.dismissed_at).toEqual(expect.any(String));
    expect((await client.post(`/api/notifications/${mine[0].id}`, { user_id: three.id })).status).toBe(422);

    const contractor = await create('contractors', { name: 'Shared contractor', type: 'union' });
    expect(
      (await admin.post(`/api/contractors/${contractor.id}/share`, { user_ids: [two.id] })).body.data.notified,
    ).toBe(1);
    expect((await admin.post(`/api/contractors/${contractor.id}/share`, {})).status).toBe(422);
    expect((await admin.post(`/api/contractors/${contractor.id}/share`, { user_id: 999_999 })).status).toBe(422);
  });

  it('documents and attachments: checked before they are stored, kept under DATA_DIR/files, shown on the record, downloaded, deleted', async () => {
    const site = await create('sites', { name: 'Documented', type: 'union' });
    const filesDir = path.join(t.config.dataDir, 'files');
    const stored = () =>
      existsSync(path.join(filesDir, 'documents'))
        ? readdirSync(path.join(filesDir, 'documents'), { recursive: true }).filter((f) => String(f).includes('.'))
            .length
        : 0;
    const before = stored();

    const doc = await upload(
      admin,
      '/api/documents',
      { documentable_type: 'site', documentable_id: String(site.id) },
      { name: 'permit.pdf', type: 'application/pdf', content: PDF },
    );
    expect(doc.status, JSON.stringify(doc.body)).toBe(201);
    expect(doc.body.message).toBe('Document created successfully.');
    expect(doc.body.data).toMatchObject({
      documentable_type: 'site',
      documentable_id: site.id,
      file_name: 'permit.pdf',
      mime_type: 'application/pdf',
      size: PDF.length,
      url: `/api/documents/${doc.body.data.id}/download`,
    });
    expect(doc.body.data).not.toHaveProperty('storage_path');
    expect(stored()).toBe(before + 1);

    const viaSite = await upload(
      admin,
      `/api/sites/${site.id}/attachments`,
      {},
      {
        name: 'photo.png',
        type: 'image/png',
        content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
      },
    );
    expect(viaSite.status, JSON.stringify(viaSite.body)).toBe(201);
    const shown = (await admin.get(`/api/sites/${site.id}`)).body.data;
    expect(shown.attachments.map((a: any) => a.file_name)).toEqual(['permit.pdf', 'photo.png']);

    const download = await fetch(`${t.baseUrl}/api/documents/${doc.body.data.id}/download`, {
      headers: { cookie: [...admin.jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toContain('attachment; filename="permit.pdf"');
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);

    const refusals: Array<
      [string, Record<string, string>, { name: string; type: string; content: Buffer | string } | undefined, RegExp]
    > = [
      [
        'an unknown type',
        { documentable_type: 'site', documentable_id: String(site.id) },
        { name: 'tool.exe', type: 'application/x-msdownload', content: 'MZ' },
        /must be one of/,
      ],
      [
        'content that is not what it says',
        { documentable_type: 'site', documentable_id: String(site.id) },
        { name: 'fake.pdf', type: 'application/pdf', content: 'hello' },
        /not a \.pdf file/,
      ],
      [
        'a file over the limit',
        { documentable_type: 'site', documentable_id: String(site.id) },
        { name: 'big.txt', type: 'text/plain', content: 'x'.repeat(UPLOAD_LIMIT + 10) },
        /larger than 64 KB; the most a file may be is 64 KB/,
      ],
      [
        'an empty file',
        { documentable_type: 'site', documentable_id: String(site.id) },
        { name: 'empty.txt', type: 'text/plain', content: '' },
        /empty/,
      ],
      ['no file', { documentable_type: 'site', documentable_id: String(site.id) }, undefined, /Choose a file/],
    ];
    for (const [what, fields, file, message] of refusals) {
      const res = await upload(admin, '/api/documents', fields, file);
      expect(res.status, what).toBe(422);
      expect(res.body.errors.file[0], what).toMatch(message);
    }
    const noOwner = await upload(admin, '/api/documents', {}, { name: 'a.txt', type: 'text/plain', content: 'hi' });
    expect(noOwner.status).toBe(422);
    expect(noOwner.body.errors).toHaveProperty('documentable_type');
    const missingOwner = await upload(
      admin,
      '/api/documents',
      { documentable_type: 'site', documentable_id: '999999' },
      { name: 'a.txt', type: 'text/plain', content: 'hi' },
    );
    expect(missingOwner.status).toBe(422);
    expect(stored()).toBe(before + 2);
    expect(existsSync(path.join(filesDir, 'tmp')) ? readdirSync(path.join(filesDir, 'tmp')) : []).toEqual([]);
    expect(
      (
        await admin.post('/api/documents', {
          documentable_type: 'site',
          documentable_id: site.id,
          file_name: 'x',
          storage_path: '../../etc/passwd',
          mime_type: 'text/plain',
          size: 1,
        })
      ).status,
    ).toBe(415);

    // An upload for an attachment field waits as an attachment; its id goes into the field.
    const field = await admin.post('/api/schema-fields', {
      schema_id: (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: any) => s.type === 'site').id,
      name: 'Site photos',
      type: 'attachment',
    });
    const loose = await upload(
      admin,
      '/api/attachments',
      {},
      { name: 'notes.txt', type: 'text/plain', content: 'gate code 1234' },
    );
    expect(loose.status, JSON.stringify(loose.body)).toBe(201);
    expect(loose.body.data).toMatchObject({ documentable_type: 'attachment', documentable_id: 0 });
    const withPhotos = await admin.post(`/api/sites/${site.id}`, { [field.body.data.slug]: [loose.body.data.id] });
    expect(withPhotos.body.data[field.body.data.slug]).toEqual([loose.body.data.id]);

    // Those who may not read the record see none of its documents.
    const secret = await create('sites', { name: 'Secret documented', type: 'non-union' });
    const hidden = await upload(
      admin,
      '/api/documents',
      { documentable_type: 'site', documentable_id: String(secret.id) },
      { name: 'b.txt', type: 'text/plain', content: 'secret' },
    );
    const leader = await t.signIn((await t.createUser({ role: 'leader' })).email);
    const assistantRole = await t.roleId('assistant');
    const role = (await admin.get(`/api/roles/${assistantRole}`)).body.data;
    await admin.post(`/api/roles/${assistantRole}`, { permissions: [...role.permissions, 'document:read'] });
    const assistant = await t.signIn((await t.createUser({ role: 'assistant' })).email);
    const seen = (await assistant.get('/api/documents?per_page=-1')).body.data.map((d: any) => d.id);
    expect(seen).toContain(doc.body.data.id);
    expect(seen).not.toContain(hidden.body.data.id);
    expect(
      (
        await fetch(`${t.baseUrl}/api/documents/${hidden.body.data.id}/download`, {
          headers: { cookie: [...assistant.jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        })
      ).status,
    ).toBe(404);
    expect((await leader.get(`/api/documents/${hidden.body.data.id}`)).status).toBe(200);

    const removed = await admin.delete(`/api/documents/${doc.body.data.id}`);
    expect(removed.body.message).toBe('Document deleted successfully.');
    expect((await admin.get(`/api/sites/${site.id}`)).body.data.attachments.map((a: any) => a.file_name)).toEqual([
      'photo.png',
    ]);
  });
});

describe('options lists (SPEC section 7)', () => {
  it('every options list answers {data: [{id, name, ...}]}', async () => {
    await create('sites', {
      name: 'Options site',
      type: 'union',
      city: 'San Jose',
      county: 'Santa Clara',
      state: 'CA',
      postal_code: '95112',
    });
    await create('contacts', { first_name: 'Grace', last_name: 'Kim' });
    await create('members', { first_name: 'Jorge', last_name: 'Torres' });
    await create('contractors', { name: 'Options contractor', type: 'union' });
    for (const name of [
      'building-types',
      'classifications',
      'classification-types',
      'contacts',
      'contractors',
      'dispatch-types',
      'members',
      'roles',
      'sites',
      'site-phases',
      'site-statuses',
      'contact-statuses',
      'teams',
      'trades',
      'unions',
      'users',
      'recruits',
      'grievances',
      'site-types',
      'contractor-types',
      'tags',
    ]) {
      const res = await admin.get(`/api/options/${name}`);
      expect(res.status, name).toBe(200);
      expect(Array.isArray(res.body.data), name).toBe(true);
      for (const option of res.body.data)
        expect(option, name).toMatchObject({ id: expect.any(Number), name: expect.any(String) });
    }
    expect((await admin.get('/api/options/contacts?q=grace')).body.data.map((o: any) => o.name)).toEqual(['Grace Kim']);
    expect((await admin.get('/api/options/contact-statuses')).body.data.map((o: any) => o.slug)).toEqual(
      expect.arrayContaining(['prospect', 'member']),
    );
    const cities = await admin.get('/api/options/site-cities?q=san');
    expect(cities.status).toBe(200);
    expect(cities.body.data).toContainEqual({ id: 'San Jose', name: 'San Jose' });
    for (const part of ['site-streets', 'site-counties', 'site-states', 'site-postal-codes'])
      expect((await admin.get(`/api/options/${part}`)).status, part).toBe(200);
    expect((await admin.get('/api/options/site-postal-codes?q=9511')).body.data).toContainEqual({
      id: '95112',
      name: '95112',
    });
    expect((await admin.get('/api/options/geometries?q=a')).status).toBe(200);
  });
});
