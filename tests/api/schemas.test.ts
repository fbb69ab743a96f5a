import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forMigration } from '../../src/server/db/migrate.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Record types as data (docs/records.md): the schema API, fields of every type saved, validated, filtered and
 * sorted, form logic applied by the server, and a record type created through the API and used end to end.
 */
let t: TestApp;
let admin: TestClient;
const events: Array<{ channels: string[]; event: string; data: any }> = [];

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const publish = t.ctx.realtime.publish.bind(t.ctx.realtime);
  t.ctx.realtime.publish = async (channels: string[], event: string, data: unknown, options?: any) => {
    events.push({ channels, event, data });
    return publish(channels, event, data, options);
  };
});
afterAll(async () => {
  await t?.close();
});

async function schemas() {
  const res = await admin.get('/api/schemas?per_page=-1');
  expect(res.status).toBe(200);
  return res.body.data as any[];
}
const schemaOf = async (type: string) => (await schemas()).find((s) => s.type === type);
const fieldOf = (schema: any, slug: string) => schema.fields.find((f: any) => f.slug === slug);

/** The plan PostgreSQL makes for `query` on these few rows when told to avoid `avoid` (a scan of the whole table unless said otherwise). */
async function planOf(query: RawBuilder<unknown>, avoid: 'enable_seqscan' | 'enable_sort' = 'enable_seqscan') {
  return t.ctx.db.transaction().execute(async (trx) => {
    await sql`select set_config(${avoid}, 'off', true)`.execute(trx);
    const plan = await sql<Record<string, string>>`explain ${query}`.execute(trx);
    return plan.rows.map((r) => Object.values(r)[0]).join('\n');
  });
}

