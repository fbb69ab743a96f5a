import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { readXlsxRows, type WorkbookFacts } from '../../src/server/imports/xlsx-reader.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'om-unit-xlsx-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A workbook as exceljs writes one (its `xl/workbook.xml` stored after the sheets), kept in a file. */
async function workbookFile(sheets: Record<string, unknown[][]>): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) workbook.addWorksheet(name).addRows(rows);
  const file = path.join(folder, `${Object.keys(sheets).join('-')}-${Date.now()}.xlsx`);
  writeFileSync(file, Buffer.from(await workbook.xlsx.writeBuffer()));
  return file;
}

/** Reads a sheet as an import does, slowly: other work gets the event loop after each batch of rows. */
async function readSlowly(file: string, sheet?: string) {
  const facts: WorkbookFacts = { sheets: [], sheet: null };
  const rows: string[][] = [];
  for await (const batch of readXlsxRows(file, sheet, facts)) {
    rows.push(...batch);
    await sleep(5);
  }
  return { facts, rows };
}

describe('the workbook reader', () => {
  const sheets = {
    'Vendor export': [
      ['License #', 'Company Name'],
      [900001, 'First Sheet Builders'],
    ],
    Electricians: [
      ['License #', 'Company Name'],
      [900002, 'Second Sheet Electric'],
      [900003, 'Second Sheet Plumbing'],
    ],
  };

  it('names every sheet in tab order and reads the one asked for: the first, by name or by position', async () => {
    const file = await workbookFile(sheets);
    for (const [asked, name] of [
      [undefined, 'Vendor export'],
      ['Electricians', 'Electricians'],
      ['2', 'Electricians'],
    ] as const) {
      const { facts, rows } = await readSlowly(file, asked);
      expect(facts).toEqual({ sheets: ['Vendor export', 'Electricians'], sheet: name });
      expect(rows).toEqual(sheets[name].map((row) => row.map(String)));
    }
  });

  it('reads a workbook whole on a slow disk', async () => {
    // exceljs's own streaming read parks sheets stored before the shared strings in temporary files; when making
    // one was slow (a busy CI machine), the zip's last entry, xl/workbook.xml, was lost and the read failed with
    // "Cannot read properties of undefined (reading 'sheets')", every time here. The temporary files are made slow.
    const tmp = createRequire(createRequire(import.meta.url).resolve('exceljs/lib/stream/xlsx/workbook-reader.js'))(
      'tmp',
    );
    const file = await workbookFile(sheets);
    const made = tmp.file;
    tmp.file = (...args: unknown[]) => setTimeout(() => made(...args), 30);
    try {
      for (const asked of ['Vendor export', 'Electricians'] as const) {
        const { facts, rows } = await readSlowly(file, asked);
        expect(facts.sheet).toBe(asked);
        expect(rows[1][1]).toBe(sheets[asked][1][1]);
      }
    } finally {
      tmp.file = made;
    }
  });

  it('refuses a sheet that is not there, naming those that are', async () => {
    const file = await workbookFile(sheets);
    await expect(readSlowly(file, 'Plumbers')).rejects.toMatchObject({
      errors: { sheet: ['There is no sheet "Plumbers" in the workbook: it has "Vendor export", "Electricians".'] },
    });
  });

  it('keeps rows without cells as blank lines, and reads a sheet of many rows in batches', async () => {
    const many = Array.from({ length: 1_200 }, (_, i) => [i + 1, `Row ${i + 1}`]);
    const file = await workbookFile({ Only: many });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.getWorksheet('Only')!;
    sheet.spliceRows(3, 1);
    sheet.insertRow(3, []);
    await workbook.xlsx.writeFile(file);
    const facts: WorkbookFacts = { sheets: [], sheet: null };
    const batches: number[] = [];
    const rows: string[][] = [];
    for await (const batch of readXlsxRows(file, undefined, facts)) {
      batches.push(batch.length);
      rows.push(...batch);
    }
    expect(batches).toEqual([500, 500, 200]);
    expect(rows[1]).toEqual(['2', 'Row 2']);
    expect(rows[2]).toEqual([]);
    expect(rows[3]).toEqual(['4', 'Row 4']);
  });
});
