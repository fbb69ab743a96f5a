import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customFields } from '../../src/server/db/dynamic-tables.js';
import { runImport, upload } from '../fixtures/upload.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Record types are data, and the server holds their rules (docs/records.md "Changing a record type", issue 20): form
 * logic applied on every write, real dates, relations to types made in the app, and schema changes that never lose
 * or corrupt values silently (archived, remapped, or refused with what stands in the way).
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
const siteSchema = async () =>
  (await admin.get('/api/schemas?per_page=-1')).body.data.find((s: any) => s.type === 'site');
const addSiteField = async (field: Record<string, unknown>) =>
  ok(await admin.post('/api/schema-fields', { schema_id: (await siteSchema()).id, ...field }), 201);
const newSite = async (values: Record<string, unknown> = {}) =>
  ok(
    await admin.post('/api/sites', {
      name: `Site ${Math.random()}`,
      type: 'union',
      latitude: 34.05,
      longitude: -118.24,
      ...values,
    }),
    201,
  );

describe('form logic, applied by the server', () => {
  let visit: any;
  const ref = (slug: string) => `field:${visit.fields.find((field: any) => field.slug === slug).id}`;
  beforeAll(async () => {
    visit = ok(
      await admin.post('/api/schemas', {
        name_singular: 'Door knock',
        name_plural: 'Door knocks',
        fields: [
          {
            name: 'Outcome',
            type: 'radios',
            options: {
              choices: [
                { value: 'home', label: 'Home' },
                { value: 'not_home', label: 'Not home' },
              ],
            },
          },
          { name: 'Workers seen', type: 'text', options: { input: 'number' } },
          { name: 'Notes', type: 'text' },
        ],
      }),
      201,
    );
    ok(
      await admin.post('/api/logic-blocks', {
        schema_id: visit.id,
        conditions: [{ source: ref('outcome'), operator: 'equals', value: 'not_home' }],
        actions: [{ target: ref('workers_seen'), action: 'set-value', value: '0' }],
      }),
      201,
    );
    ok(
      await admin.post('/api/logic-blocks', {
        schema_id: visit.id,
        conditions: [{ source: ref('outcome'), operator: 'equals', value: 'not_home' }],
        actions: [{ target: ref('notes'), action: 'hide-field' }],
        // Hidden is not erased unless the rule says so (tests/api/hidden-fields.test.ts): this one does.
        clear_hidden: true,
      }),
      201,
    );
  });

  it('stores what a set-value action gives, not what was sent, and keeps no value a clearing rule hides', async () => {
    const made = ok(
      await admin.post('/api/door-knocks', {
        name: 'Door 1',
        outcome: 'not_home',
        workers_seen: 5,
        notes: 'gate code 1234',
      }),
      201,
    );
    expect(made.workers_seen).toBe(0);
    expect(made.notes ?? null).toBeNull();
    const row = await t.ctx.db
      .selectFrom('custom_records')
      .select('custom')
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(customFields(row.custom).workers_seen).toBe(0);
    expect(customFields(row.custom).notes ?? null).toBeNull();
  });

  it('on an update, a value a clearing rule now hides is cleared and the set value applied', async () => {
    const made = ok(
      await admin.post('/api/door-knocks', {
        name: 'Door 2',
        outcome: 'home',
        workers_seen: 5,
        notes: 'talked to the foreman',
      }),
      201,
    );
    expect(made).toMatchObject({ workers_seen: 5, notes: 'talked to the foreman' });
    const updated = ok(await admin.put(`/api/door-knocks/${made.id}`, { outcome: 'not_home' }));
    expect(updated.workers_seen).toBe(0);
    expect(updated.notes ?? null).toBeNull();
  });
});

