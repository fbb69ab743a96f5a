/**
 * Kept rollups (issue 30, docs/records.md "Rollups"): a rollup's value is kept on each of its records by the record
 * service, in the transaction of every write of a record it reads (create, update, relink, delete, restore, import,
 * bulk edit, undo) and for every record when the field is saved; lists filter and sort on the kept value; a reader whose
 * rule narrows the related records still has it worked out over theirs.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../src/common/field-types/define.js';
import { valueExpression } from '../../src/common/field-types/sql.js';
import { runImport } from '../fixtures/upload.js';
import { ok, type Row } from '../support/api-answers.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

const SQL = sql as unknown as Sql;

let t: TestApp;
let admin: TestClient;
let projects: string;
let chores: string;
let projectSchema: number;
let choreType: string;
let choreSchema: number;
let roof: Row;
let yard: Row;

const create = async (resource: string, body: Record<string, unknown>) =>
  ok(await admin.post(`/api/${resource}`, body), 201);

/** What the rows keep under the rollups' slugs (`custom`), by project name. */
async function keptValues(): Promise<Record<string, Record<string, unknown>>> {
  const { rows } = await sql<{ name: string; custom: Record<string, unknown> }>`select name, custom from custom_records
    where schema_id = ${projectSchema} order by id`.execute(t.ctx.db);
  return Object.fromEntries(
    rows.map((row) => [row.name, { count: row.custom.chore_count, hours: row.custom.big_hours }]),
  );
}

/** The values as the API shows them (worked out live for a reader whose rule narrows the chores). */
async function shown(client: TestClient = admin) {
  const rows = (await client.get(`/api/${projects}?sort=name&per_page=50`)).body.data as Row[];
  return Object.fromEntries(rows.map((row) => [row.name, { count: row.chore_count, hours: row.big_hours }]));
}

