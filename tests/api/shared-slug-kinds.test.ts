/**
 * Record types made in the app share one table (`custom_records`), so two of them may each have a field of one slug
 * holding another kind of value (docs/records.md "Indexes and speed"): a number `size` on one and a dropdown `size`
 * on the other. Each field's indexes cast its value only on its own type's rows, so neither type's records stop the
 * other's from being saved, and lists of each filter and sort by their own kind of value, the number through its
 * index.
 */
import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../src/server/auth/auth-user.js';
import { forMigration } from '../../src/server/db/migrate.js';
import * as migration074 from '../../src/server/db/migrations/074_custom_record_casts_per_type.js';
import { ensureAllCustomFieldIndexes } from '../../src/server/schemas/indexes.js';
import { ok, type Row } from '../support/api-answers.js';
import { recordQueries } from '../support/query-counter.js';
import { planNodes } from '../support/query-plans.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let user: AuthUser;
let crews: string;
let crates: string;

const makeType = async (singular: string, plural: string, fields: Array<Record<string, unknown>>) => {
  const schema = ok(await admin.post('/api/schemas', { name_singular: singular, name_plural: plural, fields }), 201);
  return { resource: String(schema.resource), id: Number(schema.id) };
};
const create = async (resource: string, body: Record<string, unknown>) =>
  ok(await admin.post(`/api/${resource}`, body), 201);
const names = async (resource: string, query: string) =>
  ((await admin.get(`/api/${resource}?per_page=100&${query}`)).body.data as Row[]).map((row) => row.name);

beforeAll(async () => {
  t = await startTestApp({ READ_CACHE: '0' });
  admin = await t.admin();
  crews = (
    await makeType('Crew', 'Crews', [
      { name: 'Size', type: 'number' },
      { name: 'Due', type: 'date' },
      { name: 'Active', type: 'boolean' },
      { name: 'Code', type: 'number', options: { unique: true } },
    ])
  ).resource;
  await create(crews, { name: 'Crew small', size: 3, due: '2026-01-05', active: true, code: 1 });
  await create(crews, { name: 'Crew big', size: 12, due: '2026-03-01', active: false, code: 2 });
  crates = (
    await makeType('Crate', 'Crates', [
      {
        name: 'Size',
        type: 'dropdown',
        options: { choices: [{ value: 'small' }, { value: 'medium' }, { value: 'large' }] },
      },
      { name: 'Due', type: 'text' },
      { name: 'Active', type: 'text' },
      { name: 'Code', type: 'text' },
    ])
  ).resource;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('two app-made types with fields of one slug and two kinds', () => {
  it('the second type saves its records: number vs dropdown, date vs text, yes/no vs text, unique number vs text', async () => {
    const large = await create(crates, {
      name: 'Crate large',
      size: 'large',
      due: 'next week',
      active: 'yes',
      code: 'A',
    });
    await create(crates, { name: 'Crate small', size: 'small', due: 'soon', active: 'no', code: 'B' });
    expect(large).toMatchObject({ size: 'large', due: 'next week', active: 'yes', code: 'A' });
    const changed = ok(
      await admin.post(`/api/${crates}/${large.id}`, { size: 'medium', updated_at: large.updated_at }),
    );
    expect(changed.size).toBe('medium');
    // The first type is untouched by the second's values.
    await create(crews, { name: 'Crew mid', size: 7, due: '2026-02-01', active: true, code: 3 });
  });

  it('each type lists, filters and sorts by its own kind of value', async () => {
    expect(await names(crates, 'filter[size]=small')).toEqual(['Crate small']);
    expect(await names(crates, 'sort=size&order=desc')).toEqual(['Crate large', 'Crate small']);
    expect(await names(crates, 'filter[due]=soon')).toEqual(['Crate small']);
    expect(await names(crates, 'filter[active]=yes')).toEqual(['Crate large']);
    expect(await names(crates, 'sort=code&order=desc')).toEqual(['Crate small', 'Crate large']);

    expect(await names(crews, 'filter[size_gte]=5&sort=size')).toEqual(['Crew mid', 'Crew big']);
    expect(await names(crews, 'sort=size&order=desc')).toEqual(['Crew big', 'Crew mid', 'Crew small']);
    expect(await names(crews, 'filter[due_lt]=2026-02-15&sort=due')).toEqual(['Crew small', 'Crew mid']);
    expect(await names(crews, 'filter[active]=true&sort=name')).toEqual(['Crew mid', 'Crew small']);
    expect(await names(crews, 'filter[code]=2')).toEqual(['Crew big']);
  });

  it("the number field's unique index still refuses a duplicate, and the text field of the same slug does not share it", async () => {
    const duplicate = await admin.post(`/api/${crews}`, { name: 'Crew copy', code: 2 });
    expect(duplicate.status, JSON.stringify(duplicate.body)).toBe(422);
    expect(duplicate.body.errors?.code?.[0]).toMatch(/already held/);
    await create(crates, { name: 'Crate two', code: '2' });
  });

  it('a number field added to a type after another type holds text under its slug is made, and its records saved', async () => {
    const crateSchema = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: Row) => s.resource === crates);
    ok(await admin.post('/api/schema-fields', { schema_id: crateSchema.id, name: 'Weight', type: 'text' }), 201);
    await create(crates, { name: 'Crate heavy', weight: 'heavy' });
    const crewSchema = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: Row) => s.resource === crews);
    ok(await admin.post('/api/schema-fields', { schema_id: crewSchema.id, name: 'Weight', type: 'number' }), 201);
    // The number's indexes were made (they are made after the field's save, where a failure is only logged).
    const { rows } = await sql<{ name: string }>`select indexname as name from pg_indexes
      where tablename = 'custom_records' and indexname like ${`custom_records_cf_${crewSchema.id}_weight_%`}`.execute(
      t.ctx.db,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    await create(crews, { name: 'Crew heavy', weight: 900 });
    await create(crates, { name: 'Crate light', weight: 'light' });
    expect(await names(crews, 'filter[weight_gt]=100')).toEqual(['Crew heavy']);
    expect(await names(crates, 'filter[weight]=heavy')).toEqual(['Crate heavy']);
  });

  it("a list of the number's type, filtered and sorted by it, reads the field's index", async () => {
    await sql`analyze custom_records`.execute(t.ctx.db);
    const def = t.ctx.resources.get(crews)!;
    user = await t.authUser();
    const { queries } = await recordQueries(() =>
      t.ctx.records.list(user, def, { 'filter[size_gte]': '5', sort: 'size' }),
    );
    const page = queries.find(
      (q: CompiledQuery) =>
        /from "custom_records"/i.test(q.sql) && /\blimit\b/i.test(q.sql) && !/count\(\*\)/i.test(q.sql),
    )!;
    const nodes = await planNodes(t.ctx.db, page);
    expect(
      nodes.some((node) => /^custom_records_cf_/.test(node['Index Name'] ?? '')),
      JSON.stringify(nodes),
    ).toBe(true);
  });
});

