/**
 * A kanban's first page of every column in one request (GET /api/records/{resource}/board: docs/views.md "Kanban"):
 * each column's records and count over the list's filters, saved view and sort, read with the person's own access,
 * the same as one list request per column would answer; 422 naming what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { okBody } from '../support/api-answers.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let assistant: TestClient;

const SITES: Array<[string, string, number | null]> = [
  ['Harbor Tower', 'union', 1_000_000],
  ['Valley Mall', 'non-union', 250_000],
  ['Union Hall Annex', 'union', 500_000],
  ['Dock Works', 'non-union', null],
  ['Civic Center', 'pla', 2_000_000],
  ['Bay Offices', 'union', 750_000],
];
const columns = (values: unknown[]) => encodeURIComponent(JSON.stringify(values));
type Lane = { value: unknown; total: number; data: Array<{ name: string }> };
const lanes = (body: { data: Lane[] }) =>
  body.data.map((lane) => [lane.value, lane.total, lane.data.map((row) => row.name)]);

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  await t.createUser({ role: 'assistant', email: 'asst@example.com' });
  assistant = await t.signIn('asst@example.com');
  for (const [name, type, value] of SITES)
    okBody(await admin.post('/api/sites', { name, type, estimated_value: value }), 201);
});
afterAll(async () => {
  await t?.close();
});

describe('a board in one request', () => {
  it("answers each column's first page and count, in the order asked, sorted as the list", async () => {
    const body = okBody(
      await admin.get(
        `/api/records/sites/board?by=type&columns=${columns(['union', 'pla', 'public-works'])}&per_page=2&sort=-estimated_value`,
      ),
    );
    expect(body.meta).toEqual({ by: 'type' });
    expect(lanes(body)).toEqual([
      ['union', 3, ['Harbor Tower', 'Bay Offices']],
      ['pla', 1, ['Civic Center']],
      ['public-works', 0, []],
    ]);
  });

  it('is what one list request per column answers', async () => {
    const board = okBody(await admin.get(`/api/records/sites/board?by=type&columns=${columns(['non-union'])}`));
    const list = okBody(await admin.get('/api/sites?filter[type]=non-union&per_page=50'));
    expect(board.data[0].data).toEqual(list.data);
    expect(board.data[0].total).toBe(list.meta.total);
  });

  it('has a column for the records without a value (null)', async () => {
    const body = okBody(
      await admin.get(`/api/records/sites/board?by=estimated_value&columns=${columns([null, 250000])}`),
    );
    expect(lanes(body)).toEqual([
      [null, 1, ['Dock Works']],
      [250000, 1, ['Valley Mall']],
    ]);
  });

  it("takes the list's filters and saved view", async () => {
    const filters = encodeURIComponent(
      JSON.stringify({ all: [{ field: 'estimated_value', op: 'gte', value: 600000 }] }),
    );
    const filtered = okBody(
      await admin.get(`/api/records/sites/board?by=type&columns=${columns(['union', 'pla'])}&filters=${filters}`),
    );
    expect(lanes(filtered)).toEqual([
      ['union', 2, ['Bay Offices', 'Harbor Tower']],
      ['pla', 1, ['Civic Center']],
    ]);
    const view = okBody(
      await admin.post('/api/views', {
        name: 'Small sites',
        record_type: 'site',
        filters: { all: [{ field: 'estimated_value', op: 'lt', value: 600000 }] },
      }),
      201,
    ).data;
    const viewed = okBody(
      await admin.get(`/api/records/sites/board?by=type&columns=${columns(['union', 'non-union'])}&view=${view.id}`),
    );
    expect(lanes(viewed)).toEqual([
      ['union', 1, ['Union Hall Annex']],
      ['non-union', 1, ['Valley Mall']],
    ]);
  });

  it('reads as the person: a column of sites the assistant may not read is empty', async () => {
    const body = okBody(
      await assistant.get(`/api/records/sites/board?by=type&columns=${columns(['union', 'non-union'])}`),
    );
    expect(body.data.map((lane: Lane) => [lane.value, lane.total])).toEqual([
      ['union', 3],
      ['non-union', 0],
    ]);
  });

  it('answers 422 naming the field, the columns or a filter that is wrong, and 404 for no such type', async () => {
    const noField = await admin.get(`/api/records/sites/board?by=nope&columns=${columns(['a'])}`);
    expect(noField.status).toBe(422);
    expect(noField.body.errors?.by?.[0]).toMatch(/nope/);
    expect((await admin.get(`/api/records/sites/board?columns=${columns(['a'])}`)).body.errors).toHaveProperty('by');
    const badColumns = await admin.get('/api/records/sites/board?by=type&columns=%7B%7D');
    expect(badColumns.status).toBe(422);
    expect(badColumns.body.errors).toHaveProperty('columns');
    const badFilter = await admin.get(
      `/api/records/sites/board?by=type&columns=${columns(['union'])}&filters=${encodeURIComponent('{"all":[{"field":"nope","op":"eq","value":1}]}')}`,
    );
    expect(badFilter.status).toBe(422);
    expect((await admin.get(`/api/records/nothing/board?by=type&columns=${columns(['a'])}`)).status).toBe(404);
  });
});
