/**
 * The one CSV writer (RFC 4180) of the server, for exports, import error reports and reports. Cells starting
 * with `=`, `+`, `-` or `@` (or a tab or carriage return) are prefixed with `'` so a spreadsheet shows them as
 * text instead of running them as formulas (DESIGN.md: "A CSV export protects against formula injection").
 * Plain negative numbers (`-12.5`) are numbers, not formulas, and are kept as they are.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?$/;

/** One cell's text, escaped against formula injection, then quoted when it holds a comma, quote or line break. */
export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (value instanceof Date) text = value.toISOString();
  else if (Array.isArray(value)) text = value.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v))).join('; ');
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  if (FORMULA_START.test(text) && !(typeof value === 'number' || PLAIN_NUMBER.test(text))) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly unknown[]): string {
  return cells.map(csvCell).join(',') + '\r\n';
}

/** A whole CSV text with a UTF-8 BOM (so Excel reads accents right). For large data use csvLine per row. */
export function writeCsv(rows: ReadonlyArray<readonly unknown[]>, options: { bom?: boolean } = {}): string {
  return (options.bom === false ? '' : '\uFEFF') + rows.map(csvLine).join('');
}

export const CSV_BOM = '\uFEFF';
