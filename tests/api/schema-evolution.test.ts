import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFields } from '../../src/server/db/dynamic-tables.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * A record type holding 1,000 records goes through a rename, a retype, a removed choice and a deleted field
 * (issue 20): every value ends up where the change says (kept, converted, remapped or archived), none is lost, and
 * every record stays editable.
 */
let t: TestApp;
let admin: TestClient;
const COUNT = 1_000;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const ok = (res: { status: number; body: any }, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.data;
};

describe('a type of 1,000 records through four schema changes', () => {
  let lots: any;
  const field = (slug: string) => lots.fields.find((f: any) => f.slug === slug);
  const grades = [
    { value: 'a', label: 'A' },
    { value: 'b', label: 'B' },
    { value: 'c', label: 'C' },
  ];
  const rows = () =>
    t.ctx.db
      .selectFrom('custom_records')
      .select(['id', 'name', 'custom', 'deleted_at'])
      .where('schema_id', '=', lots.id)
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    lots = ok(
      await admin.post('/api/schemas', {
        name_singular: 'Lot',
        name_plural: 'Lots',
        fields: [
          { name: 'Code', type: 'text' },
          { name: 'Size', type: 'text' },
          { name: 'Grade', type: 'dropdown', options: { choices: grades } },
          { name: 'Remark', type: 'text' },
        ],
      }),
      201,
    );
    // Lot i: code L-i, size "i" (every 100th "n/a", which is no number), grade a/b/c in turn, a remark.
    const values = Array.from({ length: COUNT }, (_, i) => ({
      schema_id: lots.id,
      name: `Lot ${i}`,
      custom: JSON.stringify({
        code: `L-${i}`,
        size: i % 100 === 0 ? 'n/a' : String(i),
        grade: grades[i % 3].value,
        remark: `remark ${i}`,
      }),
    }));
    for (let i = 0; i < values.length; i += 250)
      await t.ctx.db
        .insertInto('custom_records')
        .values(values.slice(i, i + 250))
        .execute();
  }, 120_000);

  it('renaming a field keeps every value', async () => {
    ok(await admin.put(`/api/schema-fields/${field('code').id}`, { name: 'Lot code' }));
    const all = await rows();
    expect(all).toHaveLength(COUNT);
    expect(all.every((row: any, i: number) => row.custom.code === `L-${i}`)).toBe(true);
    expect((await admin.get(`/api/${lots.resource}?filter[code]=L-7`)).body.data.map((r: any) => r.name)).toEqual([
      'Lot 7',
    ]);
  });

  it('retyping text to a number converts what is a number and archives the rest, saying so first', async () => {
    const preview = ok(
      await admin.post(`/api/schema-fields/${field('size').id}/impact`, { type: 'number', options: {} }),
    );
    expect(preview).toMatchObject({ converted: COUNT - 10, archived: 10 });
    ok(await admin.put(`/api/schema-fields/${field('size').id}`, { type: 'number', options: {} }));
    const all = await rows();
    expect(all.filter((row: any) => typeof row.custom.size === 'number')).toHaveLength(COUNT - 10);
    expect(
      all.every((row: any, i: number) =>
        i % 100 === 0 ? row.custom.size === undefined || row.custom.size === null : row.custom.size === i,
      ),
    ).toBe(true);
    const archived = await t.ctx.db
      .selectFrom('field_value_archive')
      .select(['record_id', 'value'])
      .where('schema_id', '=', lots.id)
      .where('field_slug', '=', 'size')
      .execute();
    expect(archived.map((row: any) => row.value).sort()).toEqual(Array(10).fill('n/a'));
    // Numbers now compare as numbers: 9 < 10.
    expect((await admin.get(`/api/${lots.resource}?filter[size_gte]=995`)).body.meta.total).toBe(5);
  });

  it('removing a choice records hold is refused until mapped, then moves exactly those records', async () => {
    const fewer = { choices: grades.slice(0, 2) };
    const preview = ok(await admin.post(`/api/schema-fields/${field('grade').id}/impact`, { options: fewer }));
    const heldC = Math.floor((COUNT - 3) / 3) + 1; // i % 3 === 2
    expect(preview.choices).toEqual([{ value: 'c', label: 'C', records: heldC, in_logic: false }]);
    expect((await admin.put(`/api/schema-fields/${field('grade').id}`, { options: fewer })).status).toBe(422);
    const before = (await rows()).filter((row: any) => row.custom.grade === 'b').length;
    ok(await admin.put(`/api/schema-fields/${field('grade').id}`, { options: fewer, choice_map: { c: 'b' } }));
    const all = await rows();
    expect(all.filter((row: any) => row.custom.grade === 'c')).toHaveLength(0);
    expect(all.filter((row: any) => row.custom.grade === 'b')).toHaveLength(before + heldC);
    expect(all.filter((row: any) => row.custom.grade === 'a')).toHaveLength(COUNT - before - heldC);
  });

  it('deleting a field archives its 1,000 values; a new field of the same slug starts empty; every record stays editable', async () => {
    const preview = ok(await admin.get(`/api/schema-fields/${field('remark').id}/impact`));
    expect(preview.records).toEqual({ live: COUNT, trashed: 0 });
    ok(await admin.delete(`/api/schema-fields/${field('remark').id}`));
    const archived = await t.ctx.db
      .selectFrom('field_value_archive')
      .select(['record_id', 'value'])
      .where('schema_id', '=', lots.id)
      .where('field_slug', '=', 'remark')
      .execute();
    expect(archived).toHaveLength(COUNT);
    const all = await rows();
    expect(all.every((row: any) => !('remark' in row.custom))).toBe(true);
    ok(await admin.post('/api/schema-fields', { schema_id: lots.id, name: 'Remark', type: 'date' }), 201);
    expect((await admin.get(`/api/${lots.resource}?filter[remark_null]=0`)).body.meta.total).toBe(0);
    // Nothing else moved: codes, sizes and grades as the changes left them; each record saves again.
    expect(all.every((row: any, i: number) => row.custom.code === `L-${i}`)).toBe(true);
    for (const row of [all[0], all[1], all[2], all[500], all[COUNT - 1]]) {
      const saved = ok(await admin.put(`/api/${lots.resource}/${row.id}`, { name: `${row.name} (checked)` }));
      expect(saved.code).toBe(customFields(row.custom).code);
    }
    expect((await admin.get(`/api/${lots.resource}?per_page=1`)).body.meta.total).toBe(COUNT);
  });
});
