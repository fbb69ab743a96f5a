import ExcelJS from 'exceljs';
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
 * Streams one sheet of an .xlsx file as rows of cell texts (exceljs's streaming reader: a row at a time, the shared
 * strings kept, sheets that come before the shared strings parked in a temporary file by exceljs), so a workbook of
 * any length takes little memory. `sheet` names the sheet to read, or its position from 1; the first one when absent.
 * `facts` is filled in as the workbook is read. An unknown sheet is a 422 naming the sheets there are.
 */
export async function* readXlsxRows(
  file: string,
  sheet: string | undefined,
  facts: WorkbookFacts,
): AsyncGenerator<string[][]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  const wanted = sheet?.trim() || undefined;
  for await (const worksheet of reader) {
    const name = (worksheet as unknown as { name: string }).name;
    facts.sheets.push(name);
    const position = String(facts.sheets.length);
    const chosen = facts.sheet === null && (wanted === undefined || wanted === name || wanted === position);
    let batch: string[][] = [];
    let next = 1;
    for await (const row of worksheet) {
      if (!chosen) continue;
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
    if (chosen) {
      facts.sheet = name;
      if (batch.length) yield batch;
    }
  }
  if (facts.sheet === null) {
    const there = facts.sheets.length ? `: it has ${facts.sheets.map((s) => `"${s}"`).join(', ')}` : ' with no sheet';
    throw new ValidationError({
      sheet: [wanted ? `There is no sheet "${wanted}" in the workbook${there}.` : `The workbook has no sheet${there}.`],
    });
  }
}