describe('dates are real dates', () => {
  it('refuses 30 February in a custom date field and a built-in one, with a message for people', async () => {
    await addSiteField({ name: 'Inspected on', type: 'date' });
    const custom = await admin.post('/api/sites', {
      name: 'Leap site',
      type: 'union',
      latitude: 34,
      longitude: -118,
      inspected_on: '2026-02-30',
    });
    expect(custom.status).toBe(422);
    expect(custom.body.errors.inspected_on[0]).toMatch(/real date/);
    const builtIn = await admin.post('/api/sites', {
      name: 'Leap site',
      type: 'union',
      latitude: 34,
      longitude: -118,
      bid_date: '2026-02-30',
    });
    expect(builtIn.status).toBe(422);
    expect(builtIn.body.errors.bid_date[0]).toMatch(/real date/);
    expect(JSON.stringify(builtIn.body)).not.toMatch(/out of range/);
    ok(
      await admin.post('/api/sites', {
        name: 'Leap site',
        type: 'union',
        latitude: 34,
        longitude: -118,
        inspected_on: '2028-02-29',
      }),
      201,
    );
  });
});

describe('text search covers searchable custom fields', () => {
  it('finds a site by a custom text field marked searchable, and not by one that is not', async () => {
    await addSiteField({ name: 'Access code', type: 'text', options: { searchable: true } });
    await addSiteField({ name: 'Private code', type: 'text' });
    const site = await newSite({ access_code: 'ALPHA-GATE', private_code: 'BRAVO-GATE' });
    const found = (await admin.get('/api/sites?search=alpha-gate')).body;
    expect(found.data.map((s: any) => s.id)).toEqual([site.id]);
    expect((await admin.get('/api/sites?search=BRAVO-GATE')).body.meta.total).toBe(0);
    // A type made in the editor searches its searchable fields too, not only the name.
    const stops = ok(
      await admin.post('/api/schemas', {
        name_singular: 'Stop',
        name_plural: 'Stops',
        fields: [{ name: 'Landmark', type: 'text', options: { searchable: true } }],
      }),
      201,
    );
    const stop = ok(
      await admin.post(`/api/${stops.resource}`, { name: 'Stop 1', landmark: 'Behind the red silo' }),
      201,
    );
    expect((await admin.get(`/api/${stops.resource}?search=red silo`)).body.data.map((s: any) => s.id)).toEqual([
      stop.id,
    ]);
    const refused = await admin.post('/api/schema-fields', {
      schema_id: stops.id,
      name: 'Visited',
      type: 'date',
      options: { searchable: true },
    });
    expect(refused.status).toBe(422);
  });
});

describe('relations to a record type made in the app', () => {
  it('a site field may point at crews, and only ids of crews are accepted', async () => {
    const crews = ok(
      await admin.post('/api/schemas', { name_singular: 'Crew', name_plural: 'Crews', fields: [] }),
      201,
    );
    const others = ok(await admin.post('/api/schemas', { name_singular: 'Van', name_plural: 'Vans', fields: [] }), 201);
    await addSiteField({ name: 'Crew', type: 'relation', options: { target: 'crew' } });
    const crew = ok(await admin.post(`/api/${crews.resource}`, { name: 'Night crew' }), 201);
    const van = ok(await admin.post(`/api/${others.resource}`, { name: 'Blue van' }), 201);
    const site = await newSite({ crew: crew.id });
    expect(site.crew).toBe(crew.id);
    const wrong = await admin.put(`/api/sites/${site.id}`, { crew: van.id });
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.errors)).toEqual(['crew']);
  });
});

