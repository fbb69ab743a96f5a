import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { writeXlsx } from '../../src/server/exports/xlsx.js';

/** The workbook `writeXlsx` writes for `rows` (the header first), read back: its first sheet's cell values. */
async function written(rows: unknown[][], timeZone: string) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  async function* batches() {
    yield rows;
  }
  await writeXlsx(batches(), out, { sheetName: 'Sites', cells: [undefined, 'datetime'], timeZone });
  out.end();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  const values: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => values.push((row.values as unknown[]).slice(1)));
  return values;
}

describe('an XLSX export’s date-times', () => {
  it('are written as the organization’s clock shows them, in each zone asked for', async () => {
    const rows = [
      ['Name', 'Updated'],
      ['Winter', '2026-01-15T18:30:00Z'],
      ['Summer', '2026-07-15T18:30:00Z'],
    ];
    // Los Angeles is 8 hours behind UTC in January and 7 in July; Berlin 1 and 2 ahead.
    expect(await written(rows, 'America/Los_Angeles')).toEqual([
      ['Name', 'Updated'],
      ['Winter', new Date(Date.UTC(2026, 0, 15, 10, 30))],
      ['Summer', new Date(Date.UTC(2026, 6, 15, 11, 30))],
    ]);
    expect(await written(rows, 'Europe/Berlin')).toEqual([
      ['Name', 'Updated'],
      ['Winter', new Date(Date.UTC(2026, 0, 15, 19, 30))],
      ['Summer', new Date(Date.UTC(2026, 6, 15, 20, 30))],
    ]);
  });
});
