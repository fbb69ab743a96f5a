import ExcelJS from 'exceljs';
import unzipper from 'unzipper';
import { ValidationError } from '../http/errors.js';

/** What reading a workbook learnt: its sheets' names, in the file's order, and the one read. */
export interface WorkbookFacts {
  sheets: string[];
  sheet: string | null;
}

/**
 * A cell's value as the text an import reads (docs/imports.md "Excel workbooks"): numbers as plain numbers to 15
 * significant digits (what Excel shows, without its display format: `155000000`, not `$155,000,000.00`); dates as
 * ISO 8601 (`2026-10-15`, with ` 14:30:00` when the cell has a time of day); formulas as their last result; rich
 * text and links as their text; errors (`#N/A`) empty.
 */
export function xlsxCellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(Number(value.toPrecision(15))) : '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  }
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('formula' in value || 'sharedFormula' in value)
    return xlsxCellText((value as { result?: ExcelJS.CellValue }).result);
  if ('text' in value) return String((value as { text: unknown }).text ?? '');
  return '';
}

/**
 * The parts of exceljs's streaming WorkbookReader (exceljs 4.4, lib/stream/xlsx/workbook-reader.js) this reader
 * drives itself: each parses one part of the workbook from a stream of it.
 */
interface WorkbookParts {
  model?: { sheets?: Array<{ name: string; rId: string }> };
  workbookRels?: Array<{ Id: string; Target: string }>;
  _parseRels(entry: NodeJS.ReadableStream): Promise<void>;
  _parseWorkbook(entry: NodeJS.ReadableStream): Promise<void>;
  _parseSharedStrings(entry: NodeJS.ReadableStream): AsyncGenerator<unknown>;
  _parseStyles(entry: NodeJS.ReadableStream): Promise<void>;
  _parseWorksheet(
    iterator: AsyncIterable<Buffer>,
    sheetNo: string,
  ): Generator<{ value: AsyncIterable<ExcelJS.Row> & { name?: string } }>;
}

/** A relationship's target (`worksheets/sheet1.xml`, or absolute `/xl/worksheets/sheet1.xml`) as a path in the zip. */
const partPath = (target: string) => (target.startsWith('/') ? target.slice(1) : `xl/${target}`);

/**
 * Streams one sheet of an .xlsx file as rows of cell texts, a row at a time, so a workbook of any length takes little
 * memory. `sheet` names the sheet to read, or its position from 1 in the workbook's tabs; the first one when absent.
 * `facts` is filled in as the workbook is read. An unknown sheet is a 422 naming the sheets there are.
 *
 * The zip is read by its central directory (the file is on disk), the parts a sheet needs first (relationships,
 * workbook, shared strings, styles), then only the chosen sheet. exceljs's own streaming read (unzipper's one-pass
 * Parse, in stored order) loses entries when its reader awaits between them, and exceljs stores `xl/workbook.xml`
 * last, so sheets sometimes came without their names or not at all (exceljs#3064, node-unzipper#234): a 422 for a
 * sheet that is there, now and then.
 */
export async function* readXlsxRows(
  file: string,
  sheet: string | undefined,
  facts: WorkbookFacts,
): AsyncGenerator<string[][]> {
  const directory = await unzipper.Open.file(file);
  const entries = new Map(directory.files.filter((entry) => entry.type === 'File').map((entry) => [entry.path, entry]));
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  }) as unknown as WorkbookParts;
  const part = (name: string) => entries.get(name)?.stream();
  const rels = part('xl/_rels/workbook.xml.rels');
  const workbook = part('xl/workbook.xml');
  if (!rels || !workbook) throw new Error('it has no workbook part (xl/workbook.xml and its relationships)');
  await reader._parseRels(rels);
  await reader._parseWorkbook(workbook);
  const sharedStrings = part('xl/sharedStrings.xml');
  if (sharedStrings) for await (const _ of reader._parseSharedStrings(sharedStrings));
  const styles = part('xl/styles.xml');
  if (styles) await reader._parseStyles(styles);

  // The workbook's worksheets in tab order (chart sheets have no rows and are left out).
  const worksheets = (reader.model?.sheets ?? []).flatMap(({ name, rId }) => {
    const target = reader.workbookRels?.find((rel) => rel.Id === rId)?.Target;
    const sheetNo = target && /^worksheets\/sheet(\d+)\.xml$/.exec(target.replace(/^\/xl\//, ''))?.[1];
    const entry = target && entries.get(partPath(target));
    return sheetNo && entry ? [{ name, sheetNo, entry }] : [];
  });
  facts.sheets.push(...worksheets.map(({ name }) => name));
  const wanted = sheet?.trim() || undefined;
  const chosen = worksheets.find(
    ({ name }, index) => wanted === undefined || wanted === name || wanted === String(index + 1),
  );
  if (!chosen) {
    const there = facts.sheets.length ? `: it has ${facts.sheets.map((s) => `"${s}"`).join(', ')}` : ' with no sheet';
    throw new ValidationError({
      sheet: [wanted ? `There is no sheet "${wanted}" in the workbook${there}.` : `The workbook has no sheet${there}.`],
    });
  }
  facts.sheet = chosen.name;
  const [{ value: worksheet }] = reader._parseWorksheet(chosen.entry.stream(), chosen.sheetNo);
  let batch: string[][] = [];
  let next = 1;
  for await (const row of worksheet) {
    // Rows without any cell are not in the file: they are blank lines of the CSV the importers read.
    for (; next < row.number; next++) batch.push([]);
    next = row.number + 1;
    const values = row.values as ExcelJS.CellValue[];
    const cells: string[] = [];
    for (let i = 1; i < values.length; i++) cells.push(xlsxCellText(values[i]));
    batch.push(cells);
    if (batch.length >= 500) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