describe('imports into a record type made in the app', () => {
  it('an importer targets the type, and its relation column finds sites by name', async () => {
    const deliveries = ok(
      await admin.post('/api/schemas', {
        name_singular: 'Delivery',
        name_plural: 'Deliveries',
        fields: [
          { name: 'Site', type: 'relation', options: { target: 'site' } },
          { name: 'Pallets', type: 'text', options: { input: 'number' } },
        ],
      }),
      201,
    );
    const site = await newSite({ name: 'Riverside Tower' });
    const targets = ok(await admin.get('/api/importers/targets?record_type=delivery'));
    expect(targets.delivery.targets.map((target: any) => target.key)).toEqual(
      expect.arrayContaining(['custom.name', 'custom.site', 'custom.pallets']),
    );
    const importer = ok(
      await admin.post('/api/importers', {
        name: 'Deliveries',
        record_type: 'delivery',
        key_target: 'custom.name',
        create_related: false,
        columns: [
          { header: 'Ref', target: 'custom.name' },
          { header: 'Site', target: 'custom.site' },
          { header: 'Pallets', target: 'custom.pallets' },
        ],
      }),
      201,
    );
    const content = `Ref,Site,Pallets\nD-1,riverside tower ,12\nD-2,${site.id},3\nD-3,Nowhere Plaza,1\n`;
    // The preview finds the site by its name as the import does.
    const preview = await upload(t, admin, '/api/imports/preview', { importer_id: importer.id }, [
      { name: 'deliveries.csv', content },
    ]);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data.rows.map((row: any) => row.errors)).toEqual([
      [],
      [],
      ['site: no record is named “Nowhere Plaza”.'],
    ]);
    const result = await runImport(t, admin, importer.id, [{ name: 'deliveries.csv', content }]);
    expect(result).toMatchObject({ status: 'complete', created_count: 2, failed_count: 1 });
    const rows = (await admin.get(`/api/${deliveries.resource}?sort=name&order=asc`)).body.data;
    expect(rows.map((r: any) => [r.name, r.site, r.pallets])).toEqual([
      ['D-1', site.id, 12],
      ['D-2', site.id, 3],
    ]);
    const failures = (await admin.get(`/api/imports/${result.id}/failures`)).body.data ?? [];
    expect(JSON.stringify(failures)).toMatch(/no record is named “Nowhere Plaza”/);
  });

  it('an importer of a type that does not exist is refused', async () => {
    const res = await admin.post('/api/importers', { name: 'Ghosts', record_type: 'ghost', columns: [] });
    expect(res.status).toBe(422);
    expect(res.body.errors.record_type[0]).toMatch(/must be one of: site, contractor, member/);
  });
});

