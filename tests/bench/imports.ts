/**
 * The import benchmark: a generated 100,000-row vendor CSV (the job-site layout of tests/fixtures/vendor-sites.csv:
 * 23 columns, coordinates on 70% of rows, mixed date and money forms, 12 general contractors, rules setting
 * trades) imported end to end on the embedded database (upload, parse, map, rules, related records, upsert,
 * revisions, undo entries) by the real server as `npm start` runs it, through the API a person's browser uses, on
 * the embedded database and on PostgreSQL (a throwaway server, when its binaries are installed).
 * Figures: the time from the upload to the import's completion, rows per second, the server's CPU time for it, the
 * server process's peak resident memory (VmHWM), and a second import of the same file (every row matched on its
 * key and unchanged), with where each import's time went (the server's WRITE_PHASES report) and the load average.
 *
 * The file is generated in this process, never in the server's. The server is started once on a new data folder
 * (database creation, migrations, seeding) and stopped, then started again on it, so the peak memory figure is
 * that of a server starting on an existing database and then importing, not of the one-off initialisation.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';
import { request, signIn, xsrfOf } from './lib/http.js';
import {
  benchDatabases,
  folderBytes,
  freePort,
  loadAverage,
  makeTempFolder,
  procCpuMs,
  procStatusMb,
  type RunningServer,
  removeTempFolder,
  startServer,
} from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'imports';
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };
const POLL_MS = 250;
/** BENCH_PORT: the server's port (the next one for its restart) where a machine's ports are shared out; else any free one. */
const port = async (offset: number) => (process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) + offset : freePort());

export async function benchImports(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const kind of benchDatabases()) await benchOn(kind, rows);
  return rows;
}

async function benchOn(kind: 'pglite' | 'postgres', rows: BenchRow[]) {
  const folder = makeTempFolder('om-bench-imports-');
  let server: RunningServer | null = null;
  let postgres: PostgresServer | null = null;
  // The server prints where each import's time went (src/server/records/write-phases.ts).
  process.env.WRITE_PHASES = '1';
  try {
    if (kind === 'postgres') {
      postgres = await (startPostgres() ?? Promise.resolve(null));
      if (!postgres) {
        console.error('[bench] imports: no PostgreSQL server binaries installed; PostgreSQL skipped');
        return;
      }
    }
    const { vendorSitesCsv } = await import('../fixtures/generate.js');
    const file = path.join(folder, 'vendor-100k.csv');
    const started = performance.now();
    writeFileSync(file, vendorSitesCsv(ROWS, 2026, { contacts: false }));
    const generateMs = performance.now() - started;
    const content = readFileSync(file);
    const dataDir = path.join(folder, 'data');
    const options = { dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password, databaseUrl: postgres?.url };

    // First start creates the database; the measured server starts on it as a restarted server would.
    server = await startServer({ ...options, port: await port(0) });
    await server.stop();
    server = await startServer({ ...options, port: await port(1) });
    const cookie = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
    const importer = await vendorImporterId(server.baseUrl, cookie);

    const rssBeforeMb = procStatusMb(server.pid, 'VmRSS');
    const mb = (bytes: number) => bytes / 1_048_576;
    // The data folder holds the database on the embedded one only.
    const folderOf = () =>
      kind === 'pglite'
        ? { all: folderBytes(dataDir), wal: folderBytes(path.join(dataDir, 'db', 'pg_wal')) }
        : { all: 0, wal: 0 };
    const folderBefore = folderOf();
    const databaseCpuMs = () => postgres?.cpuMs() ?? 0;
    const first = await importFile(server, cookie, importer, content, 'first.csv', databaseCpuMs);
    const firstLoad = loadAverage();
    const peakMb = procStatusMb(server.pid, 'VmHWM');
    if (first.record.status !== 'complete' || first.record.failed_count > 0 || first.record.created_count !== ROWS) {
      throw new Error(`The import did not create every row: ${JSON.stringify(first.record)}`);
    }
    const folderAfterFirst = folderOf();
    const second = await importFile(server, cookie, importer, content, 'second.csv', databaseCpuMs);
    const secondLoad = loadAverage();
    const peakAfterSecondMb = procStatusMb(server.pid, 'VmHWM');
    const folderAfterSecond = folderOf();
    if (second.record.skipped_count !== ROWS)
      throw new Error(`The second import did not match every row: ${JSON.stringify(second.record)}`);
    const phases = [...server.output().matchAll(/write phases of import (\d+): (.*)/g)].map((m) => m[2]);
    const db = kind === 'pglite' ? 'embedded' : 'PostgreSQL';
    console.error(
      `[bench] imports, ${db}: first import ${first.seconds.toFixed(1)} s (load ${firstLoad}), phases: ${phases[0] ?? '-'}`,
    );
    console.error(
      `[bench] imports, ${db}: second import ${second.seconds.toFixed(1)} s (load ${secondLoad}), phases: ${phases[1] ?? '-'}`,
    );

    rows.push(
      row(
        AREA,
        `${db}: file: ${ROWS.toLocaleString('en')} rows, ${(content.length / 1_048_576).toFixed(1)} MB (generated in ${(generateMs / 1000).toFixed(1)} s by the bench, not the server)`,
        ROWS,
        'rows',
      ),
      row(AREA, `${db}: import time, whole file, from the upload to complete (load ${firstLoad})`, first.seconds, 's', {
        atMost: kind === 'pglite' ? 15 : 6,
      }),
      row(AREA, `${db}: import rows per second`, ROWS / first.seconds, 'rows/s'),
      row(AREA, `${db}: of which the import job (started_at to finished_at)`, first.jobSeconds, 's'),
      // The server's CPU (user + system): on a shared machine, less affected by others' load than the wall time.
      row(AREA, `${db}: server CPU time for the import (user + system)`, first.cpuSeconds, 's'),
      ...(kind === 'postgres'
        ? [row(AREA, `${db}: PostgreSQL's CPU time for the import (its processes)`, first.databaseCpuSeconds, 's')]
        : []),
      // Issue 35's figure: CPU per imported row, server and database together (the embedded one is in the server).
      row(
        AREA,
        `${db}: CPU per imported row, server + database (load ${firstLoad})`,
        ((first.cpuSeconds + first.databaseCpuSeconds) * 1e6) / ROWS,
        'µs',
        { atMost: kind === 'pglite' ? 250 : 150 },
      ),
      row(AREA, `${db}: peak memory (RSS high-water mark of the server process)`, peakMb, 'MB', { atMost: 300 }),
      row(AREA, `${db}: server memory before the import (RSS)`, rssBeforeMb, 'MB'),
      row(AREA, `${db}: second import of the same file, all rows unchanged (load ${secondLoad})`, second.seconds, 's', {
        atMost: 3,
      }),
      row(AREA, `${db}: peak memory after the second import too`, peakAfterSecondMb, 'MB'),
    );
    if (kind === 'pglite') {
      rows.push(
        row(
          AREA,
          `${db}: data folder before the imports (of which pg_wal)`,
          mb(folderBefore.all),
          `MB (${mb(folderBefore.wal).toFixed(0)})`,
        ),
        row(
          AREA,
          `${db}: data folder after the first import (of which pg_wal)`,
          mb(folderAfterFirst.all),
          `MB (${mb(folderAfterFirst.wal).toFixed(0)})`,
        ),
        row(
          AREA,
          `${db}: data folder after the second import (of which pg_wal)`,
          mb(folderAfterSecond.all),
          `MB (${mb(folderAfterSecond.wal).toFixed(0)})`,
        ),
      );
    }
  } finally {
    await server?.stop();
    await postgres?.stop();
    removeTempFolder(folder);
  }
}

