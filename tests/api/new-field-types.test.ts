/**
 * The field types of issue 30 point 2 (docs/records.md "Field types"), each through every path a value takes: its
 * options checked, the form API (create with the default, update), the grid's in-place edit (an update with the row's
 * updated_at), a bulk edit, an import (the ways files write it), the offline outbox (a create with an
 * Idempotency-Key), filters and sorts of the list, the export, the history and the assistant's words.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../fixtures/upload.js';
import { ask, newThread } from '../support/assistant.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let resource: string;

interface Row {
  id: number;
  updated_at?: string;
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

/** The fields under test; each type's describe adds its own. */
const FIELDS = [
  { name: 'Score', type: 'rating', options: { default: 3 } },
  { name: 'Readings', type: 'json', options: { max: 200 } },
  { name: 'Findings', type: 'rich-text', options: { max: 500, searchable: true } },
];

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const schema = ok(
    await admin.post('/api/schemas', { name_singular: 'Inspection', name_plural: 'Inspections', fields: FIELDS }),
    201,
  );
  resource = String(schema.resource);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const create = async (body: Record<string, unknown>, headers?: Record<string, string>) =>
  ok(await admin.post(`/api/${resource}`, body, headers ? { headers } : undefined), 201);
const list = async (query: string) => (await admin.get(`/api/${resource}?per_page=100&${query}`)).body.data as Row[];
const lastChanges = async (id: number) =>
  (
    await sql<{
      changes: Record<string, [unknown, unknown]>;
    }>`select changes from revisions where revisionable_id = ${id} and revisionable_type = 'inspection' order by id desc limit 1`.execute(
      t.ctx.db,
    )
  ).rows[0]?.changes;

async function importRows(name: string, header: string, target: string, rows: string[]) {
  const importer = ok(
    await admin.post('/api/importers', {
      name,
      record_type: 'inspection',
      key_target: 'custom.name',
      columns: [
        { header: 'Name', target: 'custom.name' },
        { header, target },
      ],
    }),
    201,
  );
  const content = [`Name,${header}`, ...rows, ''].join('\n');
  const result = await runImport(t, admin, importer.id, [{ name: `${name}.csv`, content }]);
  const failures = (await admin.get(`/api/imports/${result.id}/failures`)).body.data as Array<{
    reason?: string;
    errors?: string[];
  }>;
  return { result, reasons: failures.map((f) => f.reason ?? f.errors?.join(' ') ?? JSON.stringify(f)).join('\n') };
}

async function bulkEdit(field: string, value: unknown, ids: number[]) {
  const started = await admin.post('/api/bulk-edits', { resource, field, value, ids });
  if (started.status !== 202) return started;
  await t.app.jobs.drain();
  return admin.get(`/api/bulk-edits/${started.body.data.id}`);
}

