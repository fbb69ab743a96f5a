/**
 * Formula fields (issue 30, docs/records.md "Formulas"): checked when saved (an unknown field or a type that does not
 * fit named at its place, a formula that uses itself or comes back to itself refused with the chain), worked out by
 * SQL in every list (shown, filtered, sorted) and never written, the fields they use protected from a change that
 * would break them, and the SQL and the form's JavaScript agreeing on a table of expressions and records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formulaPreview, valueKind } from '../../src/common/field-types.js';
import { ok, type Row, refused } from '../support/api-answers.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let resource: string;
let schemaId: number;

const FIELDS = [
  { name: 'Estimated value', type: 'number' },
  { name: 'Start date', type: 'date' },
  { name: 'Workers', type: 'number' },
  { name: 'Union workers', type: 'number' },
  { name: 'Contractor', type: 'text' },
  { name: 'Urgent', type: 'boolean' },
  { name: 'With markup', type: 'formula', options: { expression: 'ROUND({Estimated value} * 1.1, 0)' } },
  { name: 'Days to start', type: 'formula', options: { expression: 'DAYS({Start date}, DATE(2025, 1, 1))' } },
  {
    name: 'Majority',
    type: 'formula',
    options: { expression: 'IF({Union workers} > {Workers} / 2, "Majority", "")' },
  },
  { name: 'Markup plus one', type: 'formula', options: { expression: 'with_markup + 1' } },
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const schema = ok(
    await admin.post('/api/schemas', { name_singular: 'Bid', name_plural: 'Bids', fields: FIELDS }),
    201,
  );
  resource = String(schema.resource);
  schemaId = Number(schema.id);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const create = async (body: Record<string, unknown>) => ok(await admin.post(`/api/${resource}`, body), 201);
const list = async (query: string) => (await admin.get(`/api/${resource}?per_page=100&${query}`)).body.data as Row[];
const fieldsOfSchema = async () =>
  (await admin.get(`/api/schema-fields?filter[schema_id]=${schemaId}&per_page=-1`)).body.data as Array<
    Row & { slug: string; name: string; type: string; options: Record<string, unknown> }
  >;
const addField = (name: string, expression: string) =>
  admin.post('/api/schema-fields', { schema_id: schemaId, name, type: 'formula', options: { expression } });

describe('formula fields', () => {
  it('are worked out on create and update, and never written', async () => {
    const bid = await create({
      name: 'Quarry',
      estimated_value: 1000,
      start_date: '2025-03-01',
      workers: 10,
      union_workers: 6,
      with_markup: 5,
    });
    expect(bid).toMatchObject({ with_markup: 1100, days_to_start: 59, majority: 'Majority', markup_plus_one: 1101 });
    const changed = ok(
      await admin.post(`/api/${resource}/${bid.id}`, {
        estimated_value: 2000,
        union_workers: 4,
        majority: 'typed by hand',
        updated_at: bid.updated_at,
      }),
    );
    expect(changed).toMatchObject({ with_markup: 2200, majority: '', markup_plus_one: 2201 });
    const shown = ok(await admin.get(`/api/${resource}/${bid.id}`));
    expect(shown.with_markup).toBe(2200);
    const empty = await create({ name: 'Blank' });
    expect(empty).toMatchObject({ with_markup: null, days_to_start: null, majority: '' });
  });

  it('say the kind of value they give, which their options keep', async () => {
    const byslug = Object.fromEntries((await fieldsOfSchema()).map((field) => [field.slug, field]));
    expect(byslug.with_markup.options.result).toBe('number');
    expect(byslug.majority.options.result).toBe('text');
    const dated = ok(await addField('Start plus a month', 'DATEADD({Start date}, 1, "months")'), 201);
    expect((dated as any).options.result).toBe('date');
    const bid = await create({ name: 'Dated', start_date: '2024-01-31' });
    expect(bid.start_plus_a_month).toBe('2024-02-29');
  });

  it('are filtered and sorted in lists by their SQL', async () => {
    for (const [name, value] of [
      ['Low', 100],
      ['Mid', 500],
      ['High', 900],
    ] as const)
      await create({ name, estimated_value: value, workers: 4, union_workers: 3 });
    const over = await list('filter[with_markup_gte]=500&sort=with_markup&order=desc');
    expect(over.map((r) => r.with_markup)).toEqual([2200, 990, 550]);
    const ascending = await list('sort=with_markup&order=asc');
    expect(ascending.map((r) => r.with_markup).slice(0, 3)).toEqual([110, 550, 990]);
    expect(ascending.at(-1)?.with_markup).toBeNull();
    const majority = await list(
      `filters=${encodeURIComponent(JSON.stringify({ all: [{ field: 'majority', op: 'eq', value: 'majority' }] }))}`,
    );
    expect(majority.map((r) => r.name).sort()).toEqual(['High', 'Low', 'Mid']);
    const blankMarkup = await list('filter[with_markup_null]=1');
    expect(blankMarkup.map((r) => r.name).sort()).toEqual(['Blank', 'Dated']);
    refused(await admin.get(`/api/${resource}?filter[with_markup_gte]=many`), 'filter', /must be a number/);
  });

  it('refuse a formula that cannot be read or does not fit, at its place', async () => {
    refused(await addField('Bad name', 'bid_amont * 2'), 'options.expression', /Unknown field 'bid_amont' at 1\./);
    refused(
      await addField('Bad brace', 'ROUND({Estimated valu} * 1.1, 0)'),
      'options.expression',
      /Unknown field 'Estimated valu' at 7\./,
    );
    refused(await addField('Bad syntax', 'workers +'), 'options.expression', /at 10\./);
    refused(await addField('Bad type', 'workers & "x" > 3'), 'options.expression', /compares two values of one type/);
    refused(await addField('Bad function', 'SQRT(workers)'), 'options.expression', /Unknown function SQRT at 1\./);
    refused(await addField('Bad arity', 'ROUND()'), 'options.expression', /takes 1 to 2 values/);
    refused(await addField('Self', 'self + 1'), 'options.expression', /cannot use its own field/);
    refused(
      await admin.post('/api/schema-fields', { schema_id: schemaId, name: 'Typed', type: 'formula', options: {} }),
      'options.expression',
      /formula/,
    );
  });

  it('refuse a circle of formulas, naming it', async () => {
    const first = ok(await addField('Loop A', 'workers + 1'), 201);
    ok(await addField('Loop B', 'loop_a * 2'), 201);
    refused(
      await admin.post(`/api/schema-fields/${first.id}`, { options: { expression: 'loop_b - 1' } }),
      'options.expression',
      /circle: Loop A → Loop B → Loop A/,
    );
  });

  it('keep the fields they use from a change that would break them', async () => {
    const fields = await fieldsOfSchema();
    const value = fields.find((field) => field.slug === 'estimated_value')!;
    refused(
      await admin.delete(`/api/schema-fields/${value.id}`),
      'id',
      /formula “With markup” uses “Estimated value”.*unknown field/i,
    );
    refused(
      await admin.post(`/api/schema-fields/${value.id}`, { name: 'Value' }),
      'name',
      /formula “With markup” uses “Estimated value”/,
    );
    refused(
      await admin.post(`/api/schema-fields/${value.id}`, { type: 'text' }),
      'name',
      /formula “With markup” uses “Estimated value”.*takes a number/,
    );
    // A field formulas name by its slug only may be renamed; the formulas keep working.
    ok(await addField('Shouted', 'UPPER(contractor)'), 201);
    const contractor = fields.find((field) => field.slug === 'contractor')!;
    ok(await admin.post(`/api/schema-fields/${contractor.id}`, { name: 'General contractor' }));
    expect((await create({ name: 'Renamed', contractor: 'acme' })).shouted).toBe('ACME');
  });
});

/** Expressions whose SQL (the list) and JavaScript (the form) must agree, on records with blanks, zeros and text. */
const AGREEMENT: Array<[string, string]> = [
  ['Sum', 'estimated_value + workers * 2 - union_workers / 3'],
  ['Quotient', 'estimated_value / workers'],
  ['Rounded', 'ROUND(estimated_value / 7, 2)'],
  ['Half', 'ROUND(estimated_value * 0.005, 0)'],
  ['Floored', 'FLOOR(estimated_value / 3) + CEILING(workers / 4) + ABS(0 - union_workers)'],
  ['Extremes', 'MAX(workers, union_workers, 3) - MIN(workers, union_workers)'],
  ['Joined', 'contractor & " (" & workers & ")"'],
  ['Concat', 'CONCAT(UPPER(contractor), "/", LOWER(contractor), "/", LEN(contractor), "/", TRIM(contractor))'],
  ['Compared', 'IF(contractor < "M", "early", "late")'],
  ['Logic', 'AND(urgent, OR(workers > 5, NOT(union_workers = 0)))'],
  ['Blank', 'ISBLANK(contractor)'],
  ['Days', 'DAYS(DATEADD(start_date, workers, "days"), DATE(2024, 2, 29))'],
  ['Months', 'DATEADD(start_date, union_workers, "months")'],
  ['Years', 'YEAR(start_date) * 10000 + MONTH(start_date) * 100 + DAY(start_date)'],
  ['Rolled', 'DATE(2024, workers, union_workers)'],
  // Past years 1 to 9999 both give a blank (SQL would raise "out of range").
  ['Far', 'DATEADD(start_date, estimated_value, "years")'],
  ['Far days', 'DATEADD(start_date, estimated_value * 10, "weeks")'],
  ['Early', 'DATE(2024, 0 - estimated_value * 20, union_workers)'],
  ['Text of date', 'CONCAT(start_date, " ", urgent)'],
];
const RECORDS: Array<Record<string, unknown>> = [
  { estimated_value: 1000, workers: 10, union_workers: 6, contractor: 'Acme', urgent: true, start_date: '2024-01-31' },
  { estimated_value: 0.1, workers: 0, union_workers: 0, contractor: ' Zed ', urgent: false, start_date: '2023-12-31' },
  { estimated_value: -2.5, workers: 3, union_workers: 13, contractor: 'b', urgent: true, start_date: '2024-02-29' },
  { estimated_value: 123456.789, workers: 7, contractor: 'Mo', start_date: '2000-03-01' },
  { contractor: '', urgent: false },
  {},
];

