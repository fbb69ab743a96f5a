import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import Papa from 'papaparse';

export type CsvEncoding = 'utf8' | 'windows-1252';

export interface CsvRecord {
  /** The line of the file where the record starts (the header is line 1 when the file starts with it). */
  line: number;
  /** 0-based index of the data record after the header (blank lines count, so resuming can skip by index). */
  index: number;
  cells: string[];
}

export interface FileFacts {
  encoding: CsvEncoding;
  /** Lines that hold something (an upper bound of the records: a quoted field may span lines). */
  lines: number;
  bytes: number;
  hasBom: boolean;
}

/**
 * Reads a file once to learn its encoding: valid UTF-8 (with or without BOM) is UTF-8; anything else is read as
 * Windows-1252, the encoding of spreadsheets saved as "CSV" on Windows. Also counts non-blank lines for progress.
 */
export async function inspectFile(path: string): Promise<FileFacts> {
  let utf8 = true;
  // The bytes of a character cut by the end of the previous chunk, checked with the next one.
  let carried: Buffer = Buffer.alloc(0);
  let lines = 0;
  let bytes = 0;
  let hasBom = false;
  let lineHasContent = false;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    if (bytes === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) hasBom = true;
    bytes += chunk.length;
    if (utf8) {
      // Checked in place (isUtf8), without decoding the file into strings only to drop them.
      const whole = carried.length ? Buffer.concat([carried, chunk]) : chunk;
      const cut = incompleteTail(whole);
      utf8 = isUtf8(whole.subarray(0, whole.length - cut));
      carried = Buffer.from(whole.subarray(whole.length - cut));
    }
    // Line by line (indexOf finds each line break natively); a line's bytes are read only until one holds something.
    for (let start = 0; start < chunk.length; ) {
      const end = chunk.indexOf(10, start);
      const stop = end === -1 ? chunk.length : end;
      for (let i = start; !lineHasContent && i < stop; i++) {
        const byte = chunk[i];
        if (byte !== 13 && byte !== 32 && byte !== 44) lineHasContent = true;
      }
      if (end === -1) break;
      if (lineHasContent) lines++;
      lineHasContent = false;
      start = end + 1;
    }
  }
  if (lineHasContent) lines++;
  if (carried.length) utf8 = false; // the file ends inside a character
  return { encoding: utf8 ? 'utf8' : 'windows-1252', lines, bytes, hasBom };
}

/** How many bytes at the end of `bytes` start a UTF-8 character they do not complete (0 to 3). */
function incompleteTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
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
export async function* readCsv(
  source: string | Readable,
  encoding: CsvEncoding,
  options: { maxRecords?: number } = {},
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
  options: { maxRecords?: number } = {},
): AsyncGenerator<CsvRecord[]> {
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
