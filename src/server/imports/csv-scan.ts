import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import Papa from 'papaparse';
import type { InputLimits } from '../config/config.js';
import { LimitExceeded } from '../config/input-limits.js';
import { type CsvEncoding, type CsvRecord, readCsv } from './csv-reader.js';

/** What reading a CSV upload once, as it arrives, learns about it. */
export interface CsvFacts {
  encoding: CsvEncoding;
  hasBom: boolean;
  bytes: number;
  /** Records that hold something, the header included. */
  lines: number;
  /** The header and the first data records (`headRecords` of them at most), parsed as the import reads them. */
  head: CsvRecord[];
}

export interface CsvScanOptions {
  limits: Pick<InputLimits, 'rows' | 'columns' | 'cellBytes'>;
  /** Data records to keep parsed in `head` (the preview's). */
  headRecords: number;
  /** Raw bytes kept for `head` at most (past the header): a preview of huge cells shows fewer rows. */
  headBytes: number;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
/** The CR LF line break (not a byte). */
const CRLF = -2;
const SPACE = 0x20;
const TAB = 0x09;
/** Bytes looked at to find the delimiter and line break, as papaparse guesses them from its first chunk. */
const SAMPLE_BYTES = 65_536;

/**
 * Reads a CSV file's bytes as they arrive, once, without making a string of them: counts each record's fields and
 * each field's bytes (the delimiter and line break guessed, quotes, doubled quotes and line breaks inside quotes
 * followed as the parser, papaparse, does), and throws
 * `LimitExceeded` at the first record over the columns or rows limit, or the first cell over the cell limit, so an
 * upload is refused before the rest of it is read. Also learns the encoding (valid UTF-8, else Windows-1252), the
 * number of records that hold something, and keeps the first records' bytes to parse for a preview.
 */
export class CsvScanner {
  private delimiter = -1;
  private linebreak = LF;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  // The tokenizer's state across chunks.
  private inQuotes = false;
  private quoteInQuotes = false;
  /** A CR outside quotes in a CR LF file: the record ends if LF follows, else the CR is part of the cell. */
  private crPending = false;
  private cellBytes = 0;
  private cellStarted = false;
  private fields = 1;
  private content = false;
  private records = 0;
  // Physical lines, for the messages: where we are, where the current record started.
  private line = 1;
  private lastWasCr = false;
  private recordLine = 1;
  private recordEnded = false;
  private bytes = 0;
  // UTF-8: bytes of a character cut by the end of the previous chunk.
  private utf8 = true;
  private carried: Buffer = Buffer.alloc(0);
  private hasBom = false;
  // The first records' bytes.
  private head: Uint8Array[] = [];
  /** Where the kept records end (a byte offset of the file); -1 while they are still being kept. */
  private headEnd = -1;

  constructor(private readonly options: CsvScanOptions) {}

