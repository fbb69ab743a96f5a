import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * A field made in the schema editor gets what a built-in one has (issue 20, "Reach"): real number fields compared
 * as numbers, lists sorted as people read them, and custom fields on the map and in the reports.
 */
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
});
afterAll(async () => {
  await t?.close();
});

const ok = (res: { status: number; body: any }, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.data;
};
const newType = async (singular: string, plural: string, fields: unknown[]) =>
  ok(await admin.post('/api/schemas', { name_singular: singular, name_plural: plural, fields }), 201);
const names = (body: any) => body.data.map((row: any) => row.name);

describe('a number field', () => {
  let yards: any;
  beforeAll(async () => {
    yards = await newType('Yard', 'Yards', [
      { name: 'Workers', type: 'number', options: { format: 'integer', min: 0, max: 1000 } },
      { name: 'Acres', type: 'number', options: { format: 'decimal', step: 0.5 } },
      { name: 'Dues', type: 'number', options: { format: 'currency' } },
    ]);
  });

  it('is stored as a number, filtered and sorted as a number (9 < 10 < 100), not as text', async () => {
    for (const [name, workers] of [
      ['Nine', 9],
      ['Ten', '10'],
      ['Hundred', 100],
    ] as const)
      ok(await admin.post(`/api/${yards.resource}`, { name, workers }), 201);
    const rows = await t.ctx.db
      .selectFrom('custom_records')
      .select(['name', 'custom'])
      .where('schema_id', '=', yards.id)
      .execute();
    expect(rows.map((row: any) => typeof row.custom.workers)).toEqual(['number', 'number', 'number']);
    expect(names((await admin.get(`/api/${yards.resource}?sort=workers&order=asc`)).body)).toEqual([
      'Nine',
      'Ten',
      'Hundred',
    ]);
    expect(names((await admin.get(`/api/${yards.resource}?sort=workers&order=desc`)).body)).toEqual([
      'Hundred',
      'Ten',
      'Nine',
    ]);
    expect(names((await admin.get(`/api/${yards.resource}?filter[workers_gte]=10&sort=workers`)).body)).toEqual([
      'Ten',
      'Hundred',
    ]);
    expect((await admin.get(`/api/${yards.resource}?filter[workers_gte]=abc`)).status).toBe(422);
  });

  it('holds its format, range and step: whole numbers, min and max, steps, cents for currency', async () => {
    const refused = async (values: Record<string, unknown>) => {
      const res = await admin.post(`/api/${yards.resource}`, { name: 'Refused', ...values });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      return Object.keys(res.body.errors);
    };
    expect(await refused({ workers: 'abc' })).toEqual(['workers']);
    expect(await refused({ workers: 5.5 })).toEqual(['workers']);
    expect(await refused({ workers: 1001 })).toEqual(['workers']);
    expect(await refused({ workers: -1 })).toEqual(['workers']);
    expect(await refused({ acres: 0.25 })).toEqual(['acres']);
    expect(await refused({ dues: 12.345 })).toEqual(['dues']);
    const made = ok(
      await admin.post(`/api/${yards.resource}`, { name: 'Kept', workers: 1000, acres: 2.5, dues: '12.34' }),
      201,
    );
    expect(made).toMatchObject({ workers: 1000, acres: 2.5, dues: 12.34 });
  });

  it('refuses options that do not hold together', async () => {
    const field = (options: unknown) =>
      admin.post('/api/schema-fields', { schema_id: yards.id, name: `Bad ${Math.random()}`, type: 'number', options });
    expect((await field({ format: 'roman' })).status).toBe(422);
    expect((await field({ min: 10, max: 1 })).status).toBe(422);
    expect((await field({ step: 0 })).status).toBe(422);
    expect((await field({ format: 'integer', step: 0.5 })).status).toBe(422);
    const fine = ok(await field({ min: -5, max: -1 }), 201);
    expect(fine.options.format).toBe('decimal');
  });

  it('can be made on sites too, and sites sort by it as numbers', async () => {
    const sites = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: any) => s.type === 'site');
    ok(
      await admin.post('/api/schema-fields', {
        schema_id: sites.id,
        name: 'Cranes',
        type: 'number',
        options: { format: 'integer' },
      }),
      201,
    );
    const site = (name: string, cranes: number) =>
      admin.post('/api/sites', { name, type: 'union', latitude: 34.05, longitude: -118.24, cranes });
    for (const [name, cranes] of [
      ['Crane nine', 9],
      ['Crane ten', 10],
      ['Crane two', 2],
    ] as const)
      ok(await site(name, cranes), 201);
    expect(names((await admin.get('/api/sites?filter[cranes_gte]=1&sort=cranes&order=asc')).body)).toEqual([
      'Crane two',
      'Crane nine',
      'Crane ten',
    ]);
  });
});

