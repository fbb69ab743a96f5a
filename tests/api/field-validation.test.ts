/**
 * The validation options an administrator sets on a field (docs/records.md "Validation options"), enforced on every
 * write path: the form API (create, update), the grid's in-place edit (an update with the row's updated_at), a bulk
 * edit, an import, an assistant proposal approved, and the offline outbox (creates sent with an Idempotency-Key).
 * Each option is refused and accepted on each path: required, a pattern with the administrator's message, unique (the
 * holder named), a default applied on create, a range, a length, read-only. Built-in fields take them too.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../fixtures/upload.js';
import { ask, newThread } from '../support/assistant.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let resource: string;
let siteSchemaId: number;

const PATTERN_MESSAGE = 'An inspection number is seven digits, like 0012345.';

interface Row {
  id: number;
  updated_at?: string;
  resource?: string;
  [key: string]: unknown;
}
interface Answer {
  status: number;
  body: { data?: unknown; errors?: Record<string, string[]> };
}
const ok = (res: Answer, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body.data as Row;
};
const refused = (res: Answer, field: string, message: string | RegExp) => {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.errors?.[field]?.[0], JSON.stringify(res.body)).toMatch(message);
};

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const schema = ok(
    await admin.post('/api/schemas', {
      name_singular: 'Inspection',
      name_plural: 'Inspections',
      fields: [
        {
          name: 'Inspection number',
          type: 'text',
          options: { pattern: '\\d{7}', pattern_message: PATTERN_MESSAGE, unique: true },
        },
        { name: 'Score', type: 'number', options: { format: 'integer', min: 0, max: 100 } },
        { name: 'Code', type: 'text', options: { min: 3, max: 5 } },
        {
          name: 'Result',
          type: 'dropdown',
          options: {
            choices: [
              { value: 'pass', label: 'Pass' },
              { value: 'fail', label: 'Fail' },
            ],
            default: 'pass',
          },
        },
        { name: 'Checked by', type: 'text', options: { read_only: true, default: 'Office' } },
        { name: 'Inspector email', type: 'email', required: true },
      ],
    }),
    201,
  );
  resource = String(schema.resource);
  siteSchemaId = (await admin.get('/api/schemas?per_page=-1')).body.data.find(
    (s: { type: string }) => s.type === 'site',
  ).id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const good = (n: number) => ({
  name: `Inspection ${n}`,
  inspection_number: String(1_000_000 + n),
  score: 80,
  code: 'AB1',
  inspector_email: `inspector${n}@example.com`,
});

describe('the field options are checked when the field is saved', () => {
  it('refuses an unknown option, a pattern that is no pattern and a default that is no value of the field', async () => {
    const field = (body: Record<string, unknown>) =>
      admin.post('/api/schema-fields', { schema_id: siteSchemaId, name: 'Permit', type: 'text', ...body });
    refused(await field({ options: { patern: '\\d+' } }), 'options.patern', /no option “patern”/);
    refused(await field({ options: { pattern: '(' } }), 'options.pattern', /not a pattern/);
    refused(await field({ options: { pattern: '\\d{3}', default: 'abc' } }), 'options.default', /default/);
    refused(
      await field({ type: 'number', options: { min: 5, max: 1 } }),
      'options.min',
      /may not be greater than the options.max/,
    );
  });
});

describe('the form API (create and update) and the grid (an update with the row’s updated_at)', () => {
  let id: number;

  it('refuses each option broken on create, by the field, with the administrator’s message', async () => {
    refused(
      await admin.post(`/api/${resource}`, { ...good(1), inspection_number: 'abc' }),
      'inspection_number',
      PATTERN_MESSAGE,
    );
    refused(await admin.post(`/api/${resource}`, { ...good(1), score: 101 }), 'score', /too large/);
    refused(await admin.post(`/api/${resource}`, { ...good(1), code: 'AB' }), 'code', /at least 3 characters/);
    refused(await admin.post(`/api/${resource}`, { ...good(1), code: 'ABCDEF' }), 'code', /longer than 5/);
    refused(await admin.post(`/api/${resource}`, { ...good(1), checked_by: 'Me' }), 'checked_by', /read-only/);
    const { inspector_email: _email, ...noEmail } = good(1);
    refused(await admin.post(`/api/${resource}`, noEmail), 'inspector_email', /required/);
  });

  it('accepts good values and gives the defaults', async () => {
    const created = ok(await admin.post(`/api/${resource}`, good(1)), 201);
    id = created.id;
    expect(created).toMatchObject({ inspection_number: '1000001', result: 'pass', checked_by: 'Office' });
    const chosen = ok(await admin.post(`/api/${resource}`, { ...good(2), result: 'fail' }), 201);
    expect(chosen.result).toBe('fail');
  });

  it('names the record that holds a unique value (case aside for text) on create and update', async () => {
    refused(
      await admin.post(`/api/${resource}`, { ...good(3), inspection_number: '1000001' }),
      'inspection_number',
      /already held by “Inspection 1” \(inspection #\d+\)/,
    );
    const other = ok(await admin.post(`/api/${resource}`, good(3)), 201);
    refused(
      await admin.post(`/api/${resource}/${other.id}`, { inspection_number: '1000001', updated_at: other.updated_at }),
      'inspection_number',
      /Inspection 1/,
    );
    // Its own value sent back is no duplicate.
    ok(
      await admin.post(`/api/${resource}/${other.id}`, { inspection_number: '1000003', updated_at: other.updated_at }),
    );
  });

  it('holds when several people save one value at the same moment (the unique index), naming the field', async () => {
    const { rows } = await sql<{
      name: string;
    }>`select indexname as name from pg_indexes where indexdef like '%UNIQUE%' and indexdef like '%inspection_number%'`.execute(
      t.ctx.db,
    );
    expect(rows).toHaveLength(1);
    const answers = await Promise.all(
      [40, 41, 42, 43].map((n) => admin.post(`/api/${resource}`, { ...good(n), inspection_number: '4444444' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422, 422]);
    for (const answer of answers.filter((a) => a.status === 422))
      expect(Object.keys(answer.body.errors)).toEqual(['inspection_number']);
  });

  it('checks an in-place edit as the form: refused with the message, accepted, read-only kept', async () => {
    const row = (await admin.get(`/api/${resource}/${id}`)).body.data;
    refused(
      await admin.post(`/api/${resource}/${id}`, { score: -1, updated_at: row.updated_at }),
      'score',
      /too small/,
    );
    refused(
      await admin.post(`/api/${resource}/${id}`, { checked_by: 'Someone', updated_at: row.updated_at }),
      'checked_by',
      /read-only/,
    );
    // The value it holds may be sent back (a form echoing the record).
    const same = ok(await admin.post(`/api/${resource}/${id}`, { checked_by: 'Office', updated_at: row.updated_at }));
    const edited = ok(await admin.post(`/api/${resource}/${id}`, { score: 90, updated_at: same.updated_at }));
    expect(edited.score).toBe(90);
  });
});

describe('a bulk edit', () => {
  it('refuses a value the field refuses, and records a duplicate of a unique value as refused, naming the holder', async () => {
    refused(
      await admin.post('/api/bulk-edits', { resource, field: 'inspection_number', value: 'abc', query: {} }),
      'value',
      PATTERN_MESSAGE,
    );
    refused(
      await admin.post('/api/bulk-edits', { resource, field: 'checked_by', value: 'X', query: {} }),
      'field',
      /./,
    );
    const a = ok(await admin.post(`/api/${resource}`, { ...good(10), inspection_number: '' }), 201);
    const b = ok(await admin.post(`/api/${resource}`, { ...good(11), inspection_number: '' }), 201);
    const started = ok(
      await admin.post('/api/bulk-edits', {
        resource,
        field: 'inspection_number',
        value: '7777777',
        ids: [a.id, b.id],
      }),
      202,
    );
    await t.app.jobs.drain();
    const done = (await admin.get(`/api/bulk-edits/${started.id}`)).body.data;
    expect(done).toMatchObject({ changed_count: 1, refused_count: 1 });
    expect(done.refusals[0].reason).toMatch(/already held by “Inspection 10”/);
    const score = ok(
      await admin.post('/api/bulk-edits', { resource, field: 'score', value: 55, ids: [a.id, b.id] }),
      202,
    );
    await t.app.jobs.drain();
    expect((await admin.get(`/api/bulk-edits/${score.id}`)).body.data).toMatchObject({ changed_count: 2 });
  });
});

describe('an import', () => {
  it('refuses the rows that break an option (a duplicate within the file too) and gives new records the defaults', async () => {
    const importer = ok(
      await admin.post('/api/importers', {
        name: 'Inspections',
        record_type: 'inspection',
        key_target: 'custom.name',
        columns: [
          { header: 'Name', target: 'custom.name' },
          { header: 'Number', target: 'custom.inspection_number' },
          { header: 'Score', target: 'custom.score' },
          { header: 'Code', target: 'custom.code' },
          { header: 'Email', target: 'custom.inspector_email' },
          { header: 'Checked', target: 'custom.checked_by' },
        ],
      }),
      201,
    );
    const content = [
      'Name,Number,Score,Code,Email,Checked',
      'Imported 1,2000001,10,ABC,a@example.com,',
      'Imported 2,abc,10,ABC,b@example.com,',
      'Imported 3,2000003,500,ABC,c@example.com,',
      'Imported 4,2000004,10,A,d@example.com,',
      'Imported 5,2000005,10,ABC,,',
      'Imported 6,2000001,10,ABC,f@example.com,',
      'Imported 7,1000001,10,ABC,g@example.com,',
      'Imported 8,2000008,10,ABC,h@example.com,Me',
      '',
    ].join('\n');
    const result = await runImport(t, admin, importer.id, [{ name: 'inspections.csv', content }]);
    expect(result).toMatchObject({ status: 'complete', created_count: 1, failed_count: 7 });
    const failures = (await admin.get(`/api/imports/${result.id}/failures`)).body.data;
    const reasons = failures
      .map((f: { reason?: string; errors?: string[] }) => f.reason ?? f.errors?.join(' ') ?? JSON.stringify(f))
      .join('\n');
    expect(reasons).toContain(PATTERN_MESSAGE);
    expect(reasons).toMatch(/too large/);
    expect(reasons).toMatch(/at least 3 characters/);
    expect(reasons).toMatch(/required/);
    expect(reasons).toMatch(/already in row \d+ of this batch/);
    expect(reasons).toMatch(/already held by “Inspection 1”/);
    expect(reasons).toMatch(/read-only/);
    const imported = (await admin.get(`/api/${resource}?filter[name]=Imported 1`)).body.data[0];
    expect(imported).toMatchObject({ inspection_number: '2000001', result: 'pass', checked_by: 'Office' });
  });
});

describe('an assistant proposal', () => {
  it('is refused when the value breaks an option, and approved through the same checks', async () => {
    const record = ok(await admin.post(`/api/${resource}`, { ...good(20), name: 'Quarry Inspection' }), 201);
    const thread = await newThread(admin);
    const bad = await ask(t, admin, thread, 'Change the inspection number of Quarry Inspection to abc');
    expect(bad.answer.proposal).toBeNull();
    expect(bad.answer.content).toContain(PATTERN_MESSAGE);
    const dup = await ask(t, admin, thread, 'Change the inspection number of Quarry Inspection to 1000001');
    expect(dup.answer.proposal).toMatchObject({ kind: 'update_field', status: 'pending' });
    refused(await admin.post(`/api/assistant/messages/${dup.answer.id}/approve`), 'inspection_number', /Inspection 1/);
    const fine = await ask(t, admin, thread, 'Change the inspection number of Quarry Inspection to 3000020');
    ok(await admin.post(`/api/assistant/messages/${fine.answer.id}/approve`));
    expect((await admin.get(`/api/${resource}/${record.id}`)).body.data.inspection_number).toBe('3000020');
  });
});

describe('the offline outbox (a create sent with an Idempotency-Key, sent again)', () => {
  it('is refused as the form is, and gives the defaults once', async () => {
    const headers = (name: string) => ({ headers: { 'Idempotency-Key': `validation-${name}-0123456789` } });
    refused(
      await admin.post(`/api/${resource}`, { ...good(30), inspection_number: '12' }, headers('bad')),
      'inspection_number',
      PATTERN_MESSAGE,
    );
    refused(
      await admin.post(`/api/${resource}`, { ...good(30), inspection_number: '1000001' }, headers('dup')),
      'inspection_number',
      /Inspection 1/,
    );
    const first = ok(await admin.post(`/api/${resource}`, good(30), headers('good')), 201);
    expect(first).toMatchObject({ result: 'pass', checked_by: 'Office' });
    const again = ok(await admin.post(`/api/${resource}`, good(30), headers('good')), 201);
    expect(again.id).toBe(first.id);
  });
});

describe('a built-in field', () => {
  it('takes the options an administrator sets: unique, pattern and default on the site’s columns', async () => {
    const fields = (await admin.get(`/api/schemas/${siteSchemaId}`)).body.data.fields;
    const externalId = fields.find((f: { slug: string }) => f.slug === 'external_id');
    const owner = fields.find((f: { slug: string }) => f.slug === 'owner');
    const one = ok(await admin.post('/api/sites', { name: 'Unique One', type: 'union', external_id: 'EXT-1' }), 201);
    ok(await admin.post('/api/sites', { name: 'Unique Two', type: 'union', external_id: 'ext-1' }), 201);
    // Two sites hold one value: the field cannot be made unique until they differ.
    refused(
      await admin.post(`/api/schema-fields/${externalId.id}`, { options: { ...externalId.options, unique: true } }),
      'options.unique',
      /“ext-1” is held by 2 records/,
    );
    const two = (await admin.get('/api/sites?filter[name]=Unique Two')).body.data[0];
    ok(await admin.post(`/api/sites/${two.id}`, { external_id: 'EXT-2', updated_at: two.updated_at }));
    ok(await admin.post(`/api/schema-fields/${externalId.id}`, { options: { ...externalId.options, unique: true } }));
    refused(
      await admin.post('/api/sites', { name: 'Unique Three', type: 'union', external_id: 'ext-1' }),
      'external_id',
      /already held by “Unique One”/,
    );
    ok(
      await admin.post(`/api/schema-fields/${owner.id}`, {
        options: {
          ...owner.options,
          pattern: '[A-Z].*',
          pattern_message: 'Owners start with a capital.',
          default: 'City',
        },
      }),
    );
    refused(
      await admin.post('/api/sites', { name: 'Owned', type: 'union', owner: 'acme' }),
      'owner',
      'Owners start with a capital.',
    );
    const defaulted = ok(await admin.post('/api/sites', { name: 'Owned', type: 'union' }), 201);
    expect(defaulted.owner).toBe('City');
    expect(one.id).toBeGreaterThan(0);
  });
});
