/**
 * The autonumber and person field types (issue 30 point 2, docs/records.md "Field types"): an autonumber numbers every
 * record whatever path makes it (form API, outbox, import, concurrent creates), numbers the records there are when
 * it is added, never gives a number twice and is never written by people; a person holds a user, checked to exist,
 * and a filter's `me` is the person asking.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../fixtures/upload.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let resource: string;
let schemaId: number;

interface Row {
  id: number;
  updated_at?: string;
  [key: string]: unknown;
}
interface Answer {
  status: number;
  body: { data?: unknown; errors?: Record<string, string[]> };
}
const ok = (res: Answer, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.data as Row;
};
const refused = (res: Answer, field: string, message: string | RegExp) => {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.errors?.[field]?.[0], JSON.stringify(res.body)).toMatch(message);
};

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

describe('person', () => {
  let inspector: { id: number; email: string };
  let inspectorClient: TestClient;

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
