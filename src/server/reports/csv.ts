import { csvLines } from '../exports/csv.js';

/** One column of a report's CSV: its header and how to read its value from a row. */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => unknown;
}

/** A report as CSV (the server's one writer, exports/csv.ts): the headers, then one line per row. */
export function toCsv<T>(columns: CsvColumn<T>[], rows: Iterable<T>): string {
  const lines: unknown[][] = [columns.map((c) => c.header)];
  for (const row of rows) lines.push(columns.map((c) => c.value(row)));
  return csvLines(lines);
}

/** A safe file name for Content-Disposition: `market-share-2026-11-21.csv`. */
export function csvFileName(base: string, now = new Date()): string {
  return `${base.replace(/[^a-z0-9-]+/gi, '-')}-${now.toISOString().slice(0, 10)}.csv`;
}
