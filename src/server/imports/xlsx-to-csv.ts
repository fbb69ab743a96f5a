import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { csvLines } from '../exports/csv.js';
import { type FieldErrors, ValidationError } from '../http/errors.js';
import type { StreamTask } from '../workers/tasks.js';
import { readXlsxRows, type WorkbookFacts } from './xlsx-reader.js';

export interface XlsxToCsvOptions {
  /** The workbook, kept whole on disk (a zip is read from its end). */
  file: string;
  /** The sheet asked for (its name or position from 1); the first when absent. */
  sheet?: string;
  /** Where its sheet is written as the CSV text the importers read (UTF-8, no BOM). */
  out: string;
}

/**
 * What the conversion learnt; or why the workbook cannot be imported: the field errors of a 422 (an unknown sheet), or
 * what stopped exceljs reading it.
 */
export type XlsxToCsvResult = { facts: WorkbookFacts } | { refused: FieldErrors } | { unreadable: string };

/**
 * An upload worker thread's task (workers/tasks.ts): a workbook's sheet turned into a CSV file, file to file. Parsing
 * a sheet makes a great deal of short-lived garbage (exceljs's row objects): in a thread of its own, with its heap
 * capped, it neither holds the request thread nor grows the server's heap. The task is sent no bytes: it reads the
 * file itself when the upload ends.
 */
export class XlsxToCsv implements StreamTask<XlsxToCsvResult> {
  constructor(private readonly options: XlsxToCsvOptions) {}

  push() {}

  async end(): Promise<XlsxToCsvResult> {
    const facts: WorkbookFacts = { sheets: [], sheet: null };
    const out = createWriteStream(this.options.out);
    try {
      for await (const rows of readXlsxRows(this.options.file, this.options.sheet, facts))
        if (!out.write(csvLines(rows, { asIs: true }))) await once(out, 'drain');
      out.end();
      await once(out, 'close');
      return { facts };
    } catch (error) {
      out.destroy();
      if (error instanceof ValidationError) return { refused: error.errors };
      return { unreadable: (error as Error).message };
    }
  }
}