describe('rating (1 to 5 stars)', () => {
  it('checks its options: a number of stars from 3 to 10, nothing unknown', async () => {
    const schemaId = (await admin.get('/api/schemas?per_page=-1')).body.data.find(
      (s: { type: string }) => s.type === 'inspection',
    ).id;
    const field = (options: Record<string, unknown>) =>
      admin.post('/api/schema-fields', { schema_id: schemaId, name: 'Stars', type: 'rating', options });
    refused(await field({ max: 11 }), 'options.max', /from 3 to 10/);
    refused(await field({ max: 2.5 }), 'options.max', /from 3 to 10/);
    refused(await field({ colour: 'gold' }), 'options.colour', /no option/);
    refused(await field({ default: 9 }), 'options.default', /default/);
  });

  it('is refused out of range and accepted within it on create, update, the grid and the outbox; the default applies', async () => {
    refused(await admin.post(`/api/${resource}`, { name: 'Too many', score: 6 }), 'score', /too large/);
    refused(await admin.post(`/api/${resource}`, { name: 'Too few', score: 0 }), 'score', /too small/);
    refused(await admin.post(`/api/${resource}`, { name: 'Half', score: 2.5 }), 'score', /whole number/);
    expect((await create({ name: 'Rated by default' })).score).toBe(3);
    const rated = await create({ name: 'Quarry Inspection', score: 4 });
    expect(rated.score).toBe(4);
    refused(
      await admin.post(`/api/${resource}/${rated.id}`, { score: 7, updated_at: rated.updated_at }),
      'score',
      /too large/,
    );
    const edited = ok(await admin.post(`/api/${resource}/${rated.id}`, { score: 5, updated_at: rated.updated_at }));
    expect(edited.score).toBe(5);
    expect(await lastChanges(rated.id)).toMatchObject({ score: [4, 5] });
    const key = { 'Idempotency-Key': 'rating-outbox-0123456789' };
    const sent = await create({ name: 'Offline rating', score: 2 }, key);
    expect((await create({ name: 'Offline rating', score: 2 }, key)).id).toBe(sent.id);
    refused(
      await admin.post(
        `/api/${resource}`,
        { name: 'Offline bad', score: 8 },
        { headers: { 'Idempotency-Key': 'rating-outbox-bad-01234' } },
      ),
      'score',
      /too large/,
    );
  });

  it('filters and sorts by the stars', async () => {
    const high = await list('filter[score_gte]=4&sort=score&order=desc');
    expect(high.map((r) => r.score)).toEqual([5]);
    const sorted = await list('sort=score&order=asc');
    const scores = sorted.map((r) => r.score).filter((s) => s !== null);
    expect(scores).toEqual([...scores].sort((a, b) => Number(a) - Number(b)));
    expect((await list('filter[score]=2')).map((r) => r.name)).toEqual(['Offline rating']);
  });

  it('takes a bulk edit within range and refuses one outside', async () => {
    const ids = (await list('filter[score]=3')).map((r) => r.id);
    refused(await bulkEdit('score', 9, ids), 'value', /too large/);
    expect(ok(await bulkEdit('score', 1, ids)).changed_count).toBe(ids.length);
    expect((await list('filter[score]=1')).length).toBe(ids.length);
  });

  it('imports "4", "4 stars", "3/5" and "2 of 5", and refuses what is no rating', async () => {
    const { result, reasons } = await importRows('Ratings', 'Score', 'custom.score', [
      'Imported 4,4',
      'Imported stars,4 stars',
      'Imported slash,3/5',
      'Imported of,2 of 5',
      'Imported nine,9',
      'Imported word,great',
    ]);
    expect(result).toMatchObject({ status: 'complete', created_count: 4, failed_count: 2 });
    expect(reasons).toMatch(/too large/);
    const byName = Object.fromEntries((await list('filter[name_like]=Imported')).map((r) => [r.name, r.score]));
    expect(byName).toEqual({ 'Imported 4': 4, 'Imported stars': 4, 'Imported slash': 3, 'Imported of': 2 });
  });

  it('exports the number and is told in words by the assistant', async () => {
    const csv = await admin.get(`/api/exports/download?resource=${resource}&columns=name,score&sort=name`);
    expect(csv.status).toBe(200);
    expect(String(csv.body)).toContain('Imported slash,3');
    const thread = await newThread(admin);
    const about = await ask(t, admin, thread, 'Tell me about Quarry Inspection');
    expect(JSON.stringify(about)).toContain('5 of 5');
  });
});

describe('json (any JSON value)', () => {
  it('checks its options', async () => {
    const schemaId = (await admin.get('/api/schemas?per_page=-1')).body.data.find(
      (s: { type: string }) => s.type === 'inspection',
    ).id;
    const field = (options: Record<string, unknown>) =>
      admin.post('/api/schema-fields', { schema_id: schemaId, name: 'Data', type: 'json', options });
    refused(await field({ max: -1 }), 'options.max', /./);
    refused(await field({ schema: {} }), 'options.schema', /no option/);
  });

  it('keeps the value as sent through create, update, the grid and the outbox; refuses one too long', async () => {
    const readings = { crane: 'up', workers: [12, 14], checked: true, note: null };
    const made = await create({ name: 'Crane check', readings });
    expect(made.readings).toEqual(readings);
    expect((await admin.get(`/api/${resource}/${made.id}`)).body.data.readings).toEqual(readings);
    refused(
      await admin.post(`/api/${resource}`, { name: 'Too long', readings: { text: 'x'.repeat(300) } }),
      'readings',
      /too large/,
    );
    const edited = ok(
      await admin.post(`/api/${resource}/${made.id}`, { readings: [1, 'two'], updated_at: made.updated_at }),
    );
    expect(edited.readings).toEqual([1, 'two']);
    expect(await lastChanges(made.id)).toMatchObject({ readings: [readings, [1, 'two']] });
    const key = { 'Idempotency-Key': 'json-outbox-0123456789' };
    const sent = await create({ name: 'Offline json', readings: 'plain text' }, key);
    expect((await create({ name: 'Offline json', readings: 'plain text' }, key)).id).toBe(sent.id);
    expect(sent.readings).toBe('plain text');
  });

  it('is found by the text it holds or by being empty, and does not sort', async () => {
    expect((await list('filter[readings_like]=two')).map((r) => r.name)).toEqual(['Crane check']);
    expect((await list('filter[readings_null]=false')).map((r) => r.name).sort()).toEqual([
      'Crane check',
      'Offline json',
    ]);
    const sorted = await admin.get(`/api/${resource}?sort=readings`);
    expect(sorted.status).toBe(422);
  });

  it('takes a bulk edit and an import of JSON cells, refusing a cell that is no JSON', async () => {
    const ids = (await list('filter[name]=Offline json')).map((r) => r.id);
    expect(ok(await bulkEdit('readings', { bulk: 1 }, ids)).changed_count).toBe(1);
    expect((await list('filter[name]=Offline json'))[0]?.readings).toEqual({ bulk: 1 });
    const { result, reasons } = await importRows('Json', 'Readings', 'custom.readings', [
      'Json object,"{""level"": 3}"',
      'Json list,"[1,2]"',
      'Json broken,{level',
    ]);
    expect(result).toMatchObject({ status: 'complete', created_count: 2, failed_count: 1 });
    expect(reasons).toMatch(/is not JSON/);
    const byName = Object.fromEntries((await list('filter[name_like]=Json')).map((r) => [r.name, r.readings]));
    expect(byName).toEqual({ 'Json object': { level: 3 }, 'Json list': [1, 2], 'Offline json': { bulk: 1 } });
  });

  it('exports the JSON text and is told by the assistant', async () => {
    const csv = await admin.get(
      `/api/exports/download?resource=${resource}&columns=name,readings&filter[name]=Json object`,
    );
    expect(String(csv.body)).toContain('"{""level"":3}"');
    const about = await ask(t, admin, await newThread(admin), 'Tell me about Crane check');
    expect(JSON.stringify(about)).toContain('two');
  });
});

