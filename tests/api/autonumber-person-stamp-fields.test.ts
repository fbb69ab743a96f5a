/**
 * The autonumber, person and record stamp field types (issue 30 point 2, docs/records.md "Field types"): an
 * autonumber numbers every record whatever path makes it (form API, outbox, import, concurrent creates), numbers the
 * records there are when it is added, never gives a number twice and is never written by people; a person holds a
 * user, checked to exist, and a filter's `me` is the person asking; created at / updated at / created by / updated by
 * show, filter and sort by the record's own times and the authors of its history, on any record type.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../fixtures/upload.js';
import { type Answer, ok, type Row, refused } from '../support/api-answers.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let resource: string;
let schemaId: number;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const schema = ok(
    await admin.post('/api/schemas', {
      name_singular: 'Permit',
      name_plural: 'Permits',
      fields: [
        { name: 'Ticket', type: 'autonumber' },
        { name: 'Inspector', type: 'person' },
      ],
    }),
    201,
  );
  resource = String(schema.resource);
  schemaId = Number(schema.id);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const create = async (body: Record<string, unknown>, headers?: Record<string, string>) =>
  ok(await admin.post(`/api/${resource}`, body, headers ? { headers } : undefined), 201);
const list = async (query: string, client = admin) =>
  (await client.get(`/api/${resource}?per_page=100&${query}`)).body.data as Row[];
const addField = (name: string, type: string, options: Record<string, unknown>) =>
  admin.post('/api/schema-fields', { schema_id: schemaId, name, type, options });

describe('autonumber', () => {
  it('checks its options: a short prefix of plain characters, a padding from 0 to 12', async () => {
    refused(await addField('Bad', 'autonumber', { padding: 13 }), 'options.padding', /0 to 12/);
    refused(await addField('Bad', 'autonumber', { prefix: "IN'S" }), 'options.prefix', /letters, digits/);
    refused(await addField('Bad', 'autonumber', { prefix: 'x'.repeat(21) }), 'options.prefix', /20 characters/);
    refused(await addField('Bad', 'autonumber', { default: 'INS-1' }), 'options.default', /no option/);
  });

  it('numbers each new record from 1, and cannot be written by people', async () => {
    const first = await create({ name: 'Crane permit' });
    const second = await create({ name: 'Scaffold permit' });
    expect([first.ticket, second.ticket]).toEqual(['1', '2']);
    refused(await admin.post(`/api/${resource}`, { name: 'Chosen', ticket: '77' }), 'ticket', /read-only/);
    refused(
      await admin.post(`/api/${resource}/${first.id}`, { ticket: '9', updated_at: first.updated_at }),
      'ticket',
      /read-only/,
    );
    // The form sends back what it shows: the number held is accepted, and stays.
    const edited = ok(
      await admin.post(`/api/${resource}/${first.id}`, {
        name: 'Crane permit (renewed)',
        ticket: '1',
        updated_at: first.updated_at,
      }),
    );
    expect(edited.ticket).toBe('1');
  });

  it('numbers the records there are when it is added, in the order they were made, then goes on', async () => {
    const made = ok(await addField('Permit number', 'autonumber', { prefix: 'PRM-', padding: 4 }), 201);
    expect(made.slug).toBe('permit_number');
    const rows = await list('sort=id');
    expect(rows.map((r) => r.permit_number)).toEqual(['PRM-0001', 'PRM-0002']);
    expect((await create({ name: 'Trench permit' })).permit_number).toBe('PRM-0003');
  });

  it('numbers records made offline (outbox), by an import and at the same moment, never twice', async () => {
    const key = { 'Idempotency-Key': 'autonumber-outbox-0123456789' };
    const sent = await create({ name: 'Offline permit' }, key);
    expect((await create({ name: 'Offline permit' }, key)).permit_number).toBe(sent.permit_number);
    const importer = ok(
      await admin.post('/api/importers', {
        name: 'Permits',
        record_type: 'permit',
        key_target: 'custom.name',
        columns: [{ header: 'Name', target: 'custom.name' }],
      }),
      201,
    );
    const content = ['Name', 'Imported one', 'Imported two', 'Imported three', ''].join('\n');
    const result = await runImport(t, admin, importer.id, [{ name: 'permits.csv', content }]);
    expect(result).toMatchObject({ status: 'complete', created_count: 3 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => create({ name: `Rush permit ${i}` })));
    const numbers = (await list('sort=id')).map((r) => r.permit_number);
    expect(numbers.length).toBe(13);
    expect(new Set(numbers).size).toBe(13);
    expect(numbers.every((n) => /^PRM-\d{4}$/.test(String(n)))).toBe(true);
  });

  it('gives a deleted record’s number to no other record', async () => {
    const last = (await list('sort=permit_number&order=desc'))[0];
    expect(last.permit_number).toBe('PRM-0013');
    expect((await admin.delete(`/api/${resource}/${last.id}`)).status).toBe(200);
    expect((await create({ name: 'After the deletion' })).permit_number).toBe('PRM-0014');
  });

  it('filters by its text and sorts by its number (10 after 9 without padding)', async () => {
    expect((await list('filter[permit_number]=PRM-0003')).map((r) => r.name)).toEqual(['Trench permit']);
    const byTicket = (await list('sort=ticket&order=asc')).map((r) => Number(r.ticket));
    expect(byTicket.length).toBeGreaterThan(10);
    expect(byTicket).toEqual([...byTicket].sort((a, b) => a - b));
    const csv = await admin.get(`/api/exports/download?resource=${resource}&columns=name,permit_number&sort=id`);
    expect(String(csv.body)).toContain('Trench permit,PRM-0003');
  });

  it('stops numbering when deleted or changed to another type, keeping the numbers given', async () => {
    const triggers = async () =>
      (
        await sql<{
          name: string;
        }>`select tgname as name from pg_trigger where tgname like 'autonumber_field_%'`.execute(t.ctx.db)
      ).rows.length;
    expect(await triggers()).toBe(2);
    const ticket = (await admin.get(`/api/schema-fields?filter[schema_id]=${schemaId}&per_page=-1`)).body.data.find(
      (f: { slug: string }) => f.slug === 'ticket',
    );
    ok(await admin.put(`/api/schema-fields/${ticket.id}`, { type: 'text' }));
    expect(await triggers()).toBe(1);
    const plain = await create({ name: 'Numbered once', ticket: 'hand-written' });
    expect(plain.ticket).toBe('hand-written');
    expect(plain.permit_number).toBe('PRM-0015');
    expect((await list('filter[name]=Trench permit'))[0].ticket).toBe('3');
  });
});

let inspector: { id: number; email: string };
let inspectorClient: TestClient;

describe('person', () => {
  beforeAll(async () => {
    inspector = (await t.createUser({ role: 'admin', first_name: 'Ida', last_name: 'Inspector' })) as {
      id: number;
      email: string;
    };
    inspectorClient = await t.signIn(inspector.email);
  });

  it('holds a user who exists, through create, update and the outbox', async () => {
    const me = await t.authUser();
    refused(await admin.post(`/api/${resource}`, { name: 'Nobody', inspector: 999_999 }), 'inspector', /not exist/);
    refused(await admin.post(`/api/${resource}`, { name: 'Word', inspector: 'someone' }), 'inspector', /number/);
    const mine = await create({ name: 'Admin inspects', inspector: me.id });
    const theirs = await create({ name: 'Ida inspects', inspector: inspector.id });
    expect([mine.inspector, theirs.inspector]).toEqual([me.id, inspector.id]);
    const moved = ok(
      await admin.post(`/api/${resource}/${mine.id}`, { inspector: inspector.id, updated_at: mine.updated_at }),
    );
    expect(moved.inspector).toBe(inspector.id);
    ok(await admin.post(`/api/${resource}/${mine.id}`, { inspector: me.id, updated_at: moved.updated_at }));
    const key = { 'Idempotency-Key': 'person-outbox-0123456789ab' };
    expect((await create({ name: 'Ida offline', inspector: inspector.id }, key)).inspector).toBe(inspector.id);
  });

  it('filters by "me": whoever asks sees their own', async () => {
    expect((await list('filter[inspector]=me&sort=name')).map((r) => r.name)).toEqual(['Admin inspects']);
    expect((await list('filter[inspector]=me&sort=name', inspectorClient)).map((r) => r.name)).toEqual([
      'Ida inspects',
      'Ida offline',
    ]);
    const filters = encodeURIComponent(JSON.stringify({ all: [{ field: 'inspector', op: 'eq', value: 'me' }] }));
    expect((await list(`filters=${filters}`, inspectorClient)).map((r) => r.name).sort()).toEqual([
      'Ida inspects',
      'Ida offline',
    ]);
    const neither = encodeURIComponent(JSON.stringify({ all: [{ field: 'inspector', op: 'neq', value: 'me' }] }));
    expect((await list(`filters=${neither}&filter[inspector_null]=0`)).map((r) => r.name).sort()).toEqual([
      'Ida inspects',
      'Ida offline',
    ]);
  });

  it('sorts by the person’s name and exports it', async () => {
    const me = (await admin.get(`/api/users/${(await t.authUser()).id}`)).body.data as Row;
    const adminName = `${me.first_name} ${me.last_name}`.toLowerCase();
    const ascending = (await list('filter[inspector_null]=0&sort=inspector&order=asc')).map((r) => r.name);
    expect(ascending.length).toBe(3);
    expect(ascending.indexOf('Admin inspects')).toBe(adminName < 'ida inspector' ? 0 : 2);
    const descending = (await list('filter[inspector_null]=0&sort=inspector&order=desc')).map((r) => r.name);
    expect(descending.indexOf('Admin inspects')).toBe(adminName < 'ida inspector' ? 2 : 0);
    const csv = await admin.get(
      `/api/exports/download?resource=${resource}&columns=name,inspector&filter[name]=Ida inspects`,
    );
    expect(String(csv.body)).toContain('Ida Inspector');
  });

  it('imports a person by id and refuses one that does not exist', async () => {
    const importer = ok(
      await admin.post('/api/importers', {
        name: 'Permit inspectors',
        record_type: 'permit',
        key_target: 'custom.name',
        columns: [
          { header: 'Name', target: 'custom.name' },
          { header: 'Inspector', target: 'custom.inspector' },
        ],
      }),
      201,
    );
    const content = ['Name,Inspector', `Imported by id,${inspector.id}`, 'Imported nobody,999999', ''].join('\n');
    const result = await runImport(t, admin, importer.id, [{ name: 'inspectors.csv', content }]);
    expect(result).toMatchObject({ created_count: 1, failed_count: 1 });
    expect((await list('filter[name]=Imported by id'))[0].inspector).toBe(inspector.id);
  });
});

describe('created at, updated at, created by, updated by', () => {
  it('are added to a type with records and show when and by whom each was made and changed', async () => {
    for (const [name, type] of [
      ['Made on', 'created-at'],
      ['Changed on', 'updated-at'],
      ['Made by', 'created-by'],
      ['Changed by', 'updated-by'],
    ])
      ok(await addField(name, type, {}), 201);
    refused(await addField('Bad', 'created-by', { default: 1 }), 'options.default', /no option/);
    const adminId = (await t.authUser()).id;
    const old = (await list('filter[name]=Trench permit'))[0];
    expect(old).toMatchObject({ made_by: adminId, changed_by: adminId });
    expect(new Date(String(old.made_on)).getTime()).toBe(new Date(String(old.created_at)).getTime());

    const made = ok(await inspectorClient.post(`/api/${resource}`, { name: 'Ida made this' }), 201);
    expect(made).toMatchObject({ made_by: inspector.id, changed_by: inspector.id });
    const changed = ok(
      await admin.post(`/api/${resource}/${made.id}`, { name: 'Ida made, admin changed', updated_at: made.updated_at }),
    );
    expect(changed).toMatchObject({ made_by: inspector.id, changed_by: adminId });
    expect(new Date(String(changed.changed_on)).getTime()).toBe(new Date(String(changed.updated_at)).getTime());
    expect(new Date(String(changed.changed_on)).getTime()).toBeGreaterThanOrEqual(
      new Date(String(changed.made_on)).getTime(),
    );
  });

  it('are never written by people: what is sent for them is left aside, as for every computed field', async () => {
    const row = (await list('filter[name]=Ida made, admin changed'))[0];
    const kept = ok(
      await admin.post(`/api/${resource}/${row.id}`, { made_by: inspector.id + 1000, updated_at: row.updated_at }),
    );
    expect(kept.made_by).toBe(inspector.id);
    const backdated = await create({ name: 'Backdated', made_on: '2001-01-01T00:00:00Z' });
    expect(String(backdated.made_on)).not.toContain('2001');
    expect((await admin.delete(`/api/${resource}/${backdated.id}`)).status).toBe(200);
  });

  it('filter by "me" and by dates, and sort', async () => {
    expect((await list('filter[made_by]=me', inspectorClient)).map((r) => r.name)).toEqual(['Ida made, admin changed']);
    const changedByMe = encodeURIComponent(JSON.stringify({ all: [{ field: 'changed_by', op: 'eq', value: 'me' }] }));
    expect((await list(`filters=${changedByMe}`, inspectorClient)).map((r) => r.name)).toEqual([]);
    expect((await list(`filters=${changedByMe}`)).map((r) => r.name)).toContain('Ida made, admin changed');
    const newest = await list('sort=made_on&order=desc');
    expect(newest[0].name).toBe('Ida made, admin changed');
    const times = newest.map((r) => new Date(String(r.made_on)).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const since = encodeURIComponent(String(newest[0].made_on));
    expect((await list(`filter[made_on_gte]=${since}`)).map((r) => r.name)).toEqual(['Ida made, admin changed']);
    const csv = await admin.get(
      `/api/exports/download?resource=${resource}&columns=name,made_by&filter[name]=Ida made, admin changed`,
    );
    expect(String(csv.body)).toContain('Ida Inspector');
  });

  it('can be added to a built-in type (sites)', async () => {
    const schemas = (await admin.get('/api/schemas?per_page=-1')).body.data as Array<{ id: number; type: string }>;
    const siteSchema = schemas.find((s) => s.type === 'site')!;
    ok(
      await admin.post('/api/schema-fields', { schema_id: siteSchema.id, name: 'Entered by', type: 'created-by' }),
      201,
    );
    const site = ok(await inspectorClient.post('/api/sites', { name: 'Stamped site', type: 'union' }), 201);
    expect(site.entered_by).toBe(inspector.id);
    const mine = (await inspectorClient.get('/api/sites?per_page=100&filter[entered_by]=me')).body.data as Row[];
    expect(mine.map((r) => r.name)).toEqual(['Stamped site']);
  });
});

describe('geo point', () => {
  it('checks its options and its value: a latitude and a longitude on the earth, nothing else', async () => {
    refused(await addField('Bad', 'geo-point', { zoom: 3 }), 'options.zoom', /no option/);
    ok(await addField('Location', 'geo-point', {}), 201);
    for (const bad of [
      { lat: 91, lng: 0 },
      { lat: 10, lng: -181 },
      { lat: 'north', lng: 1 },
      { lat: 1, lng: 2, alt: 3 },
      [1, 2],
    ])
      refused(await admin.post(`/api/${resource}`, { name: 'Off the earth', location: bad }), 'location', /latitude/);
    const placed = await create({ name: 'Placed permit', location: { lat: 40.7128, lng: -74.006 } });
    expect(placed.location).toEqual({ lat: 40.7128, lng: -74.006 });
    const moved = ok(
      await admin.post(`/api/${resource}/${placed.id}`, {
        location: { lat: 41.5, lng: -73.25 },
        updated_at: placed.updated_at,
      }),
    );
    expect(moved.location).toEqual({ lat: 41.5, lng: -73.25 });
    const key = { 'Idempotency-Key': 'geo-point-outbox-0123456789' };
    expect((await create({ name: 'Placed offline', location: { lat: -33.86, lng: 151.21 } }, key)).location).toEqual({
      lat: -33.86,
      lng: 151.21,
    });
  });

  it('imports "lat, lng" and the JSON an export writes, refusing what is no place; filters by having one', async () => {
    const importer = ok(
      await admin.post('/api/importers', {
        name: 'Permit places',
        record_type: 'permit',
        key_target: 'custom.name',
        columns: [
          { header: 'Name', target: 'custom.name' },
          { header: 'Location', target: 'custom.location' },
        ],
      }),
      201,
    );
    const content = [
      'Name,Location',
      'Imported place,"39.95, -75.16"',
      'Imported json,"{""lat"": 34.05, ""lng"": -118.24}"',
      'Imported nowhere,north pole',
      'Imported far,"95, 10"',
      '',
    ].join('\n');
    const result = await runImport(t, admin, importer.id, [{ name: 'places.csv', content }]);
    expect(result).toMatchObject({ created_count: 2, failed_count: 2 });
    const placed = (await list('filter[location_null]=0&sort=name')).map((r) => [r.name, r.location]);
    expect(placed).toEqual([
      ['Imported json', { lat: 34.05, lng: -118.24 }],
      ['Imported place', { lat: 39.95, lng: -75.16 }],
      ['Placed offline', { lat: -33.86, lng: 151.21 }],
      ['Placed permit', { lat: 41.5, lng: -73.25 }],
    ]);
    const csv = await admin.get(
      `/api/exports/download?resource=${resource}&columns=name,location&filter[name]=Placed permit`,
    );
    expect(String(csv.body)).toContain('""lat"":41.5');
  });
});

describe('geo point on the map', () => {
  it('offers a layer for the type and draws its records with a point, clustered for the view', async () => {
    const layers = ok(await admin.get('/api/map/point-layers')) as unknown as Array<Record<string, unknown>>;
    expect(layers).toContainEqual({ type: 'permit', resource, name: 'Permits', field: 'location' });
    const world = (await admin.get('/api/map/points?type=permit&bbox=-180,-85,180,85&zoom=0')) as Answer & {
      body: { meta: Record<string, unknown> };
    };
    expect(world.status, JSON.stringify(world.body)).toBe(200);
    expect(world.body.meta).toMatchObject({ field: 'location', total: 4, capped: false });
    const counted = (world.body.data as Array<{ kind: string; count?: number }>).reduce(
      (n, item) => n + (item.kind === 'cluster' ? (item.count ?? 0) : 1),
      0,
    );
    expect(counted).toBe(4);
    const street = ok(
      await admin.get('/api/map/points?type=permit&bbox=-73.3,41.45,-73.2,41.55&zoom=17'),
    ) as unknown as Row[];
    expect(street).toEqual([{ kind: 'point', id: expect.any(Number), lat: 41.5, lng: -73.25, name: 'Placed permit' }]);
    refused(await admin.get('/api/map/points?type=permit&bbox=-180,-85,180,85'), 'zoom', /required/);
    expect((await admin.get('/api/map/points?type=contractor&bbox=-180,-85,180,85&zoom=3')).status).toBe(404);
  });

  it('shows nothing of a type the person may not read', async () => {
    const outsider = await t.createUser({ role: 'user' });
    const client = await t.signIn(String(outsider.email));
    const layers = await client.get('/api/map/point-layers');
    if (layers.status === 200) expect(JSON.stringify(layers.body)).not.toContain('permit');
    else expect(layers.status).toBe(403);
    expect((await client.get('/api/map/points?type=permit&bbox=-180,-85,180,85&zoom=3')).status).toBe(403);
  });
});
