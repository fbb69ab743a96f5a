import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;

const parse = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');

/** A workbook downloaded as the administrator, read back through exceljs: its first sheet's rows. */
async function workbookAt(pathname: string) {
  const cookie = [...admin.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(t.baseUrl + pathname, { headers: { cookie } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  expect(res.headers.get('content-disposition')).toMatch(/filename="sites-\d{4}-\d{2}-\d{2}\.xlsx"/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(await res.arrayBuffer());
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.admin();
  const sites = [
    { name: 'Alpha Tower', type: 'union', city: 'Pasadena' },
    { name: '=HYPERLINK("http://evil.example","click")', type: 'union', city: 'Burbank' },
    { name: 'Beta Plant', type: 'non-union', city: 'Irvine' },
    { name: '@SUM(A1:A9)', type: 'union', city: '+1 Glendale' },
    { name: 'Gamma, "quoted" Hall', type: 'pla', city: 'Long Beach' },
  ];
  for (const site of sites) {
    const res = await admin.post('/api/sites', site);
    if (res.status !== 201) throw new Error(`Creating a site answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('CSV export of a list', () => {
  it('streams the list with its filters, sort and columns, escaping formulas', async () => {
    const res = await admin.get(
      '/api/exports/download?resource=sites&filter[type]=union&sort=name&order=asc&columns=name,type,city&ids=1',
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="sites-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(parse(res.body)).toEqual([
      'Name,Type,type (key),City',
      `"'=HYPERLINK(""http://evil.example"",""click"")",Union,union,Burbank`,
      "'@SUM(A1:A9),Union,union,'+1 Glendale",
      'Alpha Tower,Union,union,Pasadena',
    ]);
  });

  it('writes keys only when ids are asked for', async () => {
    const res = await admin.get(
      '/api/exports/download?resource=sites&filter[type]=union&sort=name&order=asc&columns=name,type,city',
    );
    expect(parse(res.body)).toEqual([
      'Name,Type,City',
      `"'=HYPERLINK(""http://evil.example"",""click"")",Union,Burbank`,
      "'@SUM(A1:A9),Union,'+1 Glendale",
      'Alpha Tower,Union,Pasadena',
    ]);
  });

  it('refuses a format it does not write instead of answering CSV, and takes filters= as the list does', async () => {
    for (const format of ['json', 'pdf']) {
      const res = await admin.get(`/api/exports/download?resource=sites&format=${format}`);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.errors.format[0]).toMatch(`The format "${format}" is not offered`);
    }
    const filters = encodeURIComponent(JSON.stringify({ all: [{ field: 'name', op: 'starts_with', value: 'alpha' }] }));
    const res = await admin.get(
      `/api/exports/download?resource=sites&format=csv&filters=${filters}&columns=name&sort=name&order=asc`,
    );
    expect(res.status).toBe(200);
    expect(parse(res.body)).toEqual(['Name', 'Alpha Tower']);
  });

  it('writes what the list shows (choice labels, related names, Yes/No) with the raw key beside each key column', async () => {
    const status = await t.ctx.db
      .selectFrom('site_statuses')
      .select(['id', 'name'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const site = await t.ctx.db
      .selectFrom('sites')
      .select('id')
      .where('name', '=', 'Alpha Tower')
      .executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('sites').set({ site_status_id: status.id }).where('id', '=', site.id).execute();
    const res = await admin.get(
      `/api/exports/download?resource=sites&search=Alpha&columns=name,type,site_status_id&ids=1`,
    );
    expect(res.status).toBe(200);
    const [header, row] = parse(res.body);
    expect(header).toBe('Name,Type,type (key),Status,site_status_id');
    expect(row).toBe(`Alpha Tower,Union,union,${status.name},${status.id}`);
    const named = parse(
      (await admin.get('/api/exports/download?resource=sites&search=Alpha&columns=name,type,site_status_id')).body,
    );
    expect(named).toEqual(['Name,Type,Status', `Alpha Tower,Union,${status.name}`]);
  });

  it('exports every field by default, custom fields included, and quotes what needs quoting', async () => {
    const res = await admin.get('/api/exports/download?resource=sites&search=Gamma&ids=1');
    expect(res.status).toBe(200);
    const [header, row] = parse(res.body);
    const [withoutIds] = parse((await admin.get('/api/exports/download?resource=sites&search=Gamma')).body);
    expect(withoutIds.startsWith('Name,')).toBe(true);
    const fields = await t.ctx.records.fields(t.ctx.resources.get('sites')!);
    const custom = Object.entries(fields).filter(([, spec]) => spec.storage === 'custom');
    expect(header.startsWith('ID,')).toBe(true);
    for (const [key, spec] of custom)
      expect(header).toContain((spec.label ?? key).replace(/^\w/, (c) => c.toUpperCase()));
    expect(row).toContain('"Gamma, ""quoted"" Hall"');
  });

  it('applies the same permissions as the list: rows a person may not read are not exported', async () => {
    await t.createUser({ role: 'user', email: 'exporter@example.com' });
    const organizer = await t.signIn('exporter@example.com');
    const mine = await organizer.get('/api/exports/download?resource=sites&columns=name');
    expect(mine.status).toBe(200);
    expect(parse(mine.body)).toHaveLength(6);
    // The assistant role may not export at all.
    await t.createUser({ role: 'assistant', email: 'assistant-export@example.com' });
    const assistant = await t.signIn('assistant-export@example.com');
    expect((await assistant.get('/api/exports/download?resource=sites')).status).toBe(403);
  });

  it('refuses an unknown list or column with 422 before sending anything', async () => {
    expect((await admin.get('/api/exports/download?resource=nope')).status).toBe(422);
    const res = await admin.get('/api/exports/download?resource=sites&columns=name,password');
    expect(res.status).toBe(422);
    expect(res.body.errors.columns[0]).toMatch(/Unknown column/);
  });

  it('writes a big export in the background and offers it for download', async () => {
    const res = await admin.get(
      '/api/exports/download?resource=sites&filter[type]=union&sort=name&order=asc&columns=name,type,city&background=1',
    );
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'pending', resource: 'sites' });
    const early = await admin.get(`/api/exports/${res.body.data.id}/download`);
    expect(early.status).toBe(409);
    await t.app.jobs.drain();
    const shown = await admin.get(`/api/exports/${res.body.data.id}`);
    expect(shown.body.data).toMatchObject({
      status: 'complete',
      row_count: 3,
      download_url: `/api/exports/${res.body.data.id}/download`,
    });
    const file = await admin.get(`/api/exports/${res.body.data.id}/download`);
    expect(file.status).toBe(200);
    expect(parse(file.body)).toHaveLength(4);
    expect(parse(file.body)[1]).toContain(`'=HYPERLINK`);
    // Exports are one's own: another person does not see them.
    const other = await t.signIn('exporter@example.com');
    expect((await other.get(`/api/exports/${res.body.data.id}`)).status).toBe(404);
    expect((await other.get('/api/exports')).body.meta.total).toBe(0);
    // ...and may follow their own background export without export:read.
    const theirs = await other.get('/api/exports/download?resource=sites&columns=name&background=1');
    expect(theirs.status).toBe(202);
    await t.app.jobs.drain();
    expect((await other.get(`/api/exports/${theirs.body.data.id}`)).body.data.status).toBe('complete');
    expect((await other.get(`/api/exports/${theirs.body.data.id}/download`)).status).toBe(200);
  });

  it('starts a background export with POST /api/exports', async () => {
    const res = await admin.post('/api/exports', {
      resource: 'sites',
      params: { filter: { type: 'pla' } },
      columns: ['name'],
    });
    expect(res.status).toBe(201);
    await t.app.jobs.drain();
    const file = await admin.get(`/api/exports/${res.body.data.id}/download`);
    expect(parse(file.body)).toEqual(['Name', '"Gamma, ""quoted"" Hall"']);
  });
});

describe('XLSX export of a list', () => {
  /** The answer's bytes as a workbook's first sheet, each row's cell values (fetch: the body is binary). */

  it('writes the list as a workbook: the same rows, text never a formula', async () => {
    const rows = await workbookAt(
      '/api/exports/download?resource=sites&filter[type]=union&sort=name&order=asc&columns=name,type,city&format=xlsx',
    );
    expect(rows).toEqual([
      ['Name', 'Type', 'City'],
      ['=HYPERLINK("http://evil.example","click")', 'Union', 'Burbank'],
      ['@SUM(A1:A9)', 'Union', '+1 Glendale'],
      ['Alpha Tower', 'Union', 'Pasadena'],
    ]);
  });

  it('writes what a view shows: its rows, its columns in order under their labels, dates and money typed', async () => {
    const status = await t.ctx.db
      .selectFrom('site_statuses')
      .select(['id', 'name'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const contractor = await admin.post('/api/contractors', { name: 'Acme Builders', type: 'union' });
    expect(contractor.status, JSON.stringify(contractor.body)).toBe(201);
    const site = await admin.post('/api/sites', {
      name: 'Delta Yard',
      type: 'union',
      city: 'Fresno',
      bid_date: '2026-03-09',
      estimated_value: 1250000.5,
      site_status_id: status.id,
      general_contractor_id: contractor.body.data.id,
    });
    expect(site.status, JSON.stringify(site.body)).toBe(201);
    const view = await admin.post('/api/views', {
      name: 'Union bids',
      record_type: 'site',
      filters: { all: [{ field: 'name', op: 'starts_with', value: 'Delta' }] },
      columns: [
        { field: 'city' },
        { field: 'name', width: 200 },
        { field: 'bid_date' },
        { field: 'estimated_value' },
        { field: 'site_status_id' },
        { field: 'general_contractor_id' },
        { field: 'a_field_since_deleted' },
      ],
    });
    expect(view.status, JSON.stringify(view.body)).toBe(201);
    const rows = await workbookAt(`/api/exports/download?resource=sites&view=${view.body.data.id}&format=xlsx`);
    expect(rows).toEqual([
      ['City', 'Name', 'Bid date', 'Estimated value', 'Status', 'General contractor'],
      ['Fresno', 'Delta Yard', new Date(Date.UTC(2026, 2, 9)), 1250000.5, status.name, 'Acme Builders'],
    ]);
    const csv = parse((await admin.get(`/api/exports/download?resource=sites&view=${view.body.data.id}`)).body);
    expect(csv).toEqual([
      'City,Name,Bid date,Estimated value,Status,General contractor',
      `Fresno,Delta Yard,2026-03-09,1250000.5,${status.name},Acme Builders`,
    ]);
    // "All fields": every field of the view's rows, the view's filters still applied.
    const all = parse(
      (await admin.get(`/api/exports/download?resource=sites&view=${view.body.data.id}&columns=all`)).body,
    );
    expect(all).toHaveLength(2);
    expect(all[0].startsWith('Name,Type,')).toBe(true);
    expect(all[0]).toContain('Kickoff date');
  });

  it('writes a background export as a workbook too', async () => {
    const res = await admin.post('/api/exports', {
      resource: 'sites',
      params: { filter: { type: 'pla' } },
      columns: ['name'],
      format: 'xlsx',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.file_name).toMatch(/\.xlsx$/);
    await t.app.jobs.drain();
    expect((await admin.get(`/api/exports/${res.body.data.id}`)).body.data).toMatchObject({
      status: 'complete',
      row_count: 1,
    });
    expect(await workbookAt(`/api/exports/${res.body.data.id}/download`)).toEqual([['Name'], ['Gamma, "quoted" Hall']]);
  });
});

describe('An export longer than a page', () => {
  it('writes every row once, in the list order, each page read from where the one before ended', async () => {
    const count = 2_345; // over two pages of a CSV export's 1,000 rows (four of an XLSX export's 500)
    await sql`insert into sites (name, type, city, created_at, updated_at)
      select 'Paged ' || lpad(g::text, 5, '0'), 'union', 'Pagedville', now(), now()
      from generate_series(1, ${count}) g`.execute(t.ctx.db);
    try {
      const query = 'resource=sites&filter[city]=Pagedville&sort=name&order=desc&columns=name';
      const csv = parse((await admin.get(`/api/exports/download?${query}`)).body);
      const names = Array.from({ length: count }, (_, i) => `Paged ${String(count - i).padStart(5, '0')}`);
      expect(csv).toEqual(['Name', ...names]);
      expect((await workbookAt(`/api/exports/download?${query}&format=xlsx`)).slice(1)).toEqual(
        names.map((name) => [name]),
      );
    } finally {
      await sql`delete from sites where city = 'Pagedville'`.execute(t.ctx.db);
    }
  });
});