describe('a database whose indexes cast on every row of custom_records', () => {
  it('migration 074 drops them and start-up makes them again, cast on their own type only', async () => {
    const crewSchema = (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: Row) => s.resource === crews);
    ok(await admin.post('/api/schema-fields', { schema_id: crewSchema.id, name: 'Rank', type: 'number' }), 201);
    const rankIndexes = async () =>
      (
        await sql<{ name: string; def: string }>`select indexname as name, indexdef as def from pg_indexes
          where tablename = 'custom_records' and indexname like ${`custom_records_cf_${crewSchema.id}_rank_%`} order by 1`.execute(
          t.ctx.db,
        )
      ).rows;
    const made = await rankIndexes();
    expect(made.length).toBe(2);
    for (const index of made) expect(index.def, index.def).toMatch(/CASE\s+WHEN \(schema_id = \d+\) THEN/);
    // The shape of before: the same names, the value cast on every row.
    for (const index of made) {
      await sql`drop index ${sql.id(index.name)}`.execute(t.ctx.db);
      await sql`create index ${sql.id(index.name)} on custom_records (schema_id, (((custom ->> 'rank'))::numeric), deleted_at)`.execute(
        t.ctx.db,
      );
    }
    await migration074.up(forMigration(t.ctx.db));
    expect(await rankIndexes()).toEqual([]);
    await ensureAllCustomFieldIndexes(t.ctx.db);
    const again = await rankIndexes();
    expect(again.map((index) => index.name)).toEqual(made.map((index) => index.name));
    for (const index of again) expect(index.def).toMatch(/CASE\s+WHEN \(schema_id = \d+\) THEN/);
  });
});
