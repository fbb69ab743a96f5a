import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { plainCellText } from './csv.js';
import type { SheetCell } from './display-columns.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const NUMBER_FORMATS: Record<SheetCell, string | undefined> = {
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm',
  money: '#,##0.00',
  number: undefined,
};

/** A time zone's clock, made once per zone: an export has a date-time or two on each of its 100,000 rows. */
const clocks = new Map<string, Intl.DateTimeFormat>();
function clockOf(timeZone: string): Intl.DateTimeFormat {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    clocks.set(timeZone, clock);
  }
  return clock;
}

/** How the clock writes a moment: "12/01/2026, 04:55:12" (en-US, 24 hours). */
const CLOCK_TEXT = /^(\d+)\/(\d+)\/(\d+), (\d+):(\d+):(\d+)$/;

/**
 * A moment as the organization's clock shows it, kept as a Date whose UTC fields are that wall-clock time: a
 * spreadsheet's date-time has no time zone, and exceljs writes a Date's UTC fields.
 */
function wallClock(moment: Date, timeZone: string): Date {
  const clock = clockOf(timeZone);
  // Read from the clock's text ("12/01/2026, 04:55:12"), a third of the time formatToParts takes with its object per
  // part; the parts when the text is not of that shape.
  const shown = CLOCK_TEXT.exec(clock.format(moment));
  if (shown) {
    const [, month, day, year, hour, minute, second] = shown.map(Number);
    return new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  }
  const parts = Object.fromEntries(clock.formatToParts(moment).map((part) => [part.type, Number(part.value)]));
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second));
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A value as its cell keeps it: the column's dates, date-times and numbers typed (Excel sorts and sums them), anything else as text. */
function cellValue(value: unknown, cell: SheetCell | undefined, timeZone: string): ExcelJS.CellValue {
  if (value === null || value === undefined || value === '') return null;
  if (cell === 'date' && typeof value === 'string') {
    const day = DAY.exec(value);
    if (day) return new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
  }
  if (cell === 'datetime' && (typeof value === 'string' || value instanceof Date)) {
    const moment = new Date(value);
    if (!Number.isNaN(moment.getTime())) return wallClock(moment, timeZone);
  }
  if ((cell === 'number' || cell === 'money') && typeof value === 'string' && value.trim() !== '') {
    const number = Number(value);
    if (Number.isFinite(number)) return number;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : wallClock(value, timeZone);
  if (typeof value === 'boolean') return value;
  const text = plainCellText(value);
  return text === '' ? null : text;
}

/**
 * The style of a cell: one object per number format (without a format, one for dates and one for the rest), shared by
 * every cell that has it. exceljs finds a style's number in the workbook by rendering the style as XML, unless it has
 * seen that very object before (a WeakMap): a style object of each cell's own made about 60 kB of garbage a row, half
 * of what the whole export made. The file is the same byte for byte.
 */
const sharedStyles = new Map<string, Partial<ExcelJS.Style>>();
function styleOf(numFmt: string | undefined, value: ExcelJS.CellValue): Partial<ExcelJS.Style> {
  // Without a format exceljs gives a date cell a date format of its own, any other cell none.
  const key = numFmt ?? (value instanceof Date ? 'date without a format' : '');
  let style = sharedStyles.get(key);
  if (!style) {
    style = numFmt ? { numFmt } : {};
    sharedStyles.set(key, style);
  }
  return style;
}

export interface SheetOptions {
  sheetName: string;
  /** Each column's type (exports/display-columns.ts sheetCells); a column without one is written as its value. */
  cells?: ReadonlyArray<SheetCell | undefined>;
  /** The organization's time zone: date-times are written as its clock shows them. */
  timeZone: string;
  /** Told the rows written after each batch (the export job's heartbeat). */
  progress?: (rows: number) => Promise<unknown>;
}

/**
 * Waits while `out` holds more than it wants (a download read slowly): exceljs writes the zip into it without asking,
 * so the next rows are made only once it has taken what came before. Throws when it was closed meanwhile (the person
 * left): there is nobody to write the rest for.
 */
async function roomIn(out: Writable) {
  if (out.writableNeedDrain && !out.destroyed)
    await new Promise<void>((resolve) => {
      const done = () => {
        out.off('drain', done);
        out.off('close', done);
        resolve();
      };
      out.on('drain', done);
      out.on('close', done);
    });
  if (out.destroyed) throw new Error('The export was no longer being read.');
}

/**
 * Writes rows (the header first) as one sheet of an .xlsx workbook to `out`, with exceljs's streaming writer: each row
 * is committed as it is added, so memory stays flat whatever the number of rows. Text is a text cell, never a formula
 * (the formula injection a CSV has to be defused against cannot happen). Returns the data rows written.
 */
export async function writeXlsx(batches: AsyncIterable<unknown[][]>, out: Writable, options: SheetOptions) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(options.sheetName.slice(0, 31) || 'Export');
  const cells = options.cells ?? [];
  let rows = -1;
  for await (const batch of batches) {
    for (const row of batch) {
      const header = rows === -1;
      const values = row.map((value, i) => cellValue(value, header ? undefined : cells[i], options.timeZone));
      const added = sheet.addRow(values);
      for (const [i, value] of row.entries()) {
        const format = header
          ? undefined
          : cells[i]
            ? NUMBER_FORMATS[cells[i]!]
            : value instanceof Date
              ? 'yyyy-mm-dd hh:mm:ss'
              : undefined;
        added.getCell(i + 1).style = styleOf(format, values[i]);
      }
      added.commit();
      rows++;
    }
    await options.progress?.(Math.max(0, rows));
    await roomIn(out);
  }
  sheet.commit();
  await workbook.commit();
  return Math.max(0, rows);
}
