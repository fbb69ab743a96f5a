/**
 * Schema changes that cannot corrupt data (docs/records.md "Changing a record type", issue 30): a counted preview and
 * one transaction for a change to a field holding values, the values read back afterwards. A relation pointed at
 * another target keeps no id as another type's (refused until its values are archived or emptied); single -> multiple
 * wraps each value; multiple -> single keeps the first and archives the rest; choice keys are slugs (old label keys
 * migrated); a rule comparing with a value no choice has is refused; a remap warns about records it leaves failing a
 * rule; archived values are listed for the record and put back from there.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forMigration } from '../../src/server/db/migrate.js';
import { up as migrateChoiceKeys } from '../../src/server/db/migrations/040_choice_keys_and_archive_restore.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;

interface Row {
  id: number;
  [key: string]: unknown;
}
interface Answer {
  status: number;
  body: { data?: unknown; errors?: Record<string, string[]>; message?: string };
}
const ok = <T = Row>(res: Answer, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.data as T;
};
const refused = (res: Answer, key: string, message: RegExp) => {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.errors?.[key]?.join(' '), JSON.stringify(res.body)).toMatch(message);
};

interface Schema {
  id: number;
  type: string;
  resource: string;
  fields: Array<{ id: number; slug: string; options: Record<string, unknown> }>;
}
let schema: Schema;
const fieldOf = (slug: string) => schema.fields.find((field) => field.slug === slug)!;
const reload = async () => {
  schema = ok<Schema>(await admin.get(`/api/schemas/${schema.id}`));
};
const records = async () =>
  ok<Row[]>(await admin.get(`/api/${schema.resource}?sort=name&order=asc&per_page=100`)).map((row) => row);
const impact = (slug: string, change: Record<string, unknown>) =>
  admin.post(`/api/schema-fields/${fieldOf(slug).id}/impact`, change);
const change = (slug: string, body: Record<string, unknown>) =>
  admin.post(`/api/schema-fields/${fieldOf(slug).id}`, body);
const archived = async (id: number) =>
  ok<Array<{ id: number; field: { slug: string }; value: unknown; reason: string; restorable: boolean }>>(
    await admin.get(`/api/archived-values?type=${schema.type}&record_id=${id}`),
  );

let sites: number[];
let contractors: number[];

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  sites = [];
  for (const name of ['Harbor Tower', 'Bay Yard', 'Pier Lot'])
    sites.push(ok(await admin.post('/api/sites', { name, type: 'union' }), 201).id);
  contractors = [];
  for (const name of ['Apex Builders', 'Delta Electric'])
    contractors.push(ok(await admin.post('/api/contractors', { name, type: 'union' }), 201).id);
  schema = ok<Schema>(
    await admin.post('/api/schemas', {
      name_singular: 'Safety inspection',
      name_plural: 'Safety inspections',
      fields: [
        { name: 'Site', type: 'relation', options: { target: 'site' } },
        { name: 'Crews', type: 'relation', options: { target: 'contractor', multiple: true } },
        {
          name: 'Hazards',
          type: 'dropdown',
          options: { choices: ['Noise', 'Dust', 'Falls'], multiple: true },
        },
        {
          name: 'Result',
          type: 'radios',
          options: { choices: ['Pass', 'Fail', 'Needs follow-up'] },
        },
        { name: 'Corrective action', type: 'text' },
        { name: 'Closed on', type: 'date', required: true },
      ],
    }),
    201,
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('choice keys', () => {
  it('are slugs however the choice was typed; the labels stay as written', () => {
    expect(fieldOf('result').options.choices).toEqual([
      { value: 'pass', label: 'Pass' },
      { value: 'fail', label: 'Fail' },
      { value: 'needs-follow-up', label: 'Needs follow-up' },
    ]);
  });

  it('stored as labels before are migrated: options, records, logic and importer defaults follow', async () => {
    const legacy = ok<Schema>(
      await admin.post('/api/schemas', {
        name_singular: 'Legacy check',
        name_plural: 'Legacy checks',
        fields: [{ name: 'State', type: 'dropdown', options: { choices: ['open'] } }],
      }),
      201,
    );
    const field = legacy.fields.find((f) => f.slug === 'state')!;
    // As the new-type page once stored them: labels as keys.
    const choices = [
      { value: 'Needs follow-up', label: 'Needs follow-up' },
      { value: 'Done', label: 'Done' },
      { value: 'done', label: 'done (old)' },
    ];
    await sql`update schema_fields set options = ${JSON.stringify({ choices })}::jsonb where id = ${field.id}`.execute(
      t.ctx.db,
    );
    await sql`insert into custom_records (schema_id, name, custom, created_at, updated_at) values
      (${legacy.id}, 'A', '{"state": "Needs follow-up"}'::jsonb, now(), now()),
      (${legacy.id}, 'B', '{"state": "Done"}'::jsonb, now(), now())`.execute(t.ctx.db);
    const block = ok(
      await admin.post('/api/logic-blocks', {
        schema_id: legacy.id,
        conditions: [{ source: `field:${field.id}`, operator: 'is-not-empty', value: null }],
        actions: [{ target: `field:${legacy.fields.find((f) => f.slug === 'name')!.id}`, action: 'show-field' }],
      }),
      201,
    );
    await sql`insert into logic_conditions (logic_block_id, source, operator, value) values (${block.id}, ${`field:${field.id}`}, 'equals', 'Needs follow-up')`.execute(
      t.ctx.db,
    );
    await migrateChoiceKeys(forMigration(t.ctx.db));
    await t.ctx.records.announce(t.ctx.resources.get('schemas')!, 'updated', { id: legacy.id });
    const { rows } = await sql<{
      options: { choices: unknown };
    }>`select options from schema_fields where id = ${field.id}`.execute(t.ctx.db);
    expect(rows[0].options.choices).toEqual([
      { value: 'needs-follow-up', label: 'Needs follow-up' },
      { value: 'done-2', label: 'Done' },
      { value: 'done', label: 'done (old)' },
    ]);
    const held = await sql<{
      name: string;
      state: string;
    }>`select name, custom ->> 'state' as state from custom_records where schema_id = ${legacy.id} order by name`.execute(
      t.ctx.db,
    );
    expect(held.rows).toEqual([
      { name: 'A', state: 'needs-follow-up' },
      { name: 'B', state: 'done-2' },
    ]);
    const conditions = await sql<{
      value: string;
    }>`select value from logic_conditions where operator = 'equals' and source = ${`field:${field.id}`}`.execute(
      t.ctx.db,
    );
    expect(conditions.rows).toEqual([{ value: 'needs-follow-up' }]);
  });
});

describe('a rule comparing with a choice', () => {
  it('is refused for a value no choice has, with the choices listed; a label names its choice', async () => {
    const result = `field:${fieldOf('result').id}`;
    const action = { target: `field:${fieldOf('corrective_action').id}`, action: 'show-field' };
    refused(
      await admin.post('/api/logic-blocks', {
        schema_id: schema.id,
        conditions: [{ source: result, operator: 'equals', value: 'failed' }],
        actions: [action],
      }),
      'conditions.0.value',
      /Result has no choice “failed”: its choices are “Pass” \(pass\), “Fail” \(fail\), “Needs follow-up” \(needs-follow-up\)/,
    );
    const block = ok<{ conditions: Array<{ value: string }> }>(
      await admin.post('/api/logic-blocks', {
        schema_id: schema.id,
        description: 'Corrective action when failed',
        conditions: [{ source: result, operator: 'equals', value: 'Fail' }],
        actions: [action],
      }),
      201,
    );
    expect(block.conditions[0].value).toBe('fail');
    await reload();
  });
});

describe('a relation pointed at another target', () => {
  let ids: number[];
  beforeAll(async () => {
    ids = [];
    for (const [i, name] of ['Inspection A', 'Inspection B', 'Inspection C'].entries())
      ids.push(
        ok(
          await admin.post(`/api/${schema.resource}`, {
            name,
            site: sites[i],
            crews: i === 0 ? [contractors[0], contractors[1]] : [contractors[1]],
            hazards: i === 0 ? ['noise', 'dust'] : ['falls'],
            result: 'pass',
            closed_on: '2026-03-01',
          }),
          201,
        ).id,
      );
  });

  it('is counted in the preview and refused until the values are archived or emptied; nothing changes meanwhile', async () => {
    const preview = ok<{ retarget: unknown; blocking: string[] }>(
      await impact('site', { options: { target: 'contractor' } }),
    );
    expect(preview.retarget).toEqual({ from: 'site', to: 'contractor', records: 3 });
    expect(preview.blocking.join(' ')).toMatch(/3 records hold site records in Site/);
    refused(
      await change('site', { options: { target: 'contractor' } }),
      'retarget',
      /archive those values or to empty/,
    );
    expect((await records()).map((r) => r.site)).toEqual(sites);
    expect(fieldOf('site').options.target).toBe('site');
  });

  it('archives the ids (never read as contractors), lists them on the record, and refuses to put them back', async () => {
    const preview = ok<{ archived: number; retarget: unknown }>(
      await impact('site', { options: { target: 'contractor' }, retarget: 'archive' }),
    );
    expect(preview).toMatchObject({ archived: 3, retarget: { records: 3, decided: 'archive' } });
    ok(await change('site', { options: { target: 'contractor' }, retarget: 'archive' }));
    await reload();
    expect((await records()).map((r) => r.site ?? null)).toEqual([null, null, null]);
    expect(
      (await admin.get(`/api/${schema.resource}?filter[site]=${sites[0]}`)).body.meta.total,
      'a site id never matches as a contractor',
    ).toBe(0);
    const kept = await archived(ids[0]);
    expect(kept[0]).toMatchObject({ field: { slug: 'site' }, value: sites[0], restorable: true });
    expect(kept[0].reason).toMatch(/now points at contractor records/);
    refused(await admin.post(`/api/archived-values/${kept[0].id}/restore`), 'field', /named site records/);
    // The record saves again (no stale site id read as a contractor).
    const row = ok(await admin.get(`/api/${schema.resource}/${ids[0]}`));
    ok(await admin.post(`/api/${schema.resource}/${ids[0]}`, { site: contractors[0], updated_at: row.updated_at }));
  });

  it('empties the values instead when asked, a revision each', async () => {
    ok(await change('site', { options: { target: 'site' }, retarget: 'empty' }));
    await reload();
    expect((await records()).map((r) => r.site ?? null)).toEqual([null, null, null]);
    const { rows } = await sql<{
      changes: Record<string, unknown>;
    }>`select changes from revisions where revisionable_type = ${schema.type} and revisionable_id = ${ids[0]} order by id desc limit 1`.execute(
      t.ctx.db,
    );
    expect(rows[0].changes).toEqual({ site: [contractors[0], null] });
  });
});

describe('single and multiple values', () => {
  it('a single relation made multiple wraps each value in a list', async () => {
    const [a, b] = (await records()).map((r) => r.id);
    for (const [id, site] of [
      [a, sites[0]],
      [b, sites[1]],
    ]) {
      const row = ok(await admin.get(`/api/${schema.resource}/${id}`));
      ok(await admin.post(`/api/${schema.resource}/${id}`, { site, updated_at: row.updated_at }));
    }
    const preview = ok<{ converted: number; archived: number }>(
      await impact('site', { options: { target: 'site', multiple: true } }),
    );
    expect(preview).toMatchObject({ converted: 2, archived: 0 });
    ok(await change('site', { options: { target: 'site', multiple: true } }));
    await reload();
    expect((await records()).map((r) => r.site ?? null)).toEqual([[sites[0]], [sites[1]], null]);
  });

  it('a multiple relation made single keeps the first value and archives the rest', async () => {
    const preview = ok<{ kept_first: number; archived: number; summary: string[] }>(
      await impact('crews', { options: { target: 'contractor' } }),
    );
    expect(preview).toMatchObject({ kept_first: 1, archived: 1 });
    expect(preview.summary.join(' ')).toMatch(/keeps the first/);
    ok(await change('crews', { options: { target: 'contractor' } }));
    await reload();
    const rows = await records();
    expect(rows.map((r) => r.crews)).toEqual([contractors[0], contractors[1], contractors[1]]);
    const kept = await archived(rows[0].id);
    expect(kept.find((entry) => entry.field.slug === 'crews')).toMatchObject({ value: [contractors[1]] });
  });

  it('a dropdown of several made one keeps the first choice and archives the rest', async () => {
    ok(await change('hazards', { options: { choices: fieldOf('hazards').options.choices } }));
    await reload();
    const rows = await records();
    expect(rows.map((r) => r.hazards)).toEqual(['noise', 'falls', 'falls']);
    expect((await archived(rows[0].id)).find((entry) => entry.field.slug === 'hazards')).toMatchObject({
      value: ['dust'],
    });
  });
});

describe('a choice remap', () => {
  it('warns about the records it leaves failing a rule, and maps them in one change', async () => {
    const closed = fieldOf('closed_on');
    // Closed on is shown (and so required) only for a failed inspection.
    ok(
      await admin.post('/api/logic-blocks', {
        schema_id: schema.id,
        conditions: [{ source: `field:${fieldOf('result').id}`, operator: 'not-equals', value: 'fail' }],
        actions: [{ target: `field:${closed.id}`, action: 'hide-field' }],
      }),
      201,
    );
    const rows = await records();
    for (const row of rows) {
      const fresh = ok(await admin.get(`/api/${schema.resource}/${row.id}`));
      ok(
        await admin.post(`/api/${schema.resource}/${row.id}`, {
          result: 'needs-follow-up',
          closed_on: null,
          updated_at: fresh.updated_at,
        }),
      );
    }
    const choices = [
      { value: 'pass', label: 'Pass' },
      { value: 'fail', label: 'Fail' },
    ];
    const preview = ok<{ blocking: string[]; summary: string[]; left_failing: unknown }>(
      await impact('result', { options: { choices }, choice_map: { 'needs-follow-up': 'fail' } }),
    );
    expect(preview.blocking).toEqual([]);
    expect(preview.left_failing).toEqual({ records: 3, fields: ['Closed on'] });
    expect(preview.summary.join(' ')).toMatch(/3 records would then miss Closed on/);
    ok(await change('result', { options: { choices }, choice_map: { 'needs-follow-up': 'fail' } }));
    expect((await records()).map((r) => r.result)).toEqual(['fail', 'fail', 'fail']);
  });
});

describe('archived values', () => {
  it('of a deleted field are listed on the record and put back into a field of that slug, once', async () => {
    const [first] = await records();
    const row = ok(await admin.get(`/api/${schema.resource}/${first.id}`));
    ok(
      await admin.post(`/api/${schema.resource}/${first.id}`, {
        corrective_action: 'Rail fixed',
        updated_at: row.updated_at,
      }),
    );
    ok(await admin.delete(`/api/schema-fields/${fieldOf('corrective_action').id}`));
    await reload();
    const entry = (await archived(first.id)).find((e) => e.field.slug === 'corrective_action')!;
    expect(entry).toMatchObject({ value: 'Rail fixed', reason: 'field deleted', restorable: false });
    refused(await admin.post(`/api/archived-values/${entry.id}/restore`), 'field', /no longer a field/);
    ok(await admin.post('/api/schema-fields', { schema_id: schema.id, name: 'Corrective action', type: 'text' }), 201);
    const restored = ok(await admin.post(`/api/archived-values/${entry.id}/restore`));
    expect(restored.corrective_action).toBe('Rail fixed');
    expect((await admin.post(`/api/archived-values/${entry.id}/restore`)).status).toBe(409);
    expect((await archived(first.id)).find((e) => e.id === entry.id)).toMatchObject({ restorable: false });
  });

  it('are read only by those who may read the record', async () => {
    const reader = await t.signIn((await t.createUser({ role: 'user', email: 'archive-reader@example.com' })).email);
    const [first] = await records();
    expect((await reader.get(`/api/archived-values?type=${schema.type}&record_id=${first.id}`)).status).toBe(403);
  });
});