export async function vendorImporterId(baseUrl: string, cookie: string): Promise<number> {
  const res = await request(`${baseUrl}/api/importers?per_page=100`, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`GET /api/importers answered ${res.status}: ${res.body.slice(0, 300)}`);
  const found = (JSON.parse(res.body).data as Array<{ id: number; slug: string | null }>).find(
    (importer) => importer.slug === 'vendor-job-sites',
  );
  if (!found) throw new Error('The ready-made vendor job-site importer is missing.');
  return found.id;
}

/** Uploads the file as the import screen does (multipart `files[]`), then polls the import until it is done. */
export async function importFile(
  server: RunningServer,
  cookie: string,
  importerId: number,
  content: Buffer,
  name: string,
  /** The database server's CPU so far in ms (PostgreSQL's processes); the embedded database is inside the server. */
  databaseCpuMs: () => number = () => 0,
) {
  const token = xsrfOf(cookie);
  const form = new FormData();
  form.append('importer_id', String(importerId));
  form.append('files[]', new Blob([new Uint8Array(content)], { type: 'text/csv' }), name);
  const cpuBefore = procCpuMs(server.pid);
  const databaseCpuBefore = databaseCpuMs();
  const started = performance.now();
  const upload = await fetch(`${server.baseUrl}/api/imports`, {
    method: 'POST',
    headers: { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-xsrf-token': token, cookie },
    body: form,
  });
  const body = await upload.text();
  if (upload.status !== 201) throw new Error(`POST /api/imports answered ${upload.status}: ${body.slice(0, 300)}`);
  const id = JSON.parse(body).data.id as number;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const res = await request(`${server.baseUrl}/api/imports/${id}`, { headers: { cookie }, timeoutMs: 120_000 });
    if (res.status !== 200) throw new Error(`GET /api/imports/${id} answered ${res.status}: ${res.body.slice(0, 300)}`);
    const record = JSON.parse(res.body).data;
    if (record.status === 'complete' || record.status === 'failed') {
      const seconds = (performance.now() - started) / 1000;
      const jobSeconds = (Date.parse(record.finished_at) - Date.parse(record.started_at)) / 1000;
      return {
        record,
        seconds,
        jobSeconds,
        cpuSeconds: (procCpuMs(server.pid) - cpuBefore) / 1000,
        databaseCpuSeconds: (databaseCpuMs() - databaseCpuBefore) / 1000,
      };
    }
  }
}
