import Papa from 'papaparse';

/**
 * The one CSV writer of the server (RFC 4180: comma separated, CRLF line ends, quotes doubled; papaparse's `unparse`
 * does the quoting), for list exports, import error reports and reports.
 *
 * Formula injection (DESIGN.md: "A CSV export protects against formula injection"): a text cell starting with `=`,
 * `+`, `-`, `@`, a tab or a carriage return is prefixed with `'`, so a spreadsheet shows it as text instead of
 * running it. Numbers stay numbers, and so does text that is a plain negative number (`-12.5`). The guard is applied
 * here rather than with papaparse's `escapeFormulae`, which also puts every escaped cell in quotes
 * (`"'@SUM(A1)"` rather than `'@SUM(A1)`).
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;
const UNPARSE: Papa.UnparseConfig = { newline: '\r\n', escapeFormulae: false };

export const CSV_BOM = '\uFEFF';

/** A value as text: dates as ISO text, lists joined with `; `, objects as JSON (a CSV's cell, an .xlsx text cell). */
export function plainCellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value))
    return value.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v))).join('; ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A value as the text of its CSV cell, formulas defused. */
function cellText(value: unknown): string {
  const text = plainCellText(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return text;
  return FORMULA_START.test(text) && !NEGATIVE_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * Rows as CSV text, each line ended by CRLF. `asIs`: text cells as they are, not defused: for a CSV the server reads
 * back itself (an Excel sheet turned into the CSV an import reads, imports/xlsx-reader.ts), never for a download.
 */
export function csvLines(rows: ReadonlyArray<readonly unknown[]>, options: { asIs?: boolean } = {}): string {
  if (rows.length === 0) return '';
  const text = options.asIs ? (rows as unknown[][]) : rows.map((row) => row.map(cellText));
  return Papa.unparse(text, UNPARSE) + '\r\n';
}

/** One cell as it is written: escaped against formula injection, quoted when it needs to be. */
export function csvCell(value: unknown): string {
  return Papa.unparse([[cellText(value)]], UNPARSE);
}

/** A whole CSV text with a UTF-8 BOM (so Excel reads accents right). For large data, write `csvLines` page by page. */
export function writeCsv(rows: ReadonlyArray<readonly unknown[]>, options: { bom?: boolean } = {}): string {
  return (options.bom === false ? '' : CSV_BOM) + csvLines(rows);
}