describe('lists sort as people read them', () => {
  it('text without case, dropdowns and radios in the order of their choices', async () => {
    const trucks = await newType('Truck', 'Trucks', [
      {
        name: 'Size',
        type: 'dropdown',
        options: {
          choices: [
            { value: 'small', label: 'Small' },
            { value: 'medium', label: 'Medium' },
            { value: 'large', label: 'Large' },
          ],
        },
      },
      {
        name: 'Shift',
        type: 'radios',
        options: {
          choices: [
            { value: 'z-night', label: 'Night' },
            { value: 'a-day', label: 'Day' },
          ],
        },
      },
      { name: 'Plate', type: 'text' },
    ]);
    const rows = [
      { name: 'Banana', size: 'large', shift: 'a-day', plate: 'b-2' },
      { name: 'apple', size: 'small', shift: 'a-day', plate: 'C-3' },
      { name: 'cherry', size: 'medium', shift: 'z-night', plate: 'A-1' },
    ];
    for (const row of rows) ok(await admin.post(`/api/${trucks.resource}`, row), 201);
    const sorted = async (query: string) => names((await admin.get(`/api/${trucks.resource}?${query}`)).body);
    expect(await sorted('sort=name&order=asc')).toEqual(['apple', 'Banana', 'cherry']);
    expect(await sorted('sort=name&order=desc')).toEqual(['cherry', 'Banana', 'apple']);
    expect(await sorted('sort=plate&order=asc')).toEqual(['cherry', 'Banana', 'apple']);
    expect(await sorted('sort=size&order=asc')).toEqual(['apple', 'cherry', 'Banana']);
    expect(await sorted('sort=size&order=desc')).toEqual(['Banana', 'cherry', 'apple']);
    expect((await sorted('sort=shift&order=asc'))[0]).toBe('cherry');
  });

  it('built-in names without case, and the site type in the order of the site types list', async () => {
    const stamp = Math.random().toString(36).slice(2, 8);
    const site = (name: string, type: string) =>
      admin.post('/api/sites', { name: `${name} ${stamp}`, type, latitude: 34.05, longitude: -118.24 });
    ok(await site('zeta', 'union'), 201);
    ok(await site('alpha', 'non-union'), 201);
    ok(await site('Beta', 'union'), 201);
    expect(names((await admin.get(`/api/sites?search=${stamp}&sort=name&order=asc`)).body)).toEqual([
      `alpha ${stamp}`,
      `Beta ${stamp}`,
      `zeta ${stamp}`,
    ]);
    // The site types list's order, not the alphabet: put union first, then non-union first.
    const list = (await admin.get('/api/site-types?per_page=-1')).body.data;
    const id = (slug: string) => list.find((row: any) => row.slug === slug).id;
    const byType = async () =>
      (await admin.get(`/api/sites?search=${stamp}&sort=type&order=asc`)).body.data.map((row: any) => row.type);
    ok(await admin.put(`/api/site-types/${id('union')}`, { position: 1 }));
    ok(await admin.put(`/api/site-types/${id('non-union')}`, { position: 2 }));
    expect(await byType()).toEqual(['union', 'union', 'non-union']);
    ok(await admin.put(`/api/site-types/${id('union')}`, { position: 3 }));
    expect(await byType()).toEqual(['non-union', 'union', 'union']);
  });
});

describe('custom fields on the map and in the reports', () => {
  let sites: any;
  beforeAll(async () => {
    sites = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: any) => s.type === 'site');
    const field = (body: Record<string, unknown>) => admin.post('/api/schema-fields', { schema_id: sites.id, ...body });
    ok(await field({ name: 'Gate code', type: 'text', options: { searchable: true } }), 201);
    ok(
      await field({
        name: 'Risk',
        type: 'dropdown',
        options: {
          choices: [
            { value: 'r-low', label: 'Low risk' },
            { value: 'r-high', label: 'High risk' },
          ],
        },
      }),
      201,
    );
    ok(await field({ name: 'Fenced', type: 'boolean' }), 201);
  });
  const site = async (values: Record<string, unknown>) =>
    ok(
      await admin.post('/api/sites', {
        name: `Map site ${Math.random()}`,
        type: 'union',
        latitude: 34.05,
        longitude: -118.24,
        ...values,
      }),
      201,
    );

  it("the marker card carries the site's custom fields, and the filter drawer offers their choices by label", async () => {
    const made = await site({ gate_code: 'ALPHA-GATE', risk: 'r-high', fenced: true });
    const card = ok(await admin.get(`/api/map/marker-data?id=${made.id}`));
    expect(card.custom).toMatchObject({ gate_code: 'ALPHA-GATE', risk: 'r-high', fenced: true });
    const filters = ok(await admin.get('/api/map/filters'));
    const risk = filters.dropdowns.find((d: any) => d.field === 'risk');
    expect(risk.options).toEqual([
      { id: 'r-low', name: 'Low risk' },
      { id: 'r-high', name: 'High risk' },
    ]);
    // The site is found by its searchable custom field.
    expect((await admin.get('/api/sites?search=alpha-gate')).body.data.map((s: any) => s.id)).toContain(made.id);
  });

  it('market share groups sites by a custom dropdown, with its labels, and drills down to the sites of a group', async () => {
    const high = await site({ risk: 'r-high', estimated_value: 100 });
    await site({ risk: 'r-low' });
    const report = await admin.get('/api/reports/market-share?group_by=field:risk');
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    const rows = report.body.data;
    const highRow = rows.find((row: any) => row.key === 'r-high');
    expect(highRow.label).toBe('High risk');
    expect(rows.find((row: any) => row.key === 'r-low').label).toBe('Low risk');
    const expected = (await admin.get('/api/sites?filter[risk]=r-high&per_page=1')).body.meta.total;
    expect(highRow.total.sites).toBe(expected);
    const drill = await admin.get(`/api/reports/market-share/sites?${new URLSearchParams(highRow.link)}`);
    expect(drill.status, JSON.stringify(drill.body)).toBe(200);
    expect(drill.body.meta.total).toBe(expected);
    expect(drill.body.data.map((row: any) => row.id)).toContain(high.id);
    // Only a choice field of sites: a text field or an unknown one is refused with a message.
    expect((await admin.get('/api/reports/market-share?group_by=field:gate_code')).status).toBe(422);
    expect((await admin.get('/api/reports/market-share?group_by=field:nothing')).status).toBe(422);
  });
});