describe('formula SQL and JavaScript', () => {
  it('agree on every expression for every record', async () => {
    const made = [];
    for (const [name, expression] of AGREEMENT) made.push(ok(await addField(name, expression), 201));
    const records = [];
    for (const [i, values] of RECORDS.entries()) records.push(await create({ name: `Agreement ${i}`, ...values }));
    const fields = (await fieldsOfSchema()).map((field) => ({
      slug: field.slug,
      name: field.name,
      type: field.type,
      options: field.options ?? {},
      kind: valueKind(field.type, field.options ?? {}),
    }));
    const disagreements: string[] = [];
    for (const field of made) {
      const expression = String((field as any).options.expression);
      const preview = formulaPreview(expression, String((field as any).slug), fields);
      expect(preview, expression).not.toBeNull();
      for (const record of records) {
        const fromSql = record[String((field as any).slug)];
        const fromJs = preview!(record);
        const same =
          typeof fromSql === 'number' && typeof fromJs === 'number'
            ? Math.abs(fromSql - fromJs) <= 1e-9 * Math.max(1, Math.abs(fromSql))
            : fromSql === fromJs;
        if (!same)
          disagreements.push(
            `${expression} on ${record.name}: SQL ${JSON.stringify(fromSql)}, JS ${JSON.stringify(fromJs)}`,
          );
      }
    }
    expect(disagreements).toEqual([]);
  });
});