/** Kept and shown agree, and are what is expected. */
async function expectValues(expected: Record<string, { count: number; hours: number | null }>) {
  expect(await keptValues()).toEqual(expected);
  expect(await shown()).toEqual(expected);
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const project = ok(await admin.post('/api/schemas', { name_singular: 'Project', name_plural: 'Projects' }), 201);
  projects = String(project.resource);
  projectSchema = Number(project.id);
  const chore = ok(
    await admin.post('/api/schemas', {
      name_singular: 'Chore',
      name_plural: 'Chores',
      fields: [
        { name: 'Project', type: 'relation', options: { target: String(project.type) } },
        { name: 'Hours', type: 'number' },
      ],
    }),
    201,
  );
  chores = String(chore.resource);
  choreType = String(chore.type);
  choreSchema = Number(chore.id);
  roof = await create(projects, { name: 'Roof' });
  yard = await create(projects, { name: 'Yard' });
  // Chores before the rollups: the values are worked out for every record when a rollup is saved.
  await create(chores, { name: 'Gutter', project: roof.id, hours: 4 });
  await create(chores, { name: 'Tiles', project: roof.id, hours: 1 });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('kept rollups', () => {
  it('are worked out for every record when saved, and again when their options change', async () => {
    const count = ok(
      await admin.post('/api/schema-fields', {
        schema_id: projectSchema,
        name: 'Chore count',
        type: 'rollup',
        options: { from: `${choreType}.project`, function: 'count' },
      }),
      201,
    );
    expect(count.options).toMatchObject({ kept: true });
    const hours = ok(
      await admin.post('/api/schema-fields', {
        schema_id: projectSchema,
        name: 'Big hours',
        type: 'rollup',
        options: {
          from: `${choreType}.project`,
          function: 'sum',
          field: 'hours',
          where: { all: [{ field: 'hours', op: 'gte', value: 5 }] },
        },
      }),
      201,
    );
    await expectValues({ Roof: { count: 2, hours: null }, Yard: { count: 0, hours: null } });
    ok(
      await admin.post(`/api/schema-fields/${hours.id}`, {
        options: { ...(hours.options as object), where: { all: [{ field: 'hours', op: 'gte', value: 2 }] } },
      }),
    );
    await expectValues({ Roof: { count: 2, hours: 4 }, Yard: { count: 0, hours: null } });
  });

  it('follow each write of the related records: create, change, relink, delete, restore', async () => {
    const shed = await create(projects, { name: 'Shed' });
    // The answer to the write carries the value its write kept.
    expect(shed).toMatchObject({ chore_count: 0, big_hours: null });
    await expectValues({
      Roof: { count: 2, hours: 4 },
      Shed: { count: 0, hours: null },
      Yard: { count: 0, hours: null },
    });
    const fence = await create(chores, { name: 'Fence', project: yard.id, hours: 6 });
    await expectValues({
      Roof: { count: 2, hours: 4 },
      Shed: { count: 0, hours: null },
      Yard: { count: 1, hours: 6 },
    });
    const changed = ok(await admin.post(`/api/${chores}/${fence.id}`, { hours: 1, updated_at: fence.updated_at }));
    await expectValues({
      Roof: { count: 2, hours: 4 },
      Shed: { count: 0, hours: null },
      Yard: { count: 1, hours: null },
    });
    ok(await admin.post(`/api/${chores}/${fence.id}`, { project: shed.id, hours: 3, updated_at: changed.updated_at }));
    await expectValues({
      Roof: { count: 2, hours: 4 },
      Shed: { count: 1, hours: 3 },
      Yard: { count: 0, hours: null },
    });
    ok(await admin.delete(`/api/${chores}/${fence.id}`));
    await expectValues({
      Roof: { count: 2, hours: 4 },
      Shed: { count: 0, hours: null },
      Yard: { count: 0, hours: null },
    });
    ok(await admin.post(`/api/${chores}/${fence.id}/restore`, {}));
    await expectValues({
      Roof: { count: 2, hours: 4 },
      Shed: { count: 1, hours: 3 },
      Yard: { count: 0, hours: null },
    });
  });

  it('follow a bulk edit, an import and its undo', async () => {
    const listed = (await admin.get(`/api/${chores}?sort=name&per_page=50`)).body.data as Row[];
    const byName = Object.fromEntries(listed.map((row) => [row.name, row]));
    ok(
      await admin.post('/api/bulk-edits', {
        resource: chores,
        field: 'project',
        value: yard.id,
        ids: [byName.Gutter.id, byName.Fence.id],
      }),
      202,
    );
    await t.app.jobs.drain();
    await expectValues({
      Roof: { count: 1, hours: null },
      Shed: { count: 0, hours: null },
      Yard: { count: 2, hours: 7 },
    });
    const importer = ok(
      await admin.post('/api/importers', {
        name: 'Chores',
        record_type: choreType,
        key_target: 'custom.name',
        columns: [
          { header: 'Name', target: 'custom.name' },
          { header: 'Hours', target: 'custom.hours' },
        ],
      }),
      201,
    );
    const content = ['Name,Hours', 'Tiles,9', 'Gutter,0', ''].join('\n');
    const result = await runImport(t, admin, Number(importer.id), [{ name: 'chores.csv', content }]);
    expect(result).toMatchObject({ status: 'complete', updated_count: 2 });
    await expectValues({
      Roof: { count: 1, hours: 9 },
      Shed: { count: 0, hours: null },
      Yard: { count: 2, hours: 3 },
    });
    ok(await admin.post(`/api/imports/${result.id}/undo`, {}), 202);
    await t.app.jobs.drain();
    await expectValues({
      Roof: { count: 1, hours: null },
      Shed: { count: 0, hours: null },
      Yard: { count: 2, hours: 7 },
    });
  });

  it('are worked out over their own related records for a reader whose rule narrows them', async () => {
    const projectType = projects.replace(/s$/, '');
    ok(
      await admin.post('/api/roles', {
        slug: 'own-chores-only',
        name: 'Own chores only',
        permissions: [`${projectType}:read`, `${choreType}:read`],
        policy: { [choreType]: { read: 'own' } },
      }),
      201,
    );
    const reader = await t.createUser({ role: 'own-chores-only', email: 'own-chores@example.com' });
    await create(chores, { name: 'Theirs', project: roof.id, hours: 8, user_id: reader.id });
    const asReader = await t.signIn('own-chores@example.com');
    expect(await shown(asReader)).toEqual({
      Roof: { count: 1, hours: 8 },
      Shed: { count: 0, hours: null },
      Yard: { count: 0, hours: null },
    });
    // Their filter and sort read their own values too, not the kept ones.
    const busy = (await asReader.get(`/api/${projects}?filter[chore_count_gte]=1&sort=-chore_count`)).body
      .data as Row[];
    expect(busy.map((row) => row.name)).toEqual(['Roof']);
    await expectValues({
      Roof: { count: 2, hours: 8 },
      Shed: { count: 0, hours: null },
      Yard: { count: 2, hours: 7 },
    });
    const sorted = (await admin.get(`/api/${projects}?sort=-chore_count,name`)).body.data as Row[];
    expect(sorted.map((row) => row.name)).toEqual(['Roof', 'Yard', 'Shed']);
  });

  it('read the related records’ relation as that type’s own fields read it, so its index serves each project', async () => {
    // A relation of a type made in the app is cast on that type's rows only, in its fields and in its index
    // (common/field-types/sql.ts valueExpression). A rollup reading it otherwise read every chore for each project:
    // saving one over 100,000 projects ran for minutes.
    const chore = (await t.ctx.records.fields(t.ctx.resources.get(chores)!)).project;
    expect(chore.schemaId).toBe(choreSchema);
    const relation = sql`${valueExpression(SQL, 'project', chore, 'r')}`.compile(t.ctx.db).sql;
    const spec = (await t.ctx.records.fields(t.ctx.resources.get(projects)!)).chore_count;
    const live = (await t.ctx.records.readerFields(null, { chore_count: spec }, { live: true })).chore_count;
    const rollup = sql`${live.computed!(SQL, 't')}`.compile(t.ctx.db).sql;
    expect(rollup).toContain(`${relation} = "t"."id"`);
  });
});
