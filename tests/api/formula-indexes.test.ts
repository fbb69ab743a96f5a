/**
 * A formula whose SQL PostgreSQL takes for an index (immutable: no TODAY(), no date read from text) gets an index over
 * that SQL when it is saved (docs/records.md "Indexes and speed"), made anew when its formula changes and dropped with
 * the field; lists filtered on it or sorted by it read that index. A formula that is not immutable saves and lists as
 * before, without one.
 */
import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAllCustomFieldIndexes } from '../../src/server/schemas/indexes.js';
import { ok, type Row } from '../support/api-answers.js';
import { recordQueries } from '../support/query-counter.js';
import { planNodes } from '../support/query-plans.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let schemaId: number;
let bids: string;

const addFormula = async (name: string, expression: string) =>
  ok(
    await admin.post('/api/schema-fields', { schema_id: schemaId, name, type: 'formula', options: { expression } }),
    201,
  );

/** The indexes of a formula field, by name, with their definitions. */
const formulaIndexes = async (slug: string) => {
  const prefix = `custom_records_cf_${schemaId}_${slug}_fx_`;
  const { rows } = await sql<{ name: string; def: string }>`select indexname as name, indexdef as def from pg_indexes
    where tablename = 'custom_records' and left(indexname, ${prefix.length}) = ${prefix} order by indexname`.execute(
    t.ctx.db,
  );
  return rows;
};

/** The page query of a list of bids and the names of the indexes its plan reads. */
const indexesRead = async (query: Record<string, unknown>) => {
  const user = await t.authUser();
  const def = t.ctx.resources.get(bids)!;
  const { result, queries } = await recordQueries(() => t.ctx.records.list(user, def, query));
  const page = queries.find(
    (q: CompiledQuery) =>
      /from "custom_records"/i.test(q.sql) && /\blimit\b/i.test(q.sql) && !/count\(\*\)/i.test(q.sql),
  )!;
  const nodes = await planNodes(t.ctx.db, page);
  return { result, used: nodes.map((node) => node['Index Name']).filter(Boolean) as string[] };
};