describe('deleting a field', () => {
  it('archives its values: a new field of the same slug starts empty and the record stays editable', async () => {
    const field = await addSiteField({ name: 'Gate code', type: 'text' });
    const site = await newSite({ gate_code: 'CHARLIE-GATE' });
    const impact = ok(await admin.get(`/api/schema-fields/${field.id}/impact`));
    expect(impact.records).toEqual({ live: 1, trashed: 0 });
    ok(await admin.delete(`/api/schema-fields/${field.id}`));
    const archived = await t.ctx.db
      .selectFrom('field_value_archive')
      .select(['record_id', 'value'])
      .where('field_slug', '=', 'gate_code')
      .execute();
    expect(archived).toEqual([{ record_id: site.id, value: 'CHARLIE-GATE' }]);

    await addSiteField({ name: 'Gate code', type: 'date' });
    const read = ok(await admin.get(`/api/sites/${site.id}`));
    expect(read.gate_code ?? null).toBeNull();
    ok(await admin.put(`/api/sites/${site.id}`, { name: 'Edited after the retype' }));
    expect((await admin.get('/api/sites?search=CHARLIE-GATE')).body.meta.total).toBe(0);
  });

  it('removes the logic blocks that read it, so their actions do not fire always', async () => {
    const schema = ok(
      await admin.post('/api/schemas', {
        name_singular: 'Check',
        name_plural: 'Checks',
        fields: [
          { name: 'Safe', type: 'radios', options: { choices: ['yes', 'no'] } },
          { name: 'Detail', type: 'text', required: true },
        ],
      }),
      201,
    );
    const id = (slug: string) => schema.fields.find((f: any) => f.slug === slug).id;
    ok(
      await admin.post('/api/logic-blocks', {
        schema_id: schema.id,
        conditions: [{ source: `field:${id('safe')}`, operator: 'equals', value: 'yes' }],
        actions: [{ target: `field:${id('detail')}`, action: 'hide-field' }],
      }),
      201,
    );
    const impact = ok(await admin.get(`/api/schema-fields/${id('safe')}/impact`));
    expect(impact.logic_blocks).toHaveLength(1);
    expect(impact.logic_blocks[0].effect).toBe('removed');
    ok(await admin.delete(`/api/schema-fields/${id('safe')}`));
    const after = ok(await admin.get(`/api/schemas/${schema.id}`));
    expect(after.actions).toHaveLength(0);
    // The detail is required again: the block that hid it is gone, not left firing always.
    const res = await admin.post(`/api/${schema.resource}`, { name: 'No detail' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('detail');
  });

  it('an importer that maps it needs attention, and its next upload is refused saying why', async () => {
    const field = await addSiteField({ name: 'Badge code', type: 'text' });
    const importer = ok(
      await admin.post('/api/importers', {
        name: 'Badges',
        record_type: 'site',
        create_related: true,
        columns: [
          { header: 'Name', target: 'site.name' },
          { header: 'Badge', target: 'custom.badge_code' },
        ],
      }),
      201,
    );
    const impact = ok(await admin.get(`/api/schema-fields/${field.id}/impact`));
    expect(impact.importers).toEqual([{ id: importer.id, name: 'Badges', uses: ['column "Badge"'] }]);
    ok(await admin.delete(`/api/schema-fields/${field.id}`));
    const shown = ok(await admin.get(`/api/importers/${importer.id}`));
    expect(shown.problems).toHaveLength(1);
    expect(shown.problems[0]).toMatch(/Badge/);
    const res = await upload(t, admin, '/api/imports', { importer_id: importer.id }, [
      { name: 'badges.csv', content: 'Name,Badge\nA site,B-1\n' },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/needs attention/);
  });
});

describe('removing a dropdown choice records hold', () => {
  it('is refused until the choice is mapped, leaves those records editable, then rewrites them with a revision', async () => {
    const choices = [
      { value: 'open', label: 'Open' },
      { value: 'locked', label: 'Locked' },
      { value: 'guarded', label: 'Guarded' },
    ];
    const field = await addSiteField({ name: 'Gate state', type: 'dropdown', options: { choices } });
    const site = await newSite({ gate_state: 'guarded' });
    const fewer = { choices: choices.slice(0, 2) };
    const preview = ok(await admin.post(`/api/schema-fields/${field.id}/impact`, { options: fewer }));
    expect(preview.choices).toEqual([{ value: 'guarded', label: 'Guarded', records: 1, in_logic: false }]);
    expect(preview.blocking).toHaveLength(1);

    const refused = await admin.put(`/api/schema-fields/${field.id}`, { options: fewer });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toMatch(/Guarded/);

    const mapped = ok(
      await admin.post(`/api/schema-fields/${field.id}/impact`, { options: fewer, choice_map: { guarded: 'locked' } }),
    );
    expect(mapped.blocking).toEqual([]);
    expect(mapped.summary.join(' ')).toMatch(/1 record holding “Guarded” becomes “Locked”/);
    ok(await admin.put(`/api/schema-fields/${field.id}`, { options: fewer, choice_map: { guarded: 'locked' } }));
    const read = ok(await admin.get(`/api/sites/${site.id}`));
    expect(read.gate_state).toBe('locked');
    const history = (await admin.get(`/api/revisions?type=site&revisionable_id=${site.id}`)).body.data;
    expect(
      history.some((r: any) => JSON.stringify(r.changes) === JSON.stringify({ gate_state: ['guarded', 'locked'] })),
    ).toBe(true);
  });

  it('a record holding a choice removed behind its back (the stored schema) stays editable', async () => {
    const choices = [
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
    ];
    const field = await addSiteField({ name: 'Zone', type: 'dropdown', options: { choices } });
    const site = await newSite({ zone: 'b' });
    // The same state a removed choice leaves when its records were not rewritten (an older server, a restored backup).
    await t.ctx.db
      .updateTable('schema_fields')
      .set({ options: JSON.stringify({ choices: choices.slice(0, 1) }) })
      .where('id', '=', field.id)
      .execute();
    const { schemaStore } = await import('../../src/server/schemas/schema-store.js');
    await schemaStore(t.ctx.db).changed();
    const edited = ok(await admin.put(`/api/sites/${site.id}`, { name: 'Still editable', zone: 'b' }));
    expect(edited.name).toBe('Still editable');
    expect(edited.zone).toBe('b');
  });
});

describe('the schema keeps its own history', () => {
  it('every field change is a revision of the schema', async () => {
    const schema = await siteSchema();
    const field = await addSiteField({ name: 'Dock count', type: 'text', options: { input: 'number' } });
    ok(await admin.put(`/api/schema-fields/${field.id}`, { name: 'Loading docks' }));
    ok(await admin.delete(`/api/schema-fields/${field.id}`));
    const history = (await admin.get(`/api/revisions?type=schema&revisionable_id=${schema.id}&per_page=100`)).body.data;
    const ofDocks = history
      .filter((r: any) => 'field:dock_count' in r.changes)
      .map((r: any) => r.changes['field:dock_count']);
    expect(ofDocks).toHaveLength(3);
    expect(ofDocks.some(([before, after]: any) => before === null && after?.name === 'Dock count')).toBe(true);
    expect(
      ofDocks.some(([before, after]: any) => before?.name === 'Dock count' && after?.name === 'Loading docks'),
    ).toBe(true);
    expect(ofDocks.some(([before, after]: any) => before?.name === 'Loading docks' && after === null)).toBe(true);
  });
});

describe('deleting a record type', () => {
  it('says when its records are in the trash and deletes them for good with it, and takes its permissions from every role', async () => {
    const crates = ok(
      await admin.post('/api/schemas', { name_singular: 'Crate', name_plural: 'Crates', fields: [] }),
      201,
    );
    const role = ok(
      await admin.post('/api/roles', { slug: 'crate-reader', name: 'Crate reader', permissions: ['crate:read'] }),
      201,
    );
    const crate = ok(await admin.post(`/api/${crates.resource}`, { name: 'Crate 1' }), 201);
    ok(await admin.delete(`/api/${crates.resource}/${crate.id}`));

    const impact = ok(await admin.get(`/api/schemas/${crates.id}/impact`));
    expect(impact.records).toEqual({ live: 0, trashed: 1 });
    expect(impact.blocking).toEqual([]);
    expect(impact.summary.join(' ')).toMatch(
      /1 record of Crates is in the trash: it is deleted for good with the type/,
    );
    expect(impact.roles.map((r: any) => r.name)).toContain('Crate reader');

    ok(await admin.delete(`/api/schemas/${crates.id}`));
    expect(
      await t.ctx.db.selectFrom('custom_records').select('id').where('schema_id', '=', crates.id).execute(),
    ).toEqual([]);
    const after = ok(await admin.get(`/api/roles/${role.id}`));
    expect(after.permissions.filter((p: string) => p.startsWith('crate:'))).toEqual([]);
    // A new type of the same name starts without the old grants.
    ok(await admin.post('/api/schemas', { name_singular: 'Crate', name_plural: 'Crates', fields: [] }), 201);
    expect(ok(await admin.get(`/api/roles/${role.id}`)).permissions).not.toContain('crate:read');
  });

  it('purges or restores its records in the trash on request', async () => {
    const boxes = ok(await admin.post('/api/schemas', { name_singular: 'Box', name_plural: 'Boxes', fields: [] }), 201);
    const made = [
      ok(await admin.post(`/api/${boxes.resource}`, { name: 'Box 1' }), 201),
      ok(await admin.post(`/api/${boxes.resource}`, { name: 'Box 2' }), 201),
    ];
    for (const box of made) ok(await admin.delete(`/api/${boxes.resource}/${box.id}`));
    expect(ok(await admin.post(`/api/schemas/${boxes.id}/restore-trash`))).toEqual({ restored: 2 });
    expect((await admin.get(`/api/${boxes.resource}`)).body.meta.total).toBe(2);
    ok(await admin.delete(`/api/${boxes.resource}/${made[0].id}`));
    expect(ok(await admin.post(`/api/schemas/${boxes.id}/purge-trash`))).toEqual({ purged: 1 });
    expect((await admin.get(`/api/${boxes.resource}`)).body.meta.total).toBe(1);
  });
});
