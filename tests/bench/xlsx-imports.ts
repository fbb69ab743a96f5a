/**
 * The XLSX import benchmark (issue 34): the generated 100,000-row vendor file of the import benchmark (imports.ts)
 * saved as an .xlsx workbook (numbers and ISO dates typed, as Excel keeps them) and imported end to end by the real
 * server, against the same rows as CSV: each on a new data folder, by a server restarted on it (as imports.ts does),
 * on the embedded database. Targets: the workbook's import within 1.3 times the CSV's time, and its peak memory no
 * higher than the CSV import's. CPU time per import is printed beside the wall time (steadier on a shared machine).
 */
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { importFile, vendorImporterId } from './imports.js';
import { signIn } from './lib/http.js';
import {
  freePort,
  loadAverage,
  makeTempFolder,
  procStatusMb,
  type RunningServer,
  removeTempFolder,
  startServer,
} from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'xlsx-imports';
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const PLAIN_NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d+)?$/;
const port = async (offset: number) => (process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) + offset : freePort());

/** The CSV as a workbook written by exceljs's streaming writer, its cells typed. */
async function writeWorkbook(csv: string, file: string) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: createWriteStream(file), useSharedStrings: true });
  const sheet = workbook.addWorksheet('Vendor export');
  const rows = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
  for (const [i, cells] of rows.entries()) {
    const added = sheet.addRow(
      i === 0
        ? cells
        : cells.map((cell) =>
            ISO_DATE.test(cell) ? new Date(`${cell}T00:00:00Z`) : PLAIN_NUMBER.test(cell) ? Number(cell) : cell,
          ),
    );
    added.eachCell((cell) => {
      if (cell.value instanceof Date) cell.numFmt = 'mm/dd/yyyy';
    });
    added.commit();
  }
  sheet.commit();
  await workbook.commit();
}

/** One import of `content` on a new data folder, by a server restarted on it; its figures. */
async function measure(folder: string, name: string, content: Buffer, offset: number) {
  const dataDir = path.join(folder, `data-${name}`);
  const options = { dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password };
  let server: RunningServer | null = await startServer({ ...options, port: await port(offset) });
  try {
    await server.stop();
    server = await startServer({ ...options, port: await port(offset + 1) });
    const cookie = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
    const done = await importFile(server, cookie, await vendorImporterId(server.baseUrl, cookie), content, name);
    if (done.record.status !== 'complete' || done.record.created_count !== ROWS)
      throw new Error(`The import of ${name} did not create every row: ${JSON.stringify(done.record)}`);
    return { ...done, peakMb: procStatusMb(server.pid, 'VmHWM'), load: loadAverage() };
  } finally {
    await server?.stop();
  }
}

export async function benchXlsxImports(): Promise<BenchRow[]> {
  const folder = makeTempFolder('om-bench-xlsx-');
  try {
    const { vendorSitesCsv } = await import('../fixtures/generate.js');
    const csvFile = path.join(folder, 'vendor.csv');
    const xlsxFile = path.join(folder, 'vendor.xlsx');
    const csv = vendorSitesCsv(ROWS, 2026, { contacts: false });
    writeFileSync(csvFile, csv);
    await writeWorkbook(csv, xlsxFile);
    const csvBytes = readFileSync(csvFile);
    const xlsxBytes = readFileSync(xlsxFile);
    const viaCsv = await measure(folder, 'vendor.csv', csvBytes, 0);
    const viaXlsx = await measure(folder, 'vendor.xlsx', xlsxBytes, 2);
    for (const [what, done] of [
      ['CSV', viaCsv],
      ['XLSX', viaXlsx],
    ] as const)
      console.error(
        `[bench] xlsx-imports: ${what} ${done.seconds.toFixed(1)} s, CPU ${done.cpuSeconds.toFixed(1)} s, peak ${done.peakMb.toFixed(0)} MB (load ${done.load}); ${JSON.stringify({ created: done.record.created_count, failed: done.record.failed_count })}`,
      );
    const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
    return [
      row(
        AREA,
        `files: ${ROWS.toLocaleString('en')} rows, CSV ${mb(csvBytes.length)} MB, XLSX ${mb(xlsxBytes.length)} MB`,
        ROWS,
        'rows',
      ),
      row(AREA, `CSV import, upload to complete (load ${viaCsv.load})`, viaCsv.seconds, 's'),
      row(AREA, `XLSX import, upload to complete (load ${viaXlsx.load})`, viaXlsx.seconds, 's', {
        atMost: viaCsv.seconds * 1.3,
      }),
      row(AREA, 'CSV import: server CPU time (user + system)', viaCsv.cpuSeconds, 's'),
      row(AREA, 'XLSX import: server CPU time (user + system)', viaXlsx.cpuSeconds, 's', {
        atMost: viaCsv.cpuSeconds * 1.3,
      }),
      row(AREA, 'CSV import: peak memory (RSS high-water mark)', viaCsv.peakMb, 'MB'),
      row(AREA, 'XLSX import: peak memory (RSS high-water mark)', viaXlsx.peakMb, 'MB', { atMost: viaCsv.peakMb }),
    ];
  } finally {
    removeTempFolder(folder);
  }
}
