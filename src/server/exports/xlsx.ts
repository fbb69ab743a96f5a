import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { plainCellText } from './csv.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A value as its cell keeps it: numbers and dates typed (Excel sorts and sums them), anything else as text. */
function cellValue(value: unknown): ExcelJS.CellValue {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'boolean') return value;
  const text = plainCellText(value);
  return text === '' ? null : text;
}

/**
 * Writes rows (the header first) as one sheet of an .xlsx workbook to `out`, with exceljs's streaming writer: each row
 * is committed as it is added, so memory stays flat whatever the number of rows. Text is a text cell, never a formula
 * (the formula injection a CSV has to be defused against cannot happen). Returns the data rows written.
 */
export async function writeXlsx(
  batches: AsyncIterable<unknown[][]>,
  out: Writable,
  sheetName: string,
  /** Told the rows written after each batch (the export job's heartbeat). */
  progress?: (rows: number) => Promise<unknown>,
) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31) || 'Export');
  let rows = -1;
  for await (const batch of batches) {
    for (const row of batch) {
      const added = sheet.addRow(row.map(cellValue));
      for (const [i, value] of row.entries())
        if (value instanceof Date) added.getCell(i + 1).numFmt = 'yyyy-mm-dd hh:mm:ss';
      added.commit();
      rows++;
    }
    await progress?.(Math.max(0, rows));
  }
  sheet.commit();
  await workbook.commit();
  return Math.max(0, rows);
}
