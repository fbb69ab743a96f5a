import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvCell, writeCsv } from '../../src/server/exports/csv.js';
import { cleanHeaders, readCsv } from '../../src/server/imports/csv-reader.js';
import { CsvScanner } from '../../src/server/imports/csv-scan.js';
import { parseAddress } from '../../src/server/imports/mapper.js';
import { notCsvReason } from '../../src/server/imports/uploads.js';
import { createBatchValidator } from '../../src/server/records/batch-writer.js';
import type { FieldSpec } from '../../src/server/records/resource.js';
import { validateInput } from '../../src/server/records/validate.js';

const folder = mkdtempSync(path.join(os.tmpdir(), 'om-unit-csv-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What the upload's worker learns of a file (imports/csv-scan.ts), its bytes pushed in small chunks. */
async function inspectFile(file: string) {
  const scanner = new CsvScanner({
    limits: { rows: 1_000, columns: 500, cellBytes: 65_536 },
    headRecords: 60,
    headBytes: 1_048_576,
  });
  const bytes = readFileSync(file);
  for (let at = 0; at < bytes.length; at += 5) scanner.push(bytes.subarray(at, at + 5));
  return scanner.end();
}

describe('the CSV writer', () => {
  it('escapes cells that a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvCell('+1 555')).toBe("'+1 555");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell('-12.5')).toBe('-12.5');
    expect(csvCell('plain, with comma')).toBe('"plain, with comma"');
    expect(csvCell(null)).toBe('');
    expect(csvCell([1, 2])).toBe('1; 2');
  });
  it('writes rows with CRLF and a BOM', () => {
    expect(
      writeCsv([
        ['a', 'b'],
        [1, 'x\ny'],
      ]),
    ).toBe('\uFEFFa,b\r\n1,"x\ny"\r\n');
  });
});

describe('reading CSV files', () => {
  it('names empty and repeated headers', () => {
    expect(cleanHeaders(['Name', '', ' Name ', 'name', '\uFEFFID'])).toEqual([
      'Name',
      'Column 2',
      'Name (2)',
      'name (3)',
      'ID',
    ]);
  });

  it('streams records with their real line numbers across quoted line breaks and blank lines', async () => {
    const file = path.join(folder, 'lines.csv');
    writeFileSync(file, '\uFEFF\r\nA,B\r\n1,"two\r\nlines"\r\n\r\n3,x\r\n4\r\n');
    const facts = await inspectFile(file);
    expect(facts).toMatchObject({ encoding: 'utf8', hasBom: true });
    const records = [];
    for await (const record of readCsv(file, facts.encoding)) records.push(record);
    expect(records.map((r) => [r.line, r.index, r.cells])).toEqual([
      [2, -1, ['A', 'B']],
      [3, 0, ['1', 'two\r\nlines']],
      [5, 1, ['']],
      [6, 2, ['3', 'x']],
      [7, 3, ['4']],
    ]);
  });

  it('reads Windows-1252 when the bytes are not UTF-8', async () => {
    const file = path.join(folder, 'cp1252.csv');
    writeFileSync(
      file,
      Buffer.from([0x4e, 0x61, 0x6d, 0x65, 0x0a, 0x43, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x78, 0x94, 0x0a]),
    );
    const facts = await inspectFile(file);
    expect(facts.encoding).toBe('windows-1252');
    const rows = [];
    for await (const r of readCsv(file, facts.encoding)) rows.push(r.cells);
    expect(rows).toEqual([['Name'], ['Café “x”']]);
  });

  it('tells binary and spreadsheet files from text', () => {
    expect(notCsvReason(Buffer.from('PK\x03\x04rest'))).toMatch(/Excel workbook/);
    expect(notCsvReason(Buffer.from('%PDF-1.7'))).toMatch(/PDF/);
    expect(notCsvReason(Buffer.from([0xff, 0xfe, 0x41, 0x00]))).toMatch(/UTF-16/);
    expect(notCsvReason(Buffer.from([0x41, 0x00, 0x42]))).toMatch(/binary/);
    expect(notCsvReason(Buffer.from('Name,City\nA,B\n'))).toBeNull();
  });

  it('splits a one-line address', () => {
    expect(parseAddress('123 Main St, Los Angeles, CA 90012')).toEqual({
      street: '123 Main St',
      city: 'Los Angeles',
      state: 'CA',
      postal_code: '90012',
    });
    expect(parseAddress('1 Front St W, Toronto, ON M5V 3L9')).toEqual({
      street: '1 Front St W',
      city: 'Toronto',
      state: 'ON',
      postal_code: 'M5V 3L9',
    });
    expect(parseAddress('Somewhere')).toEqual({ street: 'Somewhere' });
  });
});

describe('the batch validator gives the same answers as validateInput', () => {
  const fields: Record<string, FieldSpec> = {
    name: { kind: 'text', required: true, max: 20 },
    email: { kind: 'email' },
    phone: { kind: 'phone' },
    bid_date: { kind: 'date' },
    value: { kind: 'number', min: 0 },
    count: { kind: 'integer' },
    flag: { kind: 'boolean' },
    type: { kind: 'enum', options: ['a', 'b'] },
    ids: { kind: 'integer[]' },
    hidden_required: { kind: 'text', required: true },
  };
  const bodies: Array<Record<string, unknown>> = [
    {
      name: 'Ok',
      email: 'a@b.co',
      bid_date: '2026-01-01',
      value: '12.5',
      count: '3',
      flag: 'true',
      type: 'a',
      ids: [1, 2],
      hidden_required: 'x',
    },
    {
      name: '',
      email: 'nope',
      phone: 'call me',
      bid_date: '2026-02-30x',
      value: -1,
      count: 1.5,
      flag: 'maybe',
      type: 'c',
      ids: ['x'],
    },
    { name: 'x'.repeat(30), unknown_field: 1 },
    { email: '' },
    { name: '  Trim me  ', hidden_required: '' },
  ];
  for (const mode of ['create', 'update'] as const) {
    for (const hidden of [new Set<string>(), new Set(['hidden_required'])]) {
      it(`${mode}, hidden: ${[...hidden].join(',') || 'none'}`, () => {
        const batch = createBatchValidator(fields, ['id']);
        for (const body of bodies) {
          const expected = capture(() => validateInput(body, fields, { mode, readOnly: ['id'], hidden }));
          const actual = capture(() => batch(body, { mode, hidden }));
          expect(actual).toEqual(expected);
        }
      });
    }
  }
});

function capture(fn: () => unknown) {
  try {
    return { ok: fn() };
  } catch (error: any) {
    return { errors: error.errors ?? error.message };
  }
}