describe('rich text (Markdown)', () => {
  it('takes the Markdown without its HTML on create, update, the grid and the outbox', async () => {
    const made = await create({
      name: 'Scaffold check',
      findings:
        '## Scaffold\n\n**Tagged** <script>alert(1)</script>on <b>level 3</b>; see [photo](https://example.com/p)',
    });
    expect(made.findings).toBe('## Scaffold\n\n**Tagged** alert(1)on level 3; see [photo](https://example.com/p)');
    refused(
      await admin.post(`/api/${resource}`, { name: 'Too long', findings: 'x'.repeat(501) }),
      'findings',
      /longer than 500/,
    );
    const edited = ok(
      await admin.post(`/api/${resource}/${made.id}`, {
        findings: '- guard rail <img src=x onerror=alert(1)>missing',
        updated_at: made.updated_at,
      }),
    );
    expect(edited.findings).toBe('- guard rail missing');
    expect(await lastChanges(made.id)).toMatchObject({ findings: [made.findings, '- guard rail missing'] });
    const key = { 'Idempotency-Key': 'rich-outbox-0123456789' };
    const sent = await create({ name: 'Offline findings', findings: '_ok_ <i>x</i>' }, key);
    expect(sent.findings).toBe('_ok_ x');
    expect((await create({ name: 'Offline findings', findings: '_ok_ <i>x</i>' }, key)).id).toBe(sent.id);
  });

  it('is found by its words (filter and search) and sorts', async () => {
    expect((await list('filter[findings_like]=guard rail')).map((r) => r.name)).toEqual(['Scaffold check']);
    expect((await list('search=guard')).map((r) => r.name)).toContain('Scaffold check');
    expect((await admin.get(`/api/${resource}?sort=findings&order=asc`)).status).toBe(200);
  });

  it('takes a bulk edit and an import without their HTML', async () => {
    const ids = (await list('filter[name]=Offline findings')).map((r) => r.id);
    expect(ok(await bulkEdit('findings', '**bulk** <u>done</u>', ids)).changed_count).toBe(1);
    expect((await list('filter[name]=Offline findings'))[0]?.findings).toBe('**bulk** done');
    const { result } = await importRows('Findings', 'Findings', 'custom.findings', [
      'Findings imported,"# Title <iframe src=x></iframe>text"',
    ]);
    expect(result).toMatchObject({ status: 'complete', created_count: 1, failed_count: 0 });
    expect((await list('filter[name]=Findings imported'))[0]?.findings).toBe('# Title text');
  });

  it('exports the Markdown and is told by the assistant', async () => {
    const csv = await admin.get(
      `/api/exports/download?resource=${resource}&columns=name,findings&filter[name]=Findings imported`,
    );
    expect(String(csv.body)).toContain('# Title text');
    const about = await ask(t, admin, await newThread(admin), 'Tell me about Scaffold check');
    expect(JSON.stringify(about)).toContain('guard rail');
  });
});
