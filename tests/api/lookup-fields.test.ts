/**
 * Lookup fields (issue 30, docs/records.md "Lookups"): a field of the record (or records) this one points at through
 * one of its relations, shown read-only, filtered and sorted through the one filter compiler, exported as shown (a
 * choice by its label), current after the related record changes, and empty where the reader cannot read the
 * related record (the access policy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, type Row, refused } from '../support/api-answers.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let jobs: string;
let firms: string;
let jobSchema: number;
let firmType: string;
let jobType: string;

const lookupField = (name: string, options: Record<string, unknown>) =>
  admin.post('/api/schema-fields', { schema_id: jobSchema, name, type: 'lookup', options });
const create = async (resource: string, body: Record<string, unknown>) =>
  ok(await admin.post(`/api/${resource}`, body), 201);
const names = async (client: TestClient, query: string) => {
  const res = await client.get(`/api/${jobs}?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as Row[]).map((row) => row.name);
};

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const firm = ok(
    await admin.post('/api/schemas', {
      name_singular: 'Firm',
      name_plural: 'Firms',
      fields: [
        { name: 'Phone', type: 'text' },
        { name: 'Crew', type: 'number' },
        { name: 'Since', type: 'date' },
        {
          name: 'Kind',
          type: 'dropdown',
          options: {
            choices: [
              { value: 'k-union', label: 'Union shop' },
              { value: 'k-open', label: 'Open shop' },
            ],
          },
        },
      ],
    }),
    201,
  );
  firms = String(firm.resource);
  firmType = String(firm.type);
  const job = ok(
    await admin.post('/api/schemas', {
      name_singular: 'Job',
      name_plural: 'Jobs',
      fields: [
        { name: 'Firm', type: 'relation', options: { target: firmType } },
        { name: 'Helpers', type: 'relation', options: { target: firmType, multiple: true } },
        { name: 'Note', type: 'text' },
      ],
    }),
    201,
  );
  jobs = String(job.resource);
  jobType = String(job.type);
  jobSchema = Number(job.id);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('lookup fields', () => {
  const firmRows: Row[] = [];
  const jobRows: Row[] = [];

  it('check the relation and the field they show', async () => {
    refused(await lookupField('Bad link', { through: 'note', field: 'phone' }), 'options.through', /not a relation/);
    refused(await lookupField('No field', { through: 'firm', field: 'fax' }), 'options.field', /no field “fax”/);
    refused(
      await lookupField('Unknown option', { through: 'firm', field: 'phone', shape: 'x' }),
      'options.shape',
      /no option/,
    );
    const phone = ok(await lookupField('Firm phone', { through: 'firm', field: 'phone' }), 201);
    expect((phone.options as Row).result).toBe('text');
    const crew = ok(await lookupField('Firm crew', { through: 'firm', field: 'crew' }), 201);
    expect((crew.options as Row).result).toBe('number');
    ok(await lookupField('Firm since', { through: 'firm', field: 'since' }), 201);
    ok(await lookupField('Firm kind', { through: 'firm', field: 'kind' }), 201);
    const helpers = ok(await lookupField('Helper phones', { through: 'helpers', field: 'phone' }), 201);
    expect((helpers.options as Row).result).toBe('text');
  });

  it('show the related record’s field, current after it changes', async () => {
    for (const [name, phone, crew, since, kind] of [
      ['Acme', '555-0100', 12, '2020-01-02', 'k-union'],
      ['Brick', '555-0200', 4, '2018-06-30', 'k-open'],
      ['Crane', '555-0300', 30, null, null],
    ] as const)
      firmRows.push(await create(firms, { name, phone, crew, since, kind }));
    const [acme, brick, crane] = firmRows;
    jobRows.push(await create(jobs, { name: 'Roof', firm: acme.id, helpers: [brick.id, crane.id] }));
    jobRows.push(await create(jobs, { name: 'Yard', firm: brick.id }));
    jobRows.push(await create(jobs, { name: 'Shed' }));
    const roof = ok(await admin.get(`/api/${jobs}/${jobRows[0].id}`));
    expect(roof).toMatchObject({
      firm_phone: '555-0100',
      firm_crew: 12,
      firm_since: '2020-01-02',
      firm_kind: 'Union shop',
      helper_phones: '555-0200, 555-0300',
    });
    expect(ok(await admin.get(`/api/${jobs}/${jobRows[2].id}`))).toMatchObject({
      firm_phone: null,
      firm_crew: null,
      helper_phones: null,
    });
    ok(await admin.post(`/api/${firms}/${acme.id}`, { phone: '555-0199', updated_at: acme.updated_at }));
    expect(ok(await admin.get(`/api/${jobs}/${jobRows[0].id}`))).toMatchObject({ firm_phone: '555-0199' });
  });

  it('are never written', async () => {
    const res = await admin.post(`/api/${jobs}`, { name: 'Typed', firm_phone: '1' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const typed = res.body.data as Row;
    expect(typed.firm_phone).toBeNull();
    expect((await admin.delete(`/api/${jobs}/${typed.id}`)).status).toBeLessThan(300);
  });

  it('are filtered and sorted in lists, through the one filter compiler', async () => {
    expect(await names(admin, 'sort=firm_crew')).toEqual(['Yard', 'Roof', 'Shed']);
    expect(await names(admin, 'filter[firm_crew_gte]=10')).toEqual(['Roof']);
    expect(await names(admin, 'filter[firm_phone_like]=0200')).toEqual(['Yard']);
    const tree = JSON.stringify({ any: [{ field: 'firm_kind', op: 'eq', value: 'Open shop' }] });
    expect(await names(admin, `filters=${encodeURIComponent(tree)}`)).toEqual(['Yard']);
    const since = JSON.stringify({ all: [{ field: 'firm_since', op: 'lt', value: '2019-01-01' }] });
    expect(await names(admin, `filters=${encodeURIComponent(since)}`)).toEqual(['Yard']);
    const empty = JSON.stringify({ all: [{ field: 'firm_phone', op: 'empty' }] });
    expect(await names(admin, `filters=${encodeURIComponent(empty)}`)).toEqual(['Shed']);
    expect(await names(admin, 'filter[helper_phones_like]=0300')).toEqual(['Roof']);
  });

  it('are exported as shown, a choice by its label', async () => {
    const csv = await admin.get(`/api/exports/download?resource=${jobs}&columns=name,firm_kind,firm_phone&sort=name`);
    expect(csv.status).toBe(200);
    expect(String(csv.body)).toContain('Roof,Union shop,555-0199');
    expect(String(csv.body)).toContain('Yard,Open shop,555-0200');
  });

  it('show nothing of a related record the reader may not read', async () => {
    ok(
      await admin.post('/api/roles', {
        slug: 'own-firms',
        name: 'Own firms',
        permissions: [`${jobType}:read`, `${firmType}:read`],
        policy: { [firmType]: { read: 'own' } },
      }),
      201,
    );
    ok(await admin.post('/api/roles', { slug: 'no-firms', name: 'No firms', permissions: [`${jobType}:read`] }), 201);
    const reader = await t.createUser({ role: 'own-firms', email: 'firm-reader@example.com' });
    await t.createUser({ role: 'no-firms', email: 'firm-blind@example.com' });
    const theirs = await create(firms, { name: 'Theirs', phone: '555-0900', crew: 2, user_id: reader.id });
    const gate = await create(jobs, { name: 'Gate', firm: theirs.id });
    const asReader = await t.signIn('firm-reader@example.com');
    expect(ok(await asReader.get(`/api/${jobs}/${jobRows[0].id}`))).toMatchObject({
      firm_phone: null,
      firm_crew: null,
    });
    expect(ok(await asReader.get(`/api/${jobs}/${gate.id}`))).toMatchObject({ firm_phone: '555-0900' });
    // Filters and sorts read only what the reader may read: Roof's firm is not theirs.
    expect(await names(asReader, 'filter[firm_crew_gte]=1')).toEqual(['Gate']);
    const blind = await t.signIn('firm-blind@example.com');
    expect(ok(await blind.get(`/api/${jobs}/${gate.id}`))).toMatchObject({ firm_phone: null });
    expect(await names(blind, 'filter[firm_phone_like]=555')).toEqual([]);
  });

  it('refuse a change to the field they show that breaks them', async () => {
    // A field of this type that a lookup goes through cannot be deleted while the lookup is there.
    const jobFields = (await admin.get(`/api/schema-fields?filter[schema_id]=${jobSchema}&per_page=-1`)).body.data;
    const firmField = jobFields.find((f: Row) => f.slug === 'firm');
    const removed = await admin.delete(`/api/schema-fields/${firmField.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(422);
    expect(JSON.stringify(removed.body)).toMatch(/lookup “Firm phone”/);
  });

  it('refuse a change to the related type’s field they show, naming the lookup', async () => {
    const firmSchema = Number(
      ((await admin.get(`/api/schemas?filter[type]=${firmType}`)).body.data as Row[]).find((s) => s.type === firmType)
        ?.id,
    );
    const firmFields = (await admin.get(`/api/schema-fields?filter[schema_id]=${firmSchema}&per_page=-1`)).body
      .data as Row[];
    const phone = firmFields.find((f) => f.slug === 'phone') as Row;
    const crew = firmFields.find((f) => f.slug === 'crew') as Row;
    // Deleting the phone the lookups of jobs show.
    const removed = await admin.delete(`/api/schema-fields/${phone.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(422);
    expect(JSON.stringify(removed.body)).toMatch(/lookup “(Firm phone|Helper phones)” of Jobs uses “Phone”/);
    // Crew as text would make “Firm crew” text: its filters and sorts read a number.
    const retyped = await admin.post(`/api/schema-fields/${crew.id}`, { type: 'text' });
    expect(retyped.status, JSON.stringify(retyped.body)).toBe(422);
    expect(JSON.stringify(retyped.body)).toMatch(/lookup “Firm crew” of Jobs uses “Crew”.*text instead of number/);
    // Nothing changed: the values still read back.
    expect(ok(await admin.get(`/api/${jobs}/${jobRows[0].id}`))).toMatchObject({
      firm_phone: '555-0199',
      firm_crew: 12,
    });
    // A change the lookups do not mind (a rename) goes through.
    ok(await admin.post(`/api/schema-fields/${phone.id}`, { name: 'Office phone' }));
    expect(ok(await admin.get(`/api/${jobs}/${jobRows[0].id}`))).toMatchObject({ firm_phone: '555-0199' });
  });
});
