/**
 * CSV for exports (RFC 4180: comma separated, CRLF line ends, quotes doubled) with formula-injection protection
 * (DESIGN.md): a text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so a
 * spreadsheet shows it as text instead of running it. Numbers are written as numbers (a negative number stays a
 * number; only text is escaped).
 */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => unknown;
}

const DANGEROUS = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'boolean') text = value ? 'true' : 'false';
  else if (value instanceof Date) text = value.toISOString();
  else {
    text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    if (DANGEROUS.test(text)) text = `'${text}`;
  }
  return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<T>(columns: CsvColumn<T>[], rows: Iterable<T>): string {
  const lines = [columns.map((c) => csvCell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(c.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** A safe file name for Content-Disposition: `market-share-2026-11-21.csv`. */
export function csvFileName(base: string, now = new Date()): string {
  return `${base.replace(/[^a-z0-9-]+/gi, '-')}-${now.toISOString().slice(0, 10)}.csv`;
}
