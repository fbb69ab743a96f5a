import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { InputLimits } from '../config/config.js';
import { formatBytes, InputLimitError } from '../config/input-limits.js';
import { HttpError, ValidationError } from '../http/errors.js';
import type { CsvEncoding, CsvRecord } from './csv-reader.js';
import type { CsvFacts, CsvScanOptions } from './csv-scan.js';
import type { WorkbookFacts } from './xlsx-reader.js';
import type { XlsxToCsvOptions, XlsxToCsvResult } from './xlsx-to-csv.js';

export interface UploadedFile {
  name: string;
  path: string;
  size: number;
  encoding: CsvEncoding;
  lines: number;
  /** The header and the first data records (`headRecords` of them) as read while the file arrived. */
  head?: CsvRecord[];
  /** An Excel workbook's sheets, and the one imported (kept as CSV at `path`). */
  workbook?: WorkbookFacts;
}

export interface UploadResult {
  files: UploadedFile[];
  fields: Record<string, string>;
}

const ALLOWED_EXTENSIONS = ['.csv', '.txt', '.tsv', '.xlsx'];
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const SIGNATURES: Array<[number[], string]> = [
  [[0x50, 0x4b, 0x03, 0x04], 'an Excel workbook or another zip file'],
  [[0xd0, 0xcf, 0x11, 0xe0], 'an old Excel (.xls) workbook'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF'],
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x1f, 0x8b], 'a gzip archive'],
];

/** Why the start of a file shows it is not CSV text (null when it looks like text). */
export function notCsvReason(head: Buffer): string | null {
  for (const [signature, what] of SIGNATURES) {
    if (signature.every((byte, i) => head[i] === byte))
      return `it is ${what}, not CSV text. Save the sheet as CSV (File > Save As > CSV UTF-8) and upload that`;
  }
  const probe = head.subarray(0, 8_192);
  if (probe.includes(0)) {
    // UTF-16 text has NUL bytes too: say so, as that is a save option people pick by mistake.
    const utf16 = (probe[0] === 0xff && probe[1] === 0xfe) || (probe[0] === 0xfe && probe[1] === 0xff);
    return utf16
      ? 'it is saved as UTF-16. Save it as CSV UTF-8 (or plain CSV) and upload that'
      : 'it holds binary data, not CSV text';
  }
  return null;
}

/**
 * A workbook's sheet written as the CSV file the importers read (UTF-8, no BOM), by an upload worker thread
 * (imports/xlsx-to-csv.ts), never on the request thread; `facts` is filled in with its sheets. A file that is not a zip
 * is a 422, as is one exceljs cannot read, and an unknown sheet.
 */
async function xlsxAsCsv(
  workers: AppContext['uploadWorkers'],
  limits: InputLimits,
  task: XlsxToCsvOptions,
  facts: WorkbookFacts,
  subject: string,
) {
  const head = Buffer.alloc(4);
  const handle = await open(task.file);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  if (!ZIP_SIGNATURE.every((byte, i) => head[i] === byte))
    throw new ValidationError({ files: [`${subject} cannot be imported: it is not an Excel (.xlsx) workbook.`] });
  const conversion = await workers.open<XlsxToCsvResult>('xlsx', task, limits, { subject });
  const result = await conversion.end();
  if ('refused' in result) throw new ValidationError(result.refused);
  if ('unreadable' in result)
    throw new ValidationError({ files: [`${subject} cannot be read as an Excel workbook: ${result.unreadable}`] });
  facts.sheets.push(...result.facts.sheets);
  facts.sheet = result.facts.sheet;
}

/** Data records of a file kept parsed for its preview (imports/preview.ts reads at most this many). */
export const PREVIEW_RECORDS = 60;
/** Bytes of a file's first records kept for its preview, past the header. */
const HEAD_BYTES = 2 * 1_048_576;

/**
 * Reads a multipart upload of CSV files (`files[]`, `files` or `file`) with its other fields, streaming each file
 * to `folder` and, as it arrives, through an upload worker thread (imports/csv-scan.ts) that checks the input limits
 * (columns, cell size, rows: docs/settings.md) and learns the encoding, the number of records, the header and the
 * first `headRecords` records (a preview's).
 * Checked before anything is kept: the extension, the first bytes (binary, spreadsheet or PDF content is refused),
 * the size and those limits (422 naming the limit, as soon as the file passes it). A file is written under a
 * temporary name and renamed only when it passed, so a refused upload leaves nothing behind.
 */
