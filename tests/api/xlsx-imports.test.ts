import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedReadyMadeImporters } from '../../src/server/imports/ready-made.js';
import { fixture, importerId, runImport, upload } from '../fixtures/upload.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * Excel workbooks through the importers (src/server/imports/xlsx-reader.ts, docs/imports.md "Excel workbooks"): the
 * vendor file saved as .xlsx, with numbers and dates typed as Excel keeps them, imports to the same sites as its CSV;
 * a sheet is chosen by name or position; what is not a workbook, or names no sheet of it, is a 422.
 */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const PLAIN_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** The CSV text as a workbook, each cell typed as Excel would keep it: numbers as numbers, ISO dates as dates. */
async function asWorkbook(csv: string, sheets: Record<string, unknown[][]> = {}): Promise<Buffer> {
  const rows = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Vendor export');
  for (const [i, row] of rows.entries()) {
    sheet.addRow(
      i === 0
        ? row
        : row.map((cell) =>
            ISO_DATE.test(cell) ? new Date(`${cell}T00:00:00Z`) : PLAIN_NUMBER.test(cell) ? Number(cell) : cell,
          ),
    );
  }
  for (const row of sheet.getRows(2, rows.length) ?? [])
    row.eachCell((cell) => {
      if (cell.value instanceof Date) cell.numFmt = 'mm/dd/yyyy';
    });
  for (const [name, more] of Object.entries(sheets)) workbook.addWorksheet(name).addRows(more);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The sites an import left, by vendor id, without what differs between two databases' runs (times). */
async function sitesOf(app: TestApp) {
  const rows = await app.ctx.db
    .selectFrom('sites')
    .selectAll()
    .where('external_id', 'like', '2026%')
    .orderBy('external_id')
    .execute();
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).filter(([key]) => !key.endsWith('_at') && key !== 'search_text')),
  );
}

const counts = (done: Record<string, unknown>) => ({
  status: done.status,
  created_count: done.created_count,
  updated_count: done.updated_count,
  skipped_count: done.skipped_count,
  failed_count: done.failed_count,
  total_rows: done.total_rows,
});

describe('an XLSX round trip of the vendor file', () => {
  let viaCsv: { counts: object; sites: object[] };

  it('imports the CSV (the reference)', async () => {
    const t = await startTestApp();
    try {
      await seedReadyMadeImporters(t.database.db);
      const admin = await t.admin();
      const done = await runImport(t, admin, await importerId(t, 'vendor-job-sites'), [
        { name: 'vendor-sites.csv', content: fixture('vendor-sites.csv') },
      ]);
      viaCsv = { counts: counts(done), sites: await sitesOf(t) };
      expect(viaCsv.counts).toMatchObject({ status: 'complete', created_count: 50 });
    } finally {
      await t.close();
    }
  }, 180_000);

  it('imports the same file saved as .xlsx to the same sites', async () => {
    const t = await startTestApp();
    try {
      await seedReadyMadeImporters(t.database.db);
      const admin = await t.admin();
      const workbook = await asWorkbook(fixture('vendor-sites.csv').toString('utf8'));
      const done = await runImport(t, admin, await importerId(t, 'vendor-job-sites'), [
        { name: 'vendor-sites.xlsx', content: workbook, type: 'application/octet-stream' },
      ]);
      expect(counts(done)).toEqual(viaCsv.counts);
      expect(await sitesOf(t)).toEqual(viaCsv.sites);
    } finally {
      await t.close();
    }
  }, 180_000);
});

describe('workbooks', () => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await startTestApp();
    await seedReadyMadeImporters(t.database.db);
    admin = await t.admin();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const contractorsCsv = 'License #,Company Name,Union Status\n900001,First Sheet Builders,Union\n';
  const second = [
    ['License #', 'Company Name', 'Union Status'],
    [900002, 'Second Sheet Electric', 'Union'],
    [900003, 'Second Sheet Plumbing', 'Open Shop'],
  ];

  it('preview the first sheet by default, and another one chosen by name or position', async () => {
    const importer = await importerId(t, 'contractor-list');
    const workbook = await asWorkbook(contractorsCsv, { Electricians: second });
    const preview = async (fields: Record<string, string | number>) =>
      upload(t, admin, '/api/imports/preview', { importer_id: importer, ...fields }, [
        { name: 'contractors.xlsx', content: workbook },
      ]);
    const first = await preview({});
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(JSON.stringify(first.body)).toContain('First Sheet Builders');
    expect(first.body.data).toMatchObject({ sheets: ['Vendor export', 'Electricians'], sheet: 'Vendor export' });
    for (const sheet of ['Electricians', '2']) {
      const chosen = await preview({ sheet });
      expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
      expect(JSON.stringify(chosen.body)).toContain('Second Sheet Plumbing');
      expect(JSON.stringify(chosen.body)).not.toContain('First Sheet Builders');
    }
    const missing = await preview({ sheet: 'Plumbers' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.sheet[0]).toContain('"Electricians"');
  });

  it('refuse a file named .xlsx that is not a workbook', async () => {
    const res = await upload(t, admin, '/api/imports', { importer_id: await importerId(t, 'contractor-list') }, [
      { name: 'contractors.xlsx', content: contractorsCsv },
    ]);
    expect(res.status).toBe(422);
    expect(res.body.errors.files[0]).toContain('not an Excel (.xlsx) workbook');
  });

  it('refuse a damaged workbook with a 422 saying so, the server answering after it', async () => {
    const workbook = await asWorkbook(contractorsCsv);
    const damaged = Buffer.concat([workbook.subarray(0, 64), Buffer.alloc(256, 7)]);
    const res = await upload(t, admin, '/api/imports', { importer_id: await importerId(t, 'contractor-list') }, [
      { name: 'contractors.xlsx', content: damaged },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors.files[0]).toContain('"contractors.xlsx" cannot be read as an Excel workbook');
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
