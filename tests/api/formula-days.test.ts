/**
 * A formula of the days between TODAY() and one date field changes every day, so no index holds it (formula-indexes
 * .test.ts); lists sort by it and compare it through the date's own index instead (common/field-types/formula-days.ts),
 * as they do a formula of the days between a date field and a fixed day: the same rows in the same order as the
 * formula's own values give, either way round, at the ends of the calendar too.
 */
import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, type Row } from '../support/api-answers.js';
import { recordQueries } from '../support/query-counter.js';
import { planNodes } from '../support/query-plans.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let schemaId: number;
let bids: string;

const DAY_MS = 86_400_000;
const dayFromToday = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
/** The bids' start dates: days from today, the first and last days a date holds, and none. */
const STARTS: Record<string, string | null> = {
  'Long ago': dayFromToday(-1_000),
  'Last week': dayFromToday(-7),
  Today: dayFromToday(0),
  'Next week': dayFromToday(7),
  'Year 1': '0001-01-01',
  'Year 9999': '9999-12-31',
  'No start': null,
};

const list = async (query: string) => {
  const answer = await admin.get(`/api/${bids}?per_page=50&${query}`);
  expect({ query, status: answer.status }).toEqual({ query, status: 200 });
  return answer.body.data as Row[];
};

beforeAll(async () => {
  t = await startTestApp({ READ_CACHE: '0' });
  admin = await t.admin();
  const schema = ok(
    await admin.post('/api/schemas', {
      name_singular: 'Bid',
      name_plural: 'Bids',
      fields: [{ name: 'Start date', type: 'date' }],
    }),
    201,
  );
  schemaId = Number(schema.id);
  bids = String(schema.resource);
  for (const [name, start_date] of Object.entries(STARTS))
    ok(await admin.post(`/api/${bids}`, { name, start_date }), 201);
  for (const [name, expression] of [
    ['Age', 'DAYS(TODAY(), {Start date})'],
    ['Countdown', 'DAYS({Start date}, TODAY())'],
    ['Since launch', 'DAYS({Start date}, DATE(2024, 1, 1))'],
    ['Until close', 'DAYS(DATEADD(DATE(2030, 1, 1), -1, "days"), {Start date})'],
    // A fixed day past the calendar's end: blank, so every value is blank and the list is in id order.
    ['Beyond', 'DAYS({Start date}, DATE(10000, 1, 1))'],
  ])
    ok(
      await admin.post('/api/schema-fields', { schema_id: schemaId, name, type: 'formula', options: { expression } }),
      201,
    );
}, 300_000);
afterAll(async () => {
  await t?.close();
});

/** The formulas that move with the start date: from and to TODAY(), from and to a fixed day. */
const MOVING = ['age', 'countdown', 'since_launch', 'until_close'];

describe('a formula of days to or from TODAY() or a fixed day', () => {
  it('sorts as its values do, missing ones last, either way and either way round', async () => {
    for (const slug of MOVING)
      for (const order of ['asc', 'desc'] as const) {
        const rows = await list(`sort=${slug}&order=${order}`);
        const values = rows.map((row) => row[slug] as number | null);
        const known = values.filter((value) => value !== null) as number[];
        expect(values.slice(known.length)).toEqual([null]);
        expect(known).toEqual([...known].sort((a, b) => (order === 'asc' ? a - b : b - a)));
        expect(known).toHaveLength(6);
      }
    for (const order of ['asc', 'desc'] as const) {
      const rows = await list(`sort=beyond&order=${order}`);
      expect(rows.map((row) => row.beyond)).toEqual(rows.map(() => null));
      const ids = rows.map((row) => Number(row.id));
      expect(ids).toEqual([...ids].sort((a, b) => (order === 'asc' ? a - b : b - a)));
    }
  });

  it('filters as its values compare, whole and fractional days, out to and past the ends of the calendar', async () => {
    const all = await list('sort=name');
    const compare = {
      gte: (a: number, b: number) => a >= b,
      gt: (a: number, b: number) => a > b,
      lte: (a: number, b: number) => a <= b,
      lt: (a: number, b: number) => a < b,
      eq: (a: number, b: number) => a === b,
    };
    const far = 3_652_058; // 0001-01-01 to 9999-12-31
    const ages = all.map((row) => Number(row.age)).filter((age) => !Number.isNaN(age));
    const values = [0, 7, 7.5, -7, -7.5, 1_000, 999.5, 5_000_000, -5_000_000, 1e12, -1e12, far, -far, ...ages];
    for (const slug of [...MOVING, 'beyond'])
      for (const [op, holds] of Object.entries(compare))
        for (const value of values) {
          const expected = all
            .filter((row) => row[slug] !== null && holds(Number(row[slug]), value))
            .map((row) => row.name);
          const key = op === 'eq' ? slug : `${slug}_${op}`;
          const found = (await list(`sort=name&filter[${key}]=${value}`)).map((row) => row.name);
          expect({ slug, op, value, found }).toEqual({ slug, op, value, found: expected });
        }
  }, 600_000);

  it('is read through the date’s index: sorted by it, and compared', async () => {
    const user = await t.authUser();
    const def = t.ctx.resources.get(bids)!;
    const read = async (query: Record<string, unknown>, statement: RegExp) => {
      const { queries } = await recordQueries(() => t.ctx.records.list(user, def, { ...query, total: 'estimate' }));
      const found = queries.find((q: CompiledQuery) => /from "custom_records"/i.test(q.sql) && statement.test(q.sql))!;
      const used = (await planNodes(t.ctx.db, found)).map((node) => node['Index Name'] ?? '');
      return used;
    };
    const startIndex = (used: string[]) =>
      used.some((name) => name.startsWith(`custom_records_cf_${schemaId}_start_date_`));
    // Past bids enough for a range of the date to be worth its index (the rows compared below are two of them).
    await sql`insert into custom_records (schema_id, name, custom)
      select ${schemaId}, 'Past ' || g, jsonb_build_object('start_date', to_char(current_date - g, 'YYYY-MM-DD'))
      from generate_series(8, 3000) g`.execute(t.ctx.db);
    await sql`analyze custom_records`.execute(t.ctx.db);
    // The page sorted by the formula, and the count of the rows compared with it.
    expect(startIndex(await read({ sort: 'age', order: 'desc' }, /order by .*\blimit\b/i))).toBe(true);
    expect(startIndex(await read({ 'filter[countdown_gte]': 3 }, /count\(/i))).toBe(true);
    // A fixed day: its page reads the date's index too, not the formula's own (which works it out on every row read).
    expect(startIndex(await read({ sort: 'since_launch', order: 'asc' }, /order by .*\blimit\b/i))).toBe(true);
    expect(startIndex(await read({ 'filter[until_close_lte]': 2_000 }, /count\(/i))).toBe(true);
  });
});
