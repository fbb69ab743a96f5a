/**
 * Rollup fields (issue 30, docs/records.md "Rollups"): the count, sum, least or greatest of a field over the records
 * of another type that point at a record, shown, filtered and sorted in lists, current after the related records
 * change, and counting only the related records the reader may read (the access policy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, type Row, refused } from '../support/api-answers.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let projects: string;
let chores: string;
let projectSchema: number;

const rollupField = (name: string, options: Record<string, unknown>) =>
  admin.post('/api/schema-fields', { schema_id: projectSchema, name, type: 'rollup', options });

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
        { name: 'Due', type: 'date' },
        { name: 'Note', type: 'text' },
      ],
    }),
    201,
  );
  chores = String(chore.resource);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const create = async (resource: string, body: Record<string, unknown>) =>
  ok(await admin.post(`/api/${resource}`, body), 201);

describe('rollup fields', () => {
  let first: Row;
  let second: Row;

  it('check what they roll up', async () => {
    refused(
      await rollupField('Bad type', { from: 'nothing.project', function: 'count' }),
      'options.from',
      /no record type/,
    );
    refused(
      await rollupField('Bad link', { from: 'chore.hours', function: 'count' }),
      'options.from',
      /not a relation/,
    );
    refused(
      await rollupField('No field', { from: 'chore.project', function: 'sum' }),
      'options.field',
      /Name the field/,
    );
    refused(
      await rollupField('Text sum', { from: 'chore.project', function: 'sum', field: 'note' }),
      'options.field',
      /not a number/,
    );
    refused(
      await rollupField('Bad function', { from: 'chore.project', function: 'median' }),
      'options.function',
      /one of/,
    );
    ok(await rollupField('Chore count', { from: 'chore.project', function: 'count' }), 201);
    ok(await rollupField('Hours total', { from: 'chore.project', function: 'sum', field: 'hours' }), 201);
    const latest = ok(await rollupField('Latest due', { from: 'chore.project', function: 'max', field: 'due' }), 201);
    expect((latest as any).options.result).toBe('date');
  });

  it('are worked out over the related records, current after they change', async () => {
    first = await create(projects, { name: 'Roof' });
    second = await create(projects, { name: 'Yard' });
    for (const [hours, due] of [
      [2, '2025-01-10'],
      [3, '2025-03-01'],
      [5, null],
    ] as const)
      await create(chores, { name: `Roof ${hours}`, project: first.id, hours, due });
    const yard = await create(chores, { name: 'Yard 1', project: second.id, hours: 1 });
    expect(ok(await admin.get(`/api/${projects}/${first.id}`))).toMatchObject({
      chore_count: 3,
      hours_total: 10,
      latest_due: '2025-03-01',
    });
    ok(await admin.post(`/api/${chores}/${yard.id}`, { project: first.id, updated_at: yard.updated_at }));
    expect(ok(await admin.get(`/api/${projects}/${first.id}`))).toMatchObject({ chore_count: 4, hours_total: 11 });
    expect(ok(await admin.get(`/api/${projects}/${second.id}`))).toMatchObject({
      chore_count: 0,
      hours_total: null,
      latest_due: null,
    });
  });

  it('are filtered and sorted in lists', async () => {
    await create(projects, { name: 'Shed' });
    const sorted = (await admin.get(`/api/${projects}?sort=hours_total&order=desc`)).body.data as Row[];
    // Yard's one chore moved to Roof: Yard and Shed sum nothing, last, the later id first (desc).
    expect(sorted.map((row) => row.name)).toEqual(['Roof', 'Shed', 'Yard']);
    const busy = (await admin.get(`/api/${projects}?filter[chore_count_gte]=1`)).body.data as Row[];
    expect(busy.map((row) => row.name)).toEqual(['Roof']);
    const none = (await admin.get(`/api/${projects}?filter[chore_count]=0&sort=name`)).body.data as Row[];
    expect(none.map((row) => row.name)).toEqual(['Shed', 'Yard']);
  });

  it('count only the related records the reader may read', async () => {
    const projectType = projects.replace(/s$/, '');
    const choreType = chores.replace(/s$/, '');
    ok(
      await admin.post('/api/roles', {
        slug: 'own-chores',
        name: 'Own chores',
        permissions: [`${projectType}:read`, `${choreType}:read`],
        policy: { [choreType]: { read: 'own' } },
      }),
      201,
    );
    ok(
      await admin.post('/api/roles', { slug: 'no-chores', name: 'No chores', permissions: [`${projectType}:read`] }),
      201,
    );
    const reader = await t.createUser({ role: 'own-chores', email: 'chore-reader@example.com' });
    await t.createUser({ role: 'no-chores', email: 'chore-blind@example.com' });
    await create(chores, { name: 'Theirs', project: first.id, hours: 7, user_id: reader.id });
    const asReader = await t.signIn('chore-reader@example.com');
    expect(ok(await asReader.get(`/api/${projects}/${first.id}`))).toMatchObject({ chore_count: 1, hours_total: 7 });
    const listed = (await asReader.get(`/api/${projects}?filter[hours_total_gte]=8`)).body.data as Row[];
    expect(listed).toEqual([]);
    const blind = await t.signIn('chore-blind@example.com');
    expect(ok(await blind.get(`/api/${projects}/${first.id}`))).toMatchObject({ chore_count: 0, hours_total: null });
    expect(ok(await admin.get(`/api/${projects}/${first.id}`))).toMatchObject({ chore_count: 5, hours_total: 18 });
  });

  it('count only the related records holding their condition, through the one filter compiler', async () => {
    const big = { all: [{ field: 'hours', op: 'gte', value: 3 }] };
    refused(
      await rollupField('Bad condition', {
        from: 'chore.project',
        function: 'count',
        where: { all: [{ field: 'colour', op: 'eq', value: 1 }] },
      }),
      'options.where',
      /no field "colour"/,
    );
    refused(
      await rollupField('Bad operator', {
        from: 'chore.project',
        function: 'count',
        where: { all: [{ field: 'hours', op: 'near', value: 1 }] },
      }),
      'options.where',
      /"near" is not a filter of "hours"/,
    );
    refused(
      await rollupField('Bad value', {
        from: 'chore.project',
        function: 'count',
        where: { all: [{ field: 'hours', op: 'gte', value: 'many' }] },
      }),
      'options.where',
      /must be a number/,
    );
    ok(await rollupField('Big chores', { from: 'chore.project', function: 'count', where: big }), 201);
    ok(
      await rollupField('Dated hours', {
        from: 'chore.project',
        function: 'sum',
        field: 'hours',
        where: { all: [{ field: 'due', op: 'not_empty' }] },
      }),
      201,
    );
    // Roof's chores: 2 h (due), 3 h (due), 5 h, 1 h (moved from Yard), 7 h (the reader's own).
    expect(ok(await admin.get(`/api/${projects}/${first.id}`))).toMatchObject({ big_chores: 3, dated_hours: 5 });
    const listed = (await admin.get(`/api/${projects}?filter[big_chores_gte]=1&sort=-big_chores`)).body.data as Row[];
    expect(listed.map((row) => row.name)).toEqual(['Roof']);
    const asReader = await t.signIn('chore-reader@example.com');
    expect(ok(await asReader.get(`/api/${projects}/${first.id}`))).toMatchObject({ big_chores: 1, dated_hours: null });
  });

  it('roll up the records this one points at through its own relation', async () => {
    const choreType = chores.replace(/s$/, '');
    ok(
      await admin.post('/api/schema-fields', {
        schema_id: projectSchema,
        name: 'Watched',
        type: 'relation',
        options: { target: choreType, multiple: true },
      }),
      201,
    );
    ok(
      await admin.post('/api/schema-fields', {
        schema_id: projectSchema,
        name: 'Lead chore',
        type: 'relation',
        options: { target: choreType },
      }),
      201,
    );
    refused(
      await rollupField('Both ways', { from: 'chore.project', through: 'watched', function: 'count' }),
      'options.from',
      /either/,
    );
    refused(
      await rollupField('Not a link', { through: 'name', function: 'count' }),
      'options.through',
      /not a relation/,
    );
    ok(await rollupField('Watched hours', { through: 'watched', function: 'sum', field: 'hours' }), 201);
    ok(
      await rollupField('Watched big', {
        through: 'watched',
        function: 'count',
        where: { all: [{ field: 'hours', op: 'gt', value: 2 }] },
      }),
      201,
    );
    ok(await rollupField('Lead due', { through: 'lead_chore', function: 'max', field: 'due' }), 201);
    const found = (await admin.get(`/api/${chores}?sort=name&per_page=50`)).body.data as Row[];
    const byName = Object.fromEntries(found.map((row) => [row.name, row]));
    const shed = ((await admin.get(`/api/${projects}?filter[name]=Shed`)).body.data as Row[])[0];
    ok(
      await admin.post(`/api/${projects}/${shed.id}`, {
        watched: [byName['Roof 2'].id, byName['Roof 5'].id, byName['Yard 1'].id],
        lead_chore: byName['Roof 3'].id,
        updated_at: shed.updated_at,
      }),
    );
    expect(ok(await admin.get(`/api/${projects}/${shed.id}`))).toMatchObject({
      watched_hours: 8,
      watched_big: 1,
      lead_due: '2025-03-01',
    });
    const sorted = (await admin.get(`/api/${projects}?sort=-watched_hours&filter[watched_hours_gte]=1`)).body
      .data as Row[];
    expect(sorted.map((row) => row.name)).toEqual(['Shed']);
    // The reader reads only their own chore: none of Shed's.
    const asReader = await t.signIn('chore-reader@example.com');
    expect(ok(await asReader.get(`/api/${projects}/${shed.id}`))).toMatchObject({
      watched_hours: null,
      watched_big: 0,
    });
  });

  it('refuse a change to a field of the related records they read, naming the rollup', async () => {
    const choreSchema = Number(
      ((await admin.get('/api/schemas?per_page=-1')).body.data as Row[]).find((s) => s.resource === chores)?.id,
    );
    const fields = (await admin.get(`/api/schema-fields?filter[schema_id]=${choreSchema}&per_page=-1`)).body
      .data as Row[];
    const bySlug = Object.fromEntries(fields.map((f) => [f.slug, f]));
    // The hours a sum adds up, the relation a count goes through, the date a condition names.
    for (const [slug, pattern] of [
      ['hours', /rollup “[^”]+” of Projects uses “Hours”/],
      ['project', /rollup “[^”]+” of Projects uses “Project”/],
      ['due', /rollup “[^”]+” of Projects uses “Due”/],
    ] as const) {
      const removed = await admin.delete(`/api/schema-fields/${bySlug[slug].id}`);
      expect(removed.status, `${slug}: ${JSON.stringify(removed.body)}`).toBe(422);
      expect(JSON.stringify(removed.body)).toMatch(pattern);
    }
    const retyped = await admin.post(`/api/schema-fields/${bySlug.hours.id}`, { type: 'text' });
    expect(retyped.status, JSON.stringify(retyped.body)).toBe(422);
    expect(JSON.stringify(retyped.body)).toMatch(/rollup “[^”]+” of Projects uses “Hours”/);
    // A field no rollup reads is deleted as before.
    ok(await admin.delete(`/api/schema-fields/${bySlug.note.id}`));
    expect(ok(await admin.get(`/api/${projects}/${first.id}`))).toMatchObject({ chore_count: 5, hours_total: 18 });
  });
});