beforeAll(async () => {
  t = await startTestApp({ READ_CACHE: '0' });
  admin = await t.admin();
  const schema = ok(
    await admin.post('/api/schemas', {
      name_singular: 'Bid',
      name_plural: 'Bids',
      fields: [
        { name: 'Estimated value', type: 'number' },
        { name: 'Start date', type: 'date' },
      ],
    }),
    201,
  );
  schemaId = Number(schema.id);
  bids = String(schema.resource);
  for (const [name, value] of [
    ['Bid low', 100],
    ['Bid mid', 1_000],
    ['Bid high', 10_000],
    ['Bid none', null],
  ] as const)
    ok(await admin.post(`/api/${bids}`, { name, estimated_value: value, start_date: '2024-03-01' }), 201);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('a formula field’s index', () => {
  it('is made when an immutable formula is saved: one index over its SQL, in sort order', async () => {
    await addFormula('Markup', 'ROUND({Estimated value} * 1.1, 0)');
    const indexes = await formulaIndexes('markup');
    expect(indexes).toHaveLength(1);
    // Ascending, nulls last: PostgreSQL's default order, which its definition leaves unsaid.
    expect(indexes[0].def).toMatch(/\(schema_id, round\(.*1\.1.*\), id, deleted_at\)$/s);
  });

  it('serves a list filtered on the formula and one sorted by it, whose values are the formula’s', async () => {
    // Enough bids that a filter matching two of them is read from its index rather than along the name order.
    await sql`insert into custom_records (schema_id, name, custom)
      select ${schemaId}, 'Small bid ' || g, jsonb_build_object('estimated_value', g % 50) from generate_series(1, 3000) g`.execute(
      t.ctx.db,
    );
    await sql`analyze custom_records`.execute(t.ctx.db);
    const [index] = (await formulaIndexes('markup')).map((found) => found.name);
    expect((await indexesRead({ 'filter[markup_gte]': 1_000 })).used).toContain(index);
    expect((await indexesRead({ sort: 'markup', order: 'desc', per_page: 2 })).used).toContain(index);
    expect((await indexesRead({ sort: 'markup', order: 'desc', 'filter[markup_gte]': 1_000 })).used).toEqual([index]);
    const rows = ((await admin.get(`/api/${bids}?sort=markup&order=desc&filter[markup_gte]=200`)).body.data ??
      []) as Row[];
    expect(rows.map((row) => [row.name, Number(row.markup)])).toEqual([
      ['Bid high', 11_000],
      ['Bid mid', 1_100],
    ]);
  });

  it('is replaced when the formula changes, and dropped with the field', async () => {
    const field = (
      (await admin.get(`/api/schema-fields?filter[schema_id]=${schemaId}&per_page=-1`)).body.data as Row[]
    ).find((row) => row.slug === 'markup')!;
    const before = (await formulaIndexes('markup')).map((index) => index.name);
    ok(
      await admin.post(`/api/schema-fields/${field.id}`, {
        options: { expression: 'ROUND({Estimated value} * 1.2, 0)' },
      }),
    );
    const after = await formulaIndexes('markup');
    expect(after).toHaveLength(1);
    expect(after.map((index) => index.name).filter((name) => before.includes(name))).toEqual([]);
    for (const index of after) expect(index.def).toContain('1.2');
    const { used } = await indexesRead({ sort: 'markup', order: 'asc', per_page: 2 });
    expect(used).toContain(after[0].name);
    ok(await admin.delete(`/api/schema-fields/${field.id}`));
    expect(await formulaIndexes('markup')).toEqual([]);
  });

  it('is made for a formula reading a date; not for TODAY(), which saves and lists as before', async () => {
    await addFormula('Age', 'DAYS(TODAY(), {Start date})');
    await addFormula('Since', 'DAYS({Start date}, DATE(2024, 1, 1))');
    expect(await formulaIndexes('age')).toEqual([]);
    const [since] = await formulaIndexes('since');
    expect(since.def).toContain('make_date');
    // Days from a fixed day move with the date alone: the list reads the date's index (formula-days.test.ts).
    const { used } = await indexesRead({ sort: 'since', 'filter[since_gte]': 60 });
    expect(used.some((name) => name.startsWith(`custom_records_cf_${schemaId}_start_date_`))).toBe(true);
    const rows = (await admin.get(`/api/${bids}?sort=since&filter[since_gte]=60`)).body.data as Row[];
    expect(rows.map((row) => Number(row.since))).toEqual([60, 60, 60, 60]); // the four bids with a start date
    const ages = (await admin.get(`/api/${bids}?sort=age&filter[age_gte]=1`)).body.data as Row[];
    expect(ages.map((row) => row.name).sort()).toEqual(['Bid high', 'Bid low', 'Bid mid', 'Bid none']);
  });

  it('never makes a write fail: a row its formula cannot work out is saved and listed with a blank', async () => {
    // Each would raise in SQL for the bid below (a date past year 9999, a month before year 1, a division by zero):
    // compiled guarded, they are indexed and give a blank.
    const raising: Array<[string, string]> = [
      ['Far year', 'DATEADD(DATE(2024, 1, 1), {Estimated value}, "years")'],
      ['Far day', 'DATEADD({Start date}, {Estimated value} * 1000, "weeks")'],
      ['Early month', 'DATE(2024, 0 - {Estimated value}, 1)'],
      ['Per unit', '{Estimated value} / ({Estimated value} - 1000000)'],
    ];
    for (const [name, expression] of raising) await addFormula(name, expression);
    for (const slug of ['far_year', 'far_day', 'early_month', 'per_unit'])
      expect(await formulaIndexes(slug), slug).toHaveLength(1);
    const saved = ok(
      await admin.post(`/api/${bids}`, { name: 'Bid huge', estimated_value: 1_000_000, start_date: '2024-03-01' }),
      201,
    );
    expect([saved.far_year, saved.far_day, saved.early_month, saved.per_unit]).toEqual([null, null, null, null]);
    ok(await admin.post(`/api/${bids}/${saved.id}`, { start_date: '2025-01-01' }));
    const listed = (await admin.get(`/api/${bids}?filter[name]=Bid huge&sort=far_year`)).body.data as Row[];
    expect(listed.map((row) => [row.name, row.far_year, row.per_unit])).toEqual([['Bid huge', null, null]]);
    // The same formulas still give a value where there is one.
    const low = ((await admin.get(`/api/${bids}?filter[name]=Bid low`)).body.data as Row[])[0];
    expect([low.far_year, low.early_month]).toEqual(['2124-01-01', '2015-08-01']);
    const sorted = (await admin.get(`/api/${bids}?sort=far_year&order=desc&per_page=1`)).body.data as Row[];
    expect(sorted.map((row) => row.far_year)).toEqual(['3024-01-01']); // Bid high's year 12024 is a blank
  });

  it('is not made for a formula too long to bound its numbers, which saves and lists as before', async () => {
    // 20 factors (39 nodes) each used 8 times: over the 300 nodes whose numbers are bounded.
    await addFormula('Twentieth', Array.from({ length: 20 }, () => '{Estimated value}').join(' * '));
    await addFormula('Power', `IF(${Array.from({ length: 8 }, () => '{Twentieth}').join(' * ')} > 0, 1, 0)`);
    expect(await formulaIndexes('twentieth')).toHaveLength(1);
    expect(await formulaIndexes('power')).toEqual([]);
    const rows = (await admin.get(`/api/${bids}?filter[power]=1&filter[name]=Bid low`)).body.data as Row[];
    expect(rows.map((row) => row.name)).toEqual(['Bid low']);
  });

  it('is made again at start-up when missing', async () => {
    await addFormula('Double', '{Estimated value} * 2');
    for (const index of await formulaIndexes('double')) await sql`drop index ${sql.id(index.name)}`.execute(t.ctx.db);
    await ensureAllCustomFieldIndexes(t.ctx.db);
    expect(await formulaIndexes('double')).toHaveLength(1);
  });
});