async function createSite(values: Record<string, unknown> = {}) {
  const res = await admin.post('/api/sites', {
    name: `Site ${Math.random().toString(36).slice(2, 8)}`,
    type: 'union',
    ...values,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe('GET /api/schemas?per_page=-1', () => {
  it('lists every record type of SPEC section 3 with its fields and logic, in the documented shape', async () => {
    const list = await schemas();
    expect(list.map((s) => s.type).sort()).toEqual(
      [
        'assessment-level',
        'building-type',
        'campaign',
        'campaign-card',
        'classification',
        'classification-type',
        'contact',
        'contact-status',
        'contractor',
        'contractor-type',
        'conversation',
        'conversation-outcome',
        'dispatch-type',
        'grievance',
        'member',
        'recruit',
        'region',
        'site',
        'site-phase',
        'site-status',
        'site-type',
        'team',
        'trade',
        'union',
        'visit',
      ].sort(),
    );
    const site = list.find((s) => s.type === 'site');
    expect(site).toMatchObject({
      id: expect.any(Number),
      type: 'site',
      name_singular: 'Site',
      name_plural: 'Sites',
      resource: 'sites',
      position: expect.any(Number),
      custom: true,
      built_in: true,
    });
    for (const field of site.fields) {
      expect(Object.keys(field)).toEqual(
        expect.arrayContaining([
          'id',
          'slug',
          'name',
          'type',
          'category',
          'internal',
          'required',
          'options',
          'position',
          'column',
        ]),
      );
      expect(field.internal).toBe(field.category === 'internal');
    }
    expect(fieldOf(site, 'name')).toMatchObject({
      type: 'text',
      category: 'internal',
      internal: true,
      required: true,
      column: true,
    });
    expect(fieldOf(site, 'type').options.choices).toEqual(
      expect.arrayContaining([
        { value: 'union', label: 'Union' },
        { value: 'new-project', label: 'New Projects' },
      ]),
    );
    expect(fieldOf(site, 'general_contractor_id')).toMatchObject({
      type: 'relation',
      options: { target: 'contractor' },
    });
    expect(fieldOf(site, 'trade_ids')).toMatchObject({
      type: 'relation',
      options: { target: 'trade', multiple: true },
    });
    expect(fieldOf(site, 'prevailing_wage').type).toBe('prevailing-wage');
    expect(fieldOf(site, 'estimated_hours').type).toBe('estimated-hours');
    expect(fieldOf(site, 'dodge_report_id')).toMatchObject({ category: 'importer', internal: false, column: false });
    // A schema is custom when at least one field is not internal.
    expect(list.find((s) => s.type === 'member').custom).toBe(false);
    const grievance = list.find((s) => s.type === 'grievance');
    expect(grievance.actions).toHaveLength(1);
    expect(grievance.actions[0]).toMatchObject({
      trigger: 'always',
      conditions: [{ source: `field:${fieldOf(grievance, 'status').id}`, operator: 'equals', value: 'closed' }],
      actions: [{ target: `field:${fieldOf(grievance, 'closed_at').id}`, action: 'show-field' }],
    });
    const res = await admin.get(`/api/schemas/${site.id}`);
    expect(res.body.data).toEqual(site);
  });

  it('is readable by every seeded role (the client builds its screens from it)', async () => {
    const user = await t.createUser({ role: 'user' });
    const client = await t.signIn(user.email);
    const res = await client.get('/api/schemas?per_page=-1');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBe(25);
    expect((await client.post(`/api/schemas/${res.body.data[0].id}`, { name_plural: 'Nope' })).status).toBe(403);
  });
});

describe('updating a schema', () => {
  it('renames the type in success messages, sends the schema event, and cannot change the type or delete a built-in type', async () => {
    const site = await schemaOf('site');
    events.length = 0;
    const res = await admin.post(`/api/schemas/${site.id}`, {
      ...site,
      name_singular: 'Job Site',
      name_plural: 'Job Sites',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Schema updated successfully.');
    expect(res.body.data).toMatchObject({ name_singular: 'Job Site', fields: site.fields });
    expect(
      events.some((e) => e.event === 'App.Events.ModelSaved' && e.data.type === 'schema' && e.data.id === site.id),
    ).toBe(true);

    const created = await admin.post('/api/sites', { name: 'Renamed', type: 'union' });
    expect(created.body.message).toBe('Job Site created successfully.');
    const deleted = await admin.delete(`/api/sites/${created.body.data.id}`);
    expect(deleted.body.message).toBe('Job Site deleted successfully.');
    expect((await admin.post(`/api/sites/${created.body.data.id}/restore`)).body.message).toBe(
      'Job Site restored successfully.',
    );

    const changeType = await admin.post(`/api/schemas/${site.id}`, { type: 'place' });
    expect(changeType.status).toBe(422);
    expect(changeType.body.errors.type).toEqual(['The type of a record type cannot change.']);
    const remove = await admin.delete(`/api/schemas/${site.id}`);
    expect(remove.status).toBe(422);
    expect(remove.body.message).toMatch(/built-in record type/);
    await admin.post(`/api/schemas/${site.id}`, { name_singular: 'Site', name_plural: 'Sites' });
    expect((await admin.post('/api/sites', { name: 'Back', type: 'union' })).body.message).toBe(
      'Site created successfully.',
    );
  });

  it('reorders record types and their fields (POST /api/schemas/{id}/reorder)', async () => {
    const before = await schemas();
    const last = before[before.length - 1];
    const res = await admin.post(`/api/schemas/${last.id}/reorder`, { position: 0 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await schemas();
    expect(after[0].id).toBe(last.id);
    expect(after.map((s) => s.position)).toEqual(after.map((_, i) => i));
    expect(after.slice(1).map((s) => s.id)).toEqual(before.slice(0, -1).map((s) => s.id));

    const member = await schemaOf('member');
    const reversed = [...member.fields].reverse().map((f: any) => f.id);
    const fields = await admin.post(`/api/schemas/${member.id}/reorder`, { field_ids: reversed });
    expect(fields.status).toBe(200);
    expect(fields.body.data.fields.map((f: any) => f.id)).toEqual(reversed);
    expect((await admin.post(`/api/schemas/${member.id}/reorder`, { field_ids: [999999] })).status).toBe(422);
    expect((await admin.post(`/api/schemas/${member.id}/reorder`, {})).status).toBe(422);
  });
});

describe('schema fields: create, read, update, delete', () => {
  it('adds a custom field (event, index), refuses bad ones, and protects built-in fields', async () => {
    const contact = await schemaOf('contact');
    events.length = 0;
    const res = await admin.post('/api/schema-fields', {
      schema_id: contact.id,
      name: 'Shirt size',
      type: 'dropdown',
      options: { choices: ['S', 'M', 'L'] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const field = res.body.data;
    expect(field).toMatchObject({
      slug: 'shirt_size',
      category: 'custom',
      internal: false,
      column: false,
      required: false,
      options: {
        // Keys are slugs however the choices were typed; the labels stay as written.
        choices: [
          { value: 's', label: 'S' },
          { value: 'm', label: 'M' },
          { value: 'l', label: 'L' },
        ],
      },
    });
    expect(res.body.message).toBe('Field created successfully.');
    expect(events.map((e) => `${e.event}:${e.data.type}`)).toEqual(
      expect.arrayContaining(['App.Events.ModelSaved:schema-field', 'App.Events.ModelSaved:schema']),
    );
    const indexes = await t.ctx.db
      .selectFrom('pg_indexes' as any)
      .select('indexdef')
      .where('tablename', '=', 'contacts')
      .execute();
    expect(indexes.some((i: any) => i.indexdef.includes("'shirt_size'"))).toBe(true);
    expect((await schemaOf('contact')).fields.map((f: any) => f.slug)).toContain('shirt_size');

    expect((await admin.get(`/api/schema-fields/${field.id}`)).body.data.slug).toBe('shirt_size');
    expect((await admin.get(`/api/schema-fields?filter[schema_id]=${contact.id}&per_page=-1`)).body.data.length).toBe(
      contact.fields.length + 1,
    );

    const bad = async (body: Record<string, unknown>, key: string) => {
      const r = await admin.post('/api/schema-fields', { schema_id: contact.id, ...body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(r.body.errors), JSON.stringify(r.body)).toContain(key);
    };
    await bad({ name: 'No choices', type: 'dropdown' }, 'options.choices');
    await bad({ name: 'No target', type: 'relation' }, 'options.target');
    await bad({ name: 'Bad target', type: 'relation', options: { target: 'planets' } }, 'options.target');
    await bad({ name: 'Unknown option', type: 'text', options: { colour: 'red' } }, 'options.colour');
    await bad({ name: 'Bad max', type: 'text', options: { max: 'long' } }, 'options.max');
    await bad({ name: 'Shirt size', type: 'text' }, 'slug');
    await bad({ name: 'City', slug: 'email', type: 'text' }, 'slug');
    await bad({ name: 'Weird', type: 'hologram' }, 'type');
    await bad({ name: 'Inside', type: 'text', category: 'internal' }, 'category');
    await bad({ name: 'Bad slug', slug: 'Bad Slug', type: 'text' }, 'slug');

    const renamed = await admin.post(`/api/schema-fields/${field.id}`, {
      name: 'T-shirt size',
      required: true,
      options: { choices: ['S', 'M', 'L', 'XL'] },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'T-shirt size', required: true });
    expect((await admin.post(`/api/schema-fields/${field.id}`, { slug: 'size' })).status).toBe(422);

    const email = fieldOf(contact, 'email');
    expect((await admin.post(`/api/schema-fields/${email.id}`, { name: 'E-mail address' })).body.data.name).toBe(
      'E-mail address',
    );
    expect((await admin.post(`/api/schema-fields/${email.id}`, { type: 'text' })).status).toBe(422);
    expect((await admin.delete(`/api/schema-fields/${email.id}`)).status).toBe(422);

    const removed = await admin.delete(`/api/schema-fields/${field.id}`);
    expect(removed.status).toBe(200);
    expect((await schemaOf('contact')).fields.map((f: any) => f.slug)).not.toContain('shirt_size');
  });

  it('needs the schema-field permissions', async () => {
    const user = await t.createUser({ role: 'leader' });
    const client = await t.signIn(user.email);
    const contact = await schemaOf('contact');
    expect((await client.post('/api/schema-fields', { schema_id: contact.id, name: 'X', type: 'text' })).status).toBe(
      403,
    );
  });
});

describe('a custom field of each type is saved, validated, filtered and sorted', () => {
  const cases: Array<{
    name: string;
    type: string;
    options?: Record<string, unknown>;
    good: [unknown, unknown];
    expected?: [unknown, unknown];
    bad: unknown;
    filter: string;
    sortable?: boolean;
  }> = [
    { name: 'Cf text', type: 'text', good: ['alpha', 'beta'], bad: { no: 1 }, filter: 'ALPHA' },
    { name: 'Cf textarea', type: 'textarea', good: ['first\nline', 'second'], bad: 12, filter: 'second' },
    { name: 'Cf note', type: 'note', good: ['a note', 'b note'], bad: ['x'], filter: 'a note' },
    { name: 'Cf slug', type: 'slug', good: ['alpha-one', 'beta-two'], bad: 'Not A Slug', filter: 'beta-two' },
    {
      name: 'Cf email',
      type: 'email',
      good: ['a@example.com', 'b@example.com'],
      bad: 'not-an-email',
      filter: 'b@example.com',
    },
    {
      name: 'Cf phone',
      type: 'phone',
      good: ['(213) 555-0100', '(213) 555-0199'],
      bad: 'call me maybe',
      filter: '(213) 555-0100',
    },
    {
      name: 'Cf link',
      type: 'link',
      good: ['https://a.example.com', 'https://b.example.com'],
      bad: 'ftp://x',
      filter: 'https://b.example.com',
    },
    {
      name: 'Cf social',
      type: 'social-link',
      good: ['https://twitter.com/a', 'https://twitter.com/b'],
      bad: 'twitter',
      filter: 'https://twitter.com/a',
    },
    { name: 'Cf date', type: 'date', good: ['2026-01-05', '2026-03-01'], bad: '2026-13-45', filter: '2026-03-01' },
    {
      name: 'Cf datetime',
      type: 'datetime',
      good: ['2026-01-05T10:00:00Z', '2026-03-01T08:30:00Z'],
      expected: ['2026-01-05T10:00:00.000Z', '2026-03-01T08:30:00.000Z'],
      bad: 'yesterday',
      filter: '2026-01-05T10:00:00.000Z',
    },
    { name: 'Cf boolean', type: 'boolean', good: [false, true], bad: 'perhaps', filter: 'true' },
    { name: 'Cf wage', type: 'prevailing-wage', good: [false, true], bad: 'sometimes', filter: 'false' },
    { name: 'Cf hours', type: 'estimated-hours', good: [10.5, 200], bad: -3, filter: '200' },
    {
      name: 'Cf dropdown',
      type: 'dropdown',
      options: { choices: ['low', 'high'] },
      good: ['high', 'low'],
      bad: 'medium',
      filter: 'low',
    },
    {
      name: 'Cf multi',
      type: 'dropdown',
      options: { choices: ['red', 'green', 'blue'], multiple: true },
      good: [['red'], ['green', 'blue']],
      bad: ['purple'],
      filter: 'blue',
      sortable: false,
    },
    {
      name: 'Cf radios',
      type: 'radios',
      options: { choices: ['yes', 'no'], orientation: 'horizontal' },
      good: ['no', 'yes'],
      bad: 'maybe',
      filter: 'yes',
    },
    { name: 'Cf color', type: 'color', good: ['#112233', '#aabbcc'], bad: 'red', filter: '#112233' },
    {
      name: 'Cf addresses',
      type: 'addresses',
      good: [
        [{ street: '1 Main St', city: 'Fresno' }],
        [{ street: '9 Elm', city: 'Oakland', latitude: 37.8, longitude: -122.27 }],
      ],
      bad: [{ planet: 'Mars' }],
      filter: '',
      sortable: false,
    },
    {
      name: 'Cf city',
      type: 'relation',
      options: { target: 'site-city' },
      good: ['Fresno', 'Oakland'],
      bad: { city: 1 },
      filter: 'Oakland',
    },
  ];

  let ids: number[] = [];
  const slugs = new Map<string, string>();
  beforeAll(async () => {
    const site = await schemaOf('site');
    for (const c of cases) {
      const res = await admin.post('/api/schema-fields', {
        schema_id: site.id,
        name: c.name,
        type: c.type,
        options: c.options,
      });
      expect(res.status, `${c.name}: ${JSON.stringify(res.body)}`).toBe(201);
      slugs.set(c.name, res.body.data.slug);
    }
    const first = await createSite(Object.fromEntries(cases.map((c) => [slugs.get(c.name), c.good[0]])));
    const second = await createSite(Object.fromEntries(cases.map((c) => [slugs.get(c.name), c.good[1]])));
    ids = [first.id, second.id];
  });

  it.each(cases)('$type ($name)', async (c) => {
    const slug = slugs.get(c.name)!;
    const expected = c.expected ?? c.good;
    for (const [i, id] of ids.entries()) {
      const shown = await admin.get(`/api/sites/${id}`);
      expect(shown.body.data[slug]).toEqual(expected[i]);
    }
    const bad = await admin.post(`/api/sites/${ids[0]}`, { [slug]: c.bad });
    expect(bad.status, JSON.stringify(bad.body)).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual([slug]);

    const idFilter = `filter[id][]=${ids[0]}&filter[id][]=${ids[1]}`;
    if (c.filter !== '') {
      const res = await admin.get(`/api/sites?${idFilter}&filter[${slug}]=${encodeURIComponent(c.filter)}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const match = expected.findIndex((value) =>
        Array.isArray(value) ? value.includes(c.filter) : String(value).toLowerCase() === c.filter.toLowerCase(),
      );
      expect(res.body.data.map((r: any) => r.id)).toEqual([ids[match]]);
    }
    if (c.sortable !== false) {
      const asc = await admin.get(`/api/sites?${idFilter}&sort=${slug}&order=asc`);
      const desc = await admin.get(`/api/sites?${idFilter}&sort=${slug}&order=desc`);
      expect(asc.status, JSON.stringify(asc.body)).toBe(200);
      expect(asc.body.data.map((r: any) => r.id)).toEqual([...desc.body.data.map((r: any) => r.id)].reverse());
    }
  });

  it('relations to records point at rows that exist; attachments are document ids', async () => {
    const site = await schemaOf('site');
    const targets = [
      'site',
      'contractor',
      'member',
      'grievance',
      'contact',
      'trade',
      'union',
      'classification',
      'region',
    ];
    const trade = (await admin.get('/api/trades?per_page=1')).body.data[0];
    for (const target of targets) {
      const res = await admin.post('/api/schema-fields', {
        schema_id: site.id,
        name: `Rel ${target}`,
        type: 'relation',
        options: { target },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const slug = res.body.data.slug;
      const missing = await admin.post(`/api/sites/${ids[0]}`, { [slug]: 999_999 });
      expect(missing.status).toBe(422);
      expect(missing.body.errors[slug][0]).toMatch(/does not exist/);
    }
    const many = await admin.post('/api/schema-fields', {
      schema_id: site.id,
      name: 'Rel trades',
      type: 'relation',
      options: { target: 'trade', multiple: true },
    });
    const slug = many.body.data.slug;
    const saved = await admin.post(`/api/sites/${ids[0]}`, { [slug]: [trade.id] });
    expect(saved.status).toBe(200);
    expect(saved.body.data[slug]).toEqual([trade.id]);
    const filtered = await admin.get(`/api/sites?filter[${slug}]=${trade.id}`);
    expect(filtered.body.data.map((r: any) => r.id)).toEqual([ids[0]]);

    const attachment = await admin.post('/api/schema-fields', {
      schema_id: site.id,
      name: 'Photos',
      type: 'attachment',
    });
    const photos = attachment.body.data.slug;
    expect((await admin.post(`/api/sites/${ids[0]}`, { [photos]: [424242] })).status).toBe(422);
  });

  it('a filter on a custom field uses its expression index', async () => {
    const slug = slugs.get('Cf hours')!;
    await t.ctx.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const plan = await sql<{
        'QUERY PLAN': string;
      }>`explain select id from sites t where ((t.custom ->> ${sql.lit(slug)}))::numeric = 200`.execute(trx);
      expect(plan.rows.map((r) => Object.values(r)[0]).join('\n')).toMatch(/Index/);
    });
  });

  it("counts a filter on a custom field's live records from its index: deleted_at is in the index, not read from each row", async () => {
    const slug = slugs.get('Cf hours')!;
    const plan = await planOf(
      sql`select count(*) from sites t where t.deleted_at is null and ((t.custom ->> ${sql.lit(slug)}))::numeric = 3`,
    );
    expect(plan).toMatch(/Index Cond: .*deleted_at IS NULL/);
    expect(plan).not.toMatch(/Filter:/);
  });

  it("counts a dropdown's choice from that choice's index alone", async () => {
    const slug = slugs.get('Cf dropdown')!;
    const plan = await planOf(
      sql`select count(*) from sites t where t.deleted_at is null and (t.custom ->> ${sql.lit(slug)}) = 'low'`,
    );
    expect(plan).toMatch(/Index Only Scan using sites_cf_.*_is_/);
    expect(plan).not.toMatch(/Filter:/);
  });

  it('a list filtered on a custom field and sorted by name reads the name order from an index instead of sorting', async () => {
    const slug = slugs.get('Cf dropdown')!;
    const plan = await planOf(
      sql`select t.* from sites t where t.deleted_at is null and (t.custom ->> ${sql.lit(slug)}) = 'low' order by lower((t.name)::text) asc nulls last, t.id asc limit 25 offset 50`,
      'enable_sort',
    );
    expect(plan).toMatch(/Index Scan using sites_sort_/);
    expect(plan).not.toMatch(/Sort Key/);
  });

  it('an index of the earlier shape (without deleted_at) is dropped by migration 007 and made again at start-up', async () => {
    const { up } = await import('../../src/server/db/migrations/007_custom_field_indexes.js');
    const { ensureAllCustomFieldIndexes } = await import('../../src/server/schemas/indexes.js');
    const slug = slugs.get('Cf hours')!;
    const definition = async () => {
      const rows = await t.ctx.db
        .selectFrom('pg_indexes' as any)
        .select(['indexname', 'indexdef'])
        .where('tablename', '=', 'sites')
        .execute();
      // The field's filter index (its sort index, `..._sort_...`, holds the same expression).
      return rows.find((i: any) => i.indexdef.includes(`'${slug}'`) && !i.indexname.includes('_sort_')) as
        | { indexname: string; indexdef: string }
        | undefined;
    };
    const index = (await definition())!;
    expect(index.indexdef).toMatch(/deleted_at\)$/);
    await sql`drop index ${sql.id(index.indexname)}`.execute(t.ctx.db);
    await sql`create index ${sql.id(index.indexname)} on sites ((((custom ->> ${sql.lit(slug)}))::numeric))`.execute(
      t.ctx.db,
    );
    await up(forMigration(t.ctx.db));
    expect(await definition()).toBeUndefined();
    await ensureAllCustomFieldIndexes(t.ctx.db);
    expect(await definition()).toEqual(index);
  });

  it('GIN indexes (searches, custom values) keep a short pending list: the embedded database never vacuums it away', async () => {
    const gin = await sql<{ name: string; options: string[] | null }>`
      select c.relname as name, c.reloptions as options from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam
      where a.amname = 'gin' and i.indrelid in ('sites'::regclass, 'custom_records'::regclass)`.execute(t.ctx.db);
    expect(gin.rows.map((r) => r.name)).toEqual(
      expect.arrayContaining(['sites_custom_idx', 'custom_records_custom_idx', 'custom_records_search_trgm']),
    );
    expect(gin.rows.filter((r) => r.name.startsWith('sites_search_'))).toHaveLength(1);
    for (const row of gin.rows) expect(row.options, row.name).toContain('gin_pending_list_limit=256');
  });
});

describe('form logic on the server', () => {
  it('a field hidden by the logic is never required; shown, it is', async () => {
    const grievance = await schemaOf('grievance');
    const field = await admin.post('/api/schema-fields', {
      schema_id: grievance.id,
      name: 'Resolution',
      type: 'textarea',
      required: true,
    });
    expect(field.status).toBe(201);
    const status = fieldOf(grievance, 'status');
    const block = await admin.post('/api/logic-blocks', {
      schema_id: grievance.id,
      description: 'Resolution only once closed',
      trigger: 'on-change',
      conditions: [{ source: `field:${status.id}`, operator: 'not-equals', value: 'closed' }],
      actions: [{ target: `field:${field.body.data.id}`, action: 'hide-field' }],
    });
    expect(block.status, JSON.stringify(block.body)).toBe(201);
    expect(block.body.data.conditions).toHaveLength(1);
    expect((await schemaOf('grievance')).actions.map((a: any) => a.id)).toContain(block.body.data.id);

    const open = await admin.post('/api/grievances', { title: 'Open one', status: 'open' });
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    const closed = await admin.post('/api/grievances', { title: 'Closed one', status: 'closed' });
    expect(closed.status).toBe(422);
    expect(closed.body.errors).toEqual({ resolution: ['The resolution field is required.'] });
    expect(
      (await admin.post('/api/grievances', { title: 'Closed two', status: 'closed', resolution: 'Back pay' })).status,
    ).toBe(201);
    // Closing an open one without a resolution is refused too: the server checks the values after the change.
    const closing = await admin.post(`/api/grievances/${open.body.data.id}`, { status: 'closed', resolution: '' });
    expect(closing.status).toBe(422);
  });
});

describe('logic blocks, conditions and actions: create, read, update, delete', () => {
  it('keeps field references to field:{id} of the same type, and refuses circular blocks', async () => {
    const contractor = await schemaOf('contractor');
    const site = await schemaOf('site');
    const type = fieldOf(contractor, 'type');
    const phone = fieldOf(contractor, 'phone');
    const email = fieldOf(contractor, 'email');
    const block = await admin.post('/api/logic-blocks', {
      schema_id: contractor.id,
      description: 'Phone for unions',
      trigger: 'on-load',
    });
    expect(block.status, JSON.stringify(block.body)).toBe(201);
    expect(block.body.data).toMatchObject({ trigger: 'on-load', conditions: [], actions: [] });
    const id = block.body.data.id;

    const badSource = await admin.post('/api/logic-conditions', {
      logic_block_id: id,
      source: 'type',
      operator: 'equals',
      value: 'union',
    });
    expect(badSource.status).toBe(422);
    expect(badSource.body.errors).toEqual({ source: ['Invalid source type'] });
    const foreign = await admin.post('/api/logic-conditions', {
      logic_block_id: id,
      source: `field:${fieldOf(site, 'name').id}`,
      operator: 'equals',
      value: 'x',
    });
    expect(foreign.status).toBe(422);
    const badOperator = await admin.post('/api/logic-conditions', {
      logic_block_id: id,
      source: `field:${type.id}`,
      operator: 'resembles',
      value: 'x',
    });
    expect(badOperator.status).toBe(422);
    const condition = await admin.post('/api/logic-conditions', {
      logic_block_id: id,
      source: `field:${type.id}`,
      operator: 'starts-with',
      value: 'uni',
    });
    expect(condition.status, JSON.stringify(condition.body)).toBe(201);

    const badTarget = await admin.post('/api/logic-actions', {
      logic_block_id: id,
      target: 'user:3',
      action: 'hide-field',
    });
    expect(badTarget.status).toBe(422);
    expect(badTarget.body.errors).toEqual({ target: ['Invalid target type'] });
    const circular = await admin.post('/api/logic-actions', {
      logic_block_id: id,
      target: `field:${type.id}`,
      action: 'set-value',
      value: 'none',
    });
    expect(circular.status).toBe(422);
    const action = await admin.post('/api/logic-actions', {
      logic_block_id: id,
      target: `field:${phone.id}`,
      action: 'set-value',
      value: '(000) 000-0000',
    });
    expect(action.status, JSON.stringify(action.body)).toBe(201);
    expect(action.body.data.value).toBe('(000) 000-0000');

    const shown = (await admin.get(`/api/logic-blocks/${id}`)).body.data;
    expect(shown.conditions.map((c: any) => c.id)).toEqual([condition.body.data.id]);
    expect(shown.actions.map((a: any) => a.id)).toEqual([action.body.data.id]);

    expect(
      (await admin.post(`/api/logic-conditions/${condition.body.data.id}`, { operator: 'ends-with', value: 'ion' }))
        .body.data.operator,
    ).toBe('ends-with');
    expect(
      (
        await admin.post(`/api/logic-actions/${action.body.data.id}`, {
          target: `field:${email.id}`,
          action: 'hide-field',
        })
      ).body.data.action,
    ).toBe('hide-field');

    const nested = await admin.post(`/api/logic-blocks/${id}`, {
      conditions: [{ source: 'field:abc', operator: 'equals', value: '' }],
      actions: [{ target: 'phone', action: 'show-field' }],
    });
    expect(nested.status).toBe(422);
    expect(nested.body.errors).toEqual({
      'conditions.0.source': ['Invalid source type'],
      'actions.0.target': ['Invalid target type'],
    });
    const replaced = await admin.post(`/api/logic-blocks/${id}`, {
      trigger: 'always',
      conditions: [{ source: `field:${type.id}`, operator: 'contains', value: 'union' }],
      actions: [{ target: `field:${email.id}`, action: 'show-field' }],
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.data.conditions).toHaveLength(1);
    expect(replaced.body.data.actions).toMatchObject([{ action: 'show-field', target: `field:${email.id}` }]);

    expect((await admin.delete(`/api/logic-conditions/${replaced.body.data.conditions[0].id}`)).status).toBe(200);
    expect((await admin.delete(`/api/logic-actions/${replaced.body.data.actions[0].id}`)).status).toBe(200);
    expect((await admin.delete(`/api/logic-blocks/${id}`)).status).toBe(200);
    expect((await schemaOf('contractor')).actions.map((a: any) => a.id)).not.toContain(id);
  });
});

describe('a new record type created through the API', () => {
  it('is served at /api/{resource} at once and works end to end', async () => {
    const created = await admin.post('/api/schemas', {
      name_singular: 'Vehicle',
      name_plural: 'Vehicles',
      fields: [
        { name: 'Plate', type: 'text', required: true },
        { name: 'Fuel', type: 'dropdown', options: { choices: ['diesel', 'electric'] } },
        { name: 'Seats', type: 'estimated-hours' },
        { name: 'Driver', type: 'relation', options: { target: 'member' } },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const schema = created.body.data;
    expect(schema).toMatchObject({ type: 'vehicle', resource: 'vehicles', built_in: false, custom: true });
    expect(schema.fields.map((f: any) => [f.slug, f.category, f.column])).toEqual([
      ['name', 'internal', true],
      ['plate', 'custom', false],
      ['fuel', 'custom', false],
      ['seats', 'custom', false],
      ['driver', 'custom', false],
    ]);
    expect((await schemas()).map((s) => s.type)).toContain('vehicle');
    expect((await admin.post('/api/schemas', { name_singular: 'Vehicle', name_plural: 'Vehicles' })).status).toBe(422);
    expect((await admin.post('/api/schemas', { name_singular: 'Site', name_plural: 'Sites' })).status).toBe(422);
    expect((await admin.post('/api/schemas', { name_singular: 'Note', name_plural: 'Notes' })).status).toBe(422);

    // The administrator (super) was given the new type's permissions; the session sees them on the next request.
    const none = await admin.get('/api/vehicles');
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body).toEqual({
      data: [],
      meta: { current_page: 1, from: null, to: null, per_page: 25, total: 0, last_page: 1 },
    });

    const missing = await admin.post('/api/vehicles', { name: 'Van' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ plate: ['The plate field is required.'] });
    const badFuel = await admin.post('/api/vehicles', { name: 'Van', plate: 'X1', fuel: 'steam' });
    expect(Object.keys(badFuel.body.errors)).toEqual(['fuel']);

    const van = await admin.post('/api/vehicles', { name: 'Van', plate: '7ABC123', fuel: 'diesel', seats: 8 });
    expect(van.status, JSON.stringify(van.body)).toBe(201);
    expect(van.body.message).toBe('Vehicle created successfully.');
    expect(van.body.data).toMatchObject({ name: 'Van', plate: '7ABC123', fuel: 'diesel', seats: 8, attachments: [] });
    expect(van.body.data).not.toHaveProperty('schema_id');
    const bus = await admin.post('/api/vehicles', { name: 'Bus', plate: '9XYZ999', fuel: 'electric', seats: 40 });
    const id = van.body.data.id;

    expect((await admin.get(`/api/vehicles/${id}`)).body.data.plate).toBe('7ABC123');
    expect((await admin.get('/api/vehicles?filter[fuel]=electric')).body.data.map((v: any) => v.name)).toEqual(['Bus']);
    expect((await admin.get('/api/vehicles?sort=seats&order=desc')).body.data.map((v: any) => v.name)).toEqual([
      'Bus',
      'Van',
    ]);
    expect((await admin.get('/api/vehicles?search=va')).body.data.map((v: any) => v.name)).toEqual(['Van']);
    expect((await admin.get('/api/options/vehicles')).body.data).toEqual([
      { id: bus.body.data.id, name: 'Bus' },
      { id, name: 'Van' },
    ]);
    // Other types' rows in the shared table never show up here.
    expect((await admin.get('/api/sites?per_page=1')).status).toBe(200);

    const stale = van.body.data.updated_at;
    const updated = await admin.post(`/api/vehicles/${id}`, { seats: 9, updated_at: stale });
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe('Vehicle updated successfully.');
    const conflict = await admin.post(`/api/vehicles/${id}`, { seats: 10, updated_at: stale });
    expect(conflict.status).toBe(409);

    // A field added later works at once.
    const color = await admin.post('/api/schema-fields', { schema_id: schema.id, name: 'Paint', type: 'color' });
    expect(color.status).toBe(201);
    expect((await admin.post(`/api/vehicles/${id}`, { paint: '#ff0000' })).body.data.paint).toBe('#ff0000');
    const indexes = await t.ctx.db
      .selectFrom('pg_indexes' as any)
      .select('indexdef')
      .where('tablename', '=', 'custom_records')
      .execute();
    expect(indexes.some((i: any) => i.indexdef.includes("'paint'") && i.indexdef.includes('schema_id'))).toBe(true);
    // Lists of every app-made type, by name without case (their default order): one index led by schema_id.
    expect(
      indexes.some((i: any) => /\(schema_id, lower\(name\), id\) WHERE \(deleted_at IS NULL\)/.test(i.indexdef)),
    ).toBe(true);

    expect((await admin.delete(`/api/vehicles/${id}`)).body.message).toBe('Vehicle deleted successfully.');
    expect((await admin.get(`/api/vehicles/${id}`)).status).toBe(404);
    expect((await admin.get('/api/vehicles?only_trashed=1')).body.data.map((v: any) => v.id)).toEqual([id]);
    expect((await admin.post(`/api/vehicles/${id}/restore`)).body.message).toBe('Vehicle restored successfully.');

    const history = await admin.get(`/api/revisions?type=vehicle&revisionable_id=${id}`);
    expect(history.body.data.map((r: any) => r.action)).toEqual([
      'restored',
      'deleted',
      'updated',
      'updated',
      'created',
    ]);

    // Others need the permissions an administrator gives their role.
    const user = await t.createUser({ role: 'user' });
    const organizer = await t.signIn(user.email);
    expect((await organizer.get('/api/vehicles')).status).toBe(403);
    expect((await t.client().get('/api/vehicles')).status).toBe(401);
    const roleId = await t.roleId('user');
    const role = (await admin.get(`/api/roles/${roleId}`)).body.data;
    await admin.post(`/api/roles/${roleId}`, { permissions: [...role.permissions, 'vehicle:read'] });
    expect((await organizer.get('/api/vehicles')).body.data.length).toBe(2);
    expect((await organizer.post('/api/vehicles', { name: 'Car', plate: 'C' })).status).toBe(403);

    // A type with records cannot be deleted; once empty it can, and its path is gone.
    expect((await admin.delete(`/api/schemas/${schema.id}`)).status).toBe(422);
    await admin.delete(`/api/vehicles/${id}`);
    await admin.delete(`/api/vehicles/${bus.body.data.id}`);
    expect((await admin.delete(`/api/schemas/${schema.id}`)).status).toBe(200);
    const gone = await admin.get('/api/vehicles');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: 'No route for GET /api/vehicles.' });
  });
});

describe('what GET /api/schemas tells the client about each record type', () => {
  it('its resource (the URL segment of its records) and whether its deleted records restore', async () => {
    const list = await schemas();
    expect(Object.fromEntries(list.map((s) => [s.type, s.resource]))).toMatchObject({
      site: 'sites',
      contractor: 'contractors',
      trade: 'trades',
      'site-status': 'site-statuses',
      'contact-status': 'contact-statuses',
      'classification-type': 'classification-types',
      team: 'teams',
      region: 'regions',
    });
    for (const schema of list) {
      expect(schema.restorable, schema.type).toBe(true);
      expect((await admin.get(`/api/${schema.resource}?per_page=1`)).status, schema.type).toBe(200);
    }
    // Restorable means POST /api/{resource}/{id}/restore brings a deleted record back.
    const trade = (await admin.post('/api/trades', { name: 'Restorable craft' })).body.data;
    await admin.delete(`/api/trades/${trade.id}`);
    expect((await admin.post(`/api/trades/${trade.id}/restore`)).status).toBe(200);

    // A type made in the app: its resource is the plural of its type, and it restores.
    const created = await admin.post('/api/schemas', { name_singular: 'Toolbox', name_plural: 'Toolboxes' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({
      type: 'toolbox',
      resource: 'toolboxes',
      restorable: true,
      built_in: false,
    });
    expect(await schemaOf('toolbox')).toMatchObject({ resource: 'toolboxes', restorable: true });
    expect((await admin.delete(`/api/schemas/${created.body.data.id}`)).status).toBe(200);
  });

  it('the relation targets: the ones the client derives from the list are the ones a field may point at', async () => {
    const { relationTargets } = await import('../../src/common/schema-types.js');
    const targets = relationTargets(await schemas());
    expect(targets).toMatchObject({
      site: { resource: 'sites', options: 'sites', value: 'id' },
      'site-status': { resource: 'site-statuses', value: 'id' },
      user: { resource: 'users', value: 'id' },
      tag: { resource: 'tags', value: 'id' },
      'site-city': { type: 'site', resource: 'sites', options: 'site-cities', value: 'text', label: 'Site city' },
    });
    const site = await schemaOf('site');
    const refused = await admin.post('/api/schema-fields', {
      schema_id: site.id,
      name: 'Nowhere',
      type: 'relation',
      options: { target: 'nowhere' },
    });
    expect(refused.status).toBe(422);
    const offered = /one of: (.*)\.$/.exec(refused.body.errors['options.target'][0])?.[1].split(', ');
    expect(offered?.sort()).toEqual(Object.keys(targets).sort());
    // Each text target's options list answers.
    for (const info of Object.values(targets).filter((target) => target.value === 'text')) {
      expect((await admin.get(`/api/options/${info.options}`)).status, info.options).toBe(200);
    }
  });
});