export async function receiveCsvUpload(
  request: FastifyRequest,
  ctx: Pick<AppContext, 'config' | 'uploadWorkers'>,
  folder: string,
  options: { maxFiles?: number; headRecords?: number } = {},
): Promise<UploadResult> {
  if (!request.isMultipart())
    throw new ValidationError({ files: ['Send the CSV files as multipart form data (files[]).'] });
  const limits = { ...ctx.config.limits };
  const limitBytes = limits.uploadBytes;
  const declared = Number(request.headers['content-length'] ?? 0);
  const maxFiles = options.maxFiles ?? 20;
  if (declared && declared > limitBytes * maxFiles + 1_048_576)
    throw new InputLimitError('uploadBytes', limits, { subject: `The upload (${formatBytes(declared)})` });
  await mkdir(folder, { recursive: true });
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  const written: string[] = [];
  try {
    for await (const part of request.parts({ limits: { fileSize: limitBytes } })) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      if (!['files[]', 'files', 'file'].includes(part.fieldname)) {
        part.file.resume();
        throw new ValidationError({
          [part.fieldname]: [`Unexpected file field "${part.fieldname}"; send the files as files[].`],
        });
      }
      const name = path.basename(part.filename || 'upload.csv').slice(0, 200);
      const extension = path.extname(name).toLowerCase();
      if (!ALLOWED_EXTENSIONS.includes(extension)) {
        part.file.resume();
        throw new ValidationError({
          files: [`"${name}" cannot be imported: only .csv, .txt, .tsv and .xlsx files can.`],
        });
      }
      if (files.length >= maxFiles) {
        part.file.resume();
        throw new ValidationError({ files: [`Upload at most ${maxFiles} files at a time.`] });
      }
      const temporary = path.join(folder, `.upload-${randomUUID()}`);
      written.push(temporary);
      const subject = `"${name}"`;
      const scan = await ctx.uploadWorkers.open<CsvFacts>(
        'csv',
        { limits, headRecords: options.headRecords ?? 0, headBytes: HEAD_BYTES } satisfies CsvScanOptions,
        limits,
        { subject },
      );
      const workbook = extension === '.xlsx' ? { sheets: [], sheet: null } : undefined;
      let source: Readable = part.file;
      if (workbook) {
        // A workbook is kept whole first (a zip is read from its end), then its sheet goes through as CSV text.
        const received = `${temporary}.xlsx`;
        written.push(received);
        await pipeline(part.file, createWriteStream(received));
        if (part.file.truncated) throw new InputLimitError('uploadBytes', limits, { subject });
        const converted = `${temporary}.sheet.csv`;
        written.push(converted);
        await xlsxAsCsv(
          ctx.uploadWorkers,
          limits,
          { file: received, sheet: fields.sheet, out: converted },
          workbook,
          subject,
        );
        source = createReadStream(converted);
      }
      let size = 0;
      const gate = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          if (size === 0) {
            const reason = notCsvReason(chunk);
            if (reason) return done(new ValidationError({ files: [`${subject} cannot be imported: ${reason}.`] }));
          }
          size += chunk.length;
          scan.write(chunk).then(() => done(null, chunk), done);
        },
      });
      const sink = createWriteStream(temporary);
      let facts: CsvFacts;
      try {
        await pipeline(source, gate, sink);
        if (part.file.truncated) throw new InputLimitError('uploadBytes', limits, { subject });
        if (size === 0) throw new ValidationError({ files: [`${subject} is empty.`] });
        facts = await scan.end();
      } catch (error: any) {
        scan.abort();
        // A refused file's stream may still be opening its file: wait until it is closed, or the cleanup below
        // would run first and the file appear after it.
        if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
        if (error instanceof HttpError) throw error;
        if (error?.code === 'FST_REQ_FILE_TOO_LARGE' || error?.statusCode === 413)
          throw new InputLimitError('uploadBytes', limits, { subject });
        throw error;
      }
      const final = path.join(folder, `${randomUUID()}${workbook ? '.csv' : extension}`);
      await rename(temporary, final);
      written.push(final);
      files.push({
        name,
        path: final,
        size: facts.bytes,
        encoding: facts.encoding,
        lines: facts.lines,
        head: facts.head,
        ...(workbook ? { workbook } : {}),
      });
    }
  } catch (error: any) {
    await Promise.all(written.map((file) => rm(file, { force: true })));
    if (error?.code === 'FST_REQ_FILE_TOO_LARGE') throw new InputLimitError('uploadBytes', limits);
    if (error?.code === 'FST_FILES_LIMIT' || error?.code === 'FST_PARTS_LIMIT')
      throw new ValidationError({ files: [`Upload at most ${maxFiles} files at a time.`] });
    throw error;
  }
  await Promise.all(written.filter((file) => file.includes('.upload-')).map((file) => rm(file, { force: true })));
  return { files, fields };
}

export async function removeFiles(files: ReadonlyArray<{ path: string }>) {
  await Promise.all(files.map((file) => rm(file.path, { force: true })));
}