  push(chunk: Uint8Array) {
    if (this.delimiter === -1) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes < SAMPLE_BYTES) return;
      this.startScanning();
      return;
    }
    this.scan(chunk);
  }

  /** The facts once the whole file was pushed; throws `LimitExceeded` when its last record is over a limit. */
  async end(): Promise<CsvFacts> {
    if (this.delimiter === -1) this.startScanning();
    if (this.crPending) this.cellByte(CR);
    if (this.inQuotes || this.cellStarted || this.content || this.fields > 1) this.endRecord();
    if (this.carried.length) this.utf8 = false; // the file ends inside a character
    const encoding: CsvEncoding = this.utf8 ? 'utf8' : 'windows-1252';
    const headBytes = Buffer.concat(this.head);
    const kept = this.headEnd >= 0 ? headBytes.subarray(0, this.headEnd) : headBytes;
    const head: CsvRecord[] = [];
    for await (const record of readCsv(Readable.from([kept]), encoding, {
      maxRecords: this.options.headRecords,
      limits: this.options.limits,
    }))
      head.push(record);
    return { encoding, hasBom: this.hasBom, bytes: this.bytes, lines: this.records, head };
  }

  private startScanning() {
    const sample = Buffer.concat(this.pending);
    this.pending = [];
    const guessed = Papa.parse(sample.toString('latin1'), { preview: 10, delimiter: '' }).meta;
    this.delimiter = guessed.delimiter?.length === 1 ? guessed.delimiter.charCodeAt(0) : COMMA;
    this.linebreak = guessed.linebreak === '\r\n' ? CRLF : guessed.linebreak === '\r' ? CR : LF;
    if (sample.length) this.scan(sample);
  }

  private scan(chunk: Uint8Array) {
    if (this.bytes === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) this.hasBom = true;
    const start = this.bytes;
    this.bytes += chunk.length;
    if (this.headEnd < 0) this.head.push(Buffer.from(chunk));
    this.checkUtf8(chunk);
    const { delimiter, linebreak } = this;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (this.inQuotes && !this.quoteInQuotes) {
        if (byte === QUOTE) this.quoteInQuotes = true;
        else this.cellByte(byte);
      } else if (this.inQuotes && byte === QUOTE) {
        this.quoteInQuotes = false; // a doubled quote: one quote in the cell
        this.cellByte(byte);
      } else {
        // Outside quotes (or just after a quoted cell's closing quote).
        this.inQuotes = false;
        this.quoteInQuotes = false;
        let ended = false;
        if (this.crPending) {
          this.crPending = false;
          if (byte === LF) ended = true;
          else this.cellByte(CR);
        }
        if (ended || (byte === LF && linebreak === LF) || (byte === CR && linebreak === CR)) {
          this.endRecord();
          this.keepHeadTo(start + i + 1);
        } else if (byte === CR && linebreak === CRLF) this.crPending = true;
        else if (byte === delimiter) {
          if (++this.fields > this.options.limits.columns) throw new LimitExceeded('columns', this.line);
          this.cellBytes = 0;
          this.cellStarted = false;
        } else if (byte === QUOTE && !this.cellStarted) {
          this.inQuotes = true;
          this.cellStarted = true;
        } else this.cellByte(byte);
      }
      // Lines as a person counts them (any of CR LF, CR, LF), for the messages.
      if (byte === LF) {
        if (!this.lastWasCr) this.line++;
      } else if (byte === CR) this.line++;
      this.lastWasCr = byte === CR;
      if (this.recordEnded) {
        this.recordEnded = false;
        this.recordLine = this.line;
      }
    }
  }

  private cellByte(byte: number) {
    this.cellStarted = true;
    if (byte !== SPACE && byte !== TAB && byte !== CR && byte !== LF) this.content = true;
    if (++this.cellBytes > this.options.limits.cellBytes) throw new LimitExceeded('cellBytes', this.line);
  }

  private endRecord() {
    if (this.content) {
      this.records++;
      // The first record that holds something is the header; the rest are data rows.
      if (this.records - 1 > this.options.limits.rows) throw new LimitExceeded('rows', this.recordLine);
    }
    this.recordEnded = true;
    this.fields = 1;
    this.cellBytes = 0;
    this.cellStarted = false;
    this.content = false;
  }

  /** After a record ended at byte `end` of the file: stop keeping bytes once the head has what it needs. */
  private keepHeadTo(end: number) {
    if (this.headEnd >= 0 || this.records === 0) return;
    if (this.records > this.options.headRecords || end >= this.options.headBytes) this.headEnd = end;
  }

  private checkUtf8(chunk: Uint8Array) {
    if (!this.utf8) return;
    const whole = this.carried.length ? Buffer.concat([this.carried, chunk]) : Buffer.from(chunk);
    const cut = incompleteTail(whole);
    this.utf8 = isUtf8(whole.subarray(0, whole.length - cut));
    this.carried = Buffer.from(whole.subarray(whole.length - cut));
  }
}

/** How many bytes at the end of `bytes` start a UTF-8 character they do not complete (0 to 3). */
export function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}
