import { createReadStream } from 'node:fs';
import { type Readable, Transform } from 'node:stream';
import Papa from 'papaparse';
import type { InputLimits } from '../config/config.js';
import { LimitExceeded } from '../config/input-limits.js';

export type CsvEncoding = 'utf8' | 'windows-1252';

export interface CsvRecord {
  /** The line of the file where the record starts (the header is line 1 when the file starts with it). */
  line: number;
  /** 0-based index of the data record after the header (blank lines count, so resuming can skip by index). */
  index: number;
  cells: string[];
}

/** Bytes → text in the file's encoding, chunk by chunk (a character split across chunks is kept whole); the BOM is dropped. */
function decodeStream(encoding: CsvEncoding) {
  const decoder = new TextDecoder(encoding === 'utf8' ? 'utf-8' : 'windows-1252');
  // Text chunks travel as they are (object mode), not turned back into bytes for the parser to decode again.
  const text = (value: string) => (value ? value : undefined);
  return new Transform({
    readableObjectMode: true,
    decodeStrings: true,
    transform(chunk: Buffer, _enc, done) {
      done(null, text(decoder.decode(chunk, { stream: true })));
    },
    flush(done) {
      done(null, text(decoder.decode()));
    },
  });
}

/** Header cells made usable: trimmed; empty → "Column N"; a repeated name → "Name (2)", "Name (3)". */
export function cleanHeaders(cells: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return cells.map((cell, i) => {
    let name = cell
      .replace(/^\uFEFF/, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (!name) name = `Column ${i + 1}`;
    const key = name.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    return count > 1 ? `${name} (${count})` : name;
  });
}

export const isBlankRecord = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '');

/**
 * Streams a CSV file as records: papaparse's chunk parser (each decoded chunk of the file parsed at once, its rows
 * handed over together) behind a decoder, read with `for await`. The reader sets the pace: the file's stream pauses
 * while a chunk's records wait to be taken, so memory stays flat whatever the file's size. Yields the header first
 * (`index` -1), then data records, blank ones included (callers skip them; line numbers stay true). Quoted fields may
 * hold commas, quotes and line breaks; a record's line is where it starts.
 */
export interface ReadCsvOptions {
  maxRecords?: number;
  /**
   * Throw `LimitExceeded` at the first record over the columns or rows limit or with a cell over the cell limit (the
   * import job reads with the limits: its file was checked as it arrived, and is checked again as it is read).
   */
  limits?: Pick<InputLimits, 'rows' | 'columns' | 'cellBytes'>;
}

export async function* readCsv(
  source: string | Readable,
  encoding: CsvEncoding,
  options: ReadCsvOptions = {},
): AsyncGenerator<CsvRecord> {
  for await (const records of readCsvBatches(source, encoding, options)) yield* records;
}

/**
 * `readCsv`'s records as the parser hands them over, a decoded chunk's worth (several hundred) at a time: for a
 * reader of the whole file (the import job), one step of the loop per batch rather than per record.
 */
export async function* readCsvBatches(
  source: string | Readable,
  encoding: CsvEncoding,
  options: ReadCsvOptions = {},
): AsyncGenerator<CsvRecord[]> {
  const { limits } = options;
  const input = typeof source === 'string' ? createReadStream(source, { highWaterMark: 256 * 1024 }) : source;
  const decoded = input.pipe(decodeStream(encoding));
  input.on('error', (error: Error) => decoded.destroy(error));
  let queue: unknown[][] = [];
  let finished = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const signal = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  Papa.parse(decoded as unknown as File, {
    header: false,
    skipEmptyLines: false,
    delimiter: '',
    chunk(results) {
      for (const row of results.data as unknown[][]) queue.push(row);
      decoded.pause();
      signal();
    },
    complete() {
      finished = true;
      signal();
    },
    error(error: Error) {
      failure = error;
      finished = true;
      signal();
    },
  });
  let line = 1;
  let index = -1;
  let headerSeen = false;
  let dataRows = 0;
  try {
    for (;;) {
      if (!queue.length) {
        if (failure) throw failure;
        if (finished) break;
        const next = new Promise<void>((resolve) => (wake = resolve));
        if (decoded.isPaused()) decoded.resume();
        await next;
        continue;
      }
      const rows = queue;
      queue = [];
      const records: CsvRecord[] = [];
      let done = false;
      for (const row of rows) {
        const cells = Array.isArray(row)
          ? row.every((cell) => typeof cell === 'string')
            ? (row as string[])
            : row.map((cell) => (cell == null ? '' : String(cell)))
          : [];
        const start = line;
        if (limits) checkLimits(cells, start, limits);
        // A record spans one line plus the line breaks inside its quoted fields.
        let breaks = 0;
        for (const cell of cells) {
          if (cell.indexOf('\n') === -1 && cell.indexOf('\r') === -1) continue;
          breaks += (cell.match(/\r\n|\r|\n/g) ?? []).length;
        }
        line += 1 + breaks;
        if (!headerSeen) {
          if (isBlankRecord(cells)) continue; // blank lines before the header
          headerSeen = true;
          records.push({ line: start, index: -1, cells });
          continue;
        }
        index++;
        if (limits && !isBlankRecord(cells) && ++dataRows > limits.rows) throw new LimitExceeded('rows', start);
        records.push({ line: start, index, cells });
        if (options.maxRecords !== undefined && index + 1 >= options.maxRecords) {
          done = true;
          break;
        }
      }
      if (records.length) yield records;
      if (done) return;
    }
  } finally {
    input.destroy();
    decoded.destroy();
  }
}

/** A record's columns and cells against the limits (a cell's characters: at most its bytes). */
function checkLimits(cells: readonly string[], line: number, limits: Pick<InputLimits, 'columns' | 'cellBytes'>) {
  if (cells.length > limits.columns) throw new LimitExceeded('columns', line);
  for (const cell of cells) if (cell.length > limits.cellBytes) throw new LimitExceeded('cellBytes', line);
}
