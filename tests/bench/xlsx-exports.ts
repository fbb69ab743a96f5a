/**
 * `npm run bench -- xlsx-exports` (issue 32): the XLSX export of 100,000 sites, every field (relations, choices and
 * people by name, dates and money typed), as a person asks for it: `POST /api/exports {format: 'xlsx'}` to the server
 * as `npm start` runs it (its memory flags), the export job writing the workbook in the server process. Target: the
 * server's peak resident memory while it writes under 300 MB. Run on the embedded database (in the server process,
 * so its WebAssembly heap with 100,000 sites counts too) and on PostgreSQL (its own process: the server holds the app
 * alone). The server's resident memory is sampled every 25 ms from /proc (and its VmHWM, reset first, read at the
 * end); CPU time per 1,000 rows is printed beside the wall time, with the load average. BENCH_DATABASES=pglite (or
 * postgres) runs one database only; BENCH_SITES another count.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { putSites } from '../support/many-sites.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';
import { request, signIn, xsrfOf } from './lib/http.js';
import {
  benchDatabases,
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

const AREA = 'xlsx-exports';
const SITES = Number(process.env.BENCH_SITES ?? 100_000);
/** As the views bench fills them, so that both start from the same kept folder of the embedded database. */
const CONTRACTORS = 2_000;
const TARGET_MB = 300;
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };
const SAMPLE_MS = 25;
const TIMEOUT_MS = 30 * 60_000;

/** Resets the process's VmHWM to its resident size now (Linux); false when not allowed. */
function resetPeak(pid: number) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

async function api(server: RunningServer, cookie: string, path: string, body?: unknown) {
  const xsrf = xsrfOf(cookie);
  const response = await request(`${server.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-xsrf-token': xsrf },
    body: body === undefined ? undefined : JSON.stringify(body),
    timeoutMs: 120_000,
  });
  if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${response.body.slice(0, 300)}`);
  return JSON.parse(response.body) as { data: Record<string, unknown> };
}

async function benchOn(kind: 'pglite' | 'postgres', rows: BenchRow[]) {
  const dataDir = makeTempFolder('om-bench-xlsx-export-');
  let postgres: PostgresServer | null = null;
  let server: RunningServer | null = null;
  try {
    if (kind === 'postgres') {
      postgres = await (startPostgres() ?? Promise.resolve(null));
      if (!postgres) {
        console.error('[bench] xlsx-exports: no PostgreSQL server binaries installed; PostgreSQL skipped');
        return;
      }
    }
    const options = { dataDir, adminEmail: ADMIN.email, adminPassword: ADMIN.password, databaseUrl: postgres?.url };
    await putSites(options, SITES, ADMIN, { keep: true, fill: { contractors: CONTRACTORS } });
    server = await startServer({ ...options, port: await freePort() });
    const cookie = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
    // The list read once, as a person opens it before exporting.
    await api(server, cookie, '/api/sites?per_page=25');
    await sleep(2_000);
    const before = procStatusMb(server.pid, 'VmRSS');
    const hwmReset = resetPeak(server.pid);
    const cpuFrom = procCpuMs(server.pid);
    const databaseCpuFrom = postgres?.cpuMs() ?? 0;
    const started = performance.now();
    const created = await api(server, cookie, '/api/exports', { resource: 'sites', format: 'xlsx' });
    const id = Number(created.data.id);
    let peak = before;
    let lastPoll = 0;
    let record: Record<string, unknown> = created.data;
    while (!['complete', 'failed'].includes(String(record.status))) {
      if (performance.now() - started > TIMEOUT_MS) throw new Error(`The export did not end in ${TIMEOUT_MS} ms`);
      peak = Math.max(peak, procStatusMb(server.pid, 'VmRSS'));
      await sleep(SAMPLE_MS);
      if (performance.now() - lastPoll > 1_000) {
        lastPoll = performance.now();
        record = (await api(server, cookie, `/api/exports/${id}`)).data;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    if (record.status !== 'complete') throw new Error(`The export failed: ${String(record.message)}`);
    if (hwmReset) peak = Math.max(peak, procStatusMb(server.pid, 'VmHWM'));
    const serverCpu = procCpuMs(server.pid) - cpuFrom;
    const databaseCpu = (postgres?.cpuMs() ?? 0) - databaseCpuFrom;
    const written = Number(record.row_count);
    const file = await request(`${server.baseUrl}/api/exports/${id}/download`, {
      headers: { cookie },
      timeoutMs: 120_000,
    });
    const load = loadAverage();
    const perThousand = (ms: number) => ms / (written / 1000);
    console.error(
      `[bench] xlsx-exports, ${kind}: ${written} rows, ${(Number(file.headers['content-length']) / 1e6).toFixed(1)} MB file, ` +
        `${seconds.toFixed(1)} s; server RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB ` +
        `(${hwmReset ? 'VmHWM and' : ''} samples every ${SAMPLE_MS} ms); CPU per 1,000 rows: server ` +
        `${perThousand(serverCpu).toFixed(0)} ms${postgres ? `, PostgreSQL ${perThousand(databaseCpu).toFixed(0)} ms` : ''}; load ${load}`,
    );
    rows.push(
      row(AREA, `${kind}: XLSX export of ${SITES.toLocaleString('en')} sites, rows written`, written, 'count', {
        atLeast: SITES,
      }),
      row(AREA, `${kind}: server resident memory before the export (load ${load})`, Math.round(before), 'MB'),
      row(AREA, `${kind}: server peak resident memory during the export (load ${load})`, Math.round(peak), 'MB', {
        below: TARGET_MB,
      }),
      row(AREA, `${kind}: growth during the export (load ${load})`, Math.round(peak - before), 'MB'),
      row(AREA, `${kind}: wall time (load ${load})`, Math.round(seconds), 's'),
      row(AREA, `${kind}: server CPU per 1,000 rows (load ${load})`, Math.round(perThousand(serverCpu)), 'ms'),
    );
    if (postgres)
      rows.push(
        row(
          AREA,
          `${kind}: PostgreSQL's CPU per 1,000 rows (load ${load})`,
          Math.round(perThousand(databaseCpu)),
          'ms',
        ),
      );
  } finally {
    await server?.stop().catch(() => {});
    await postgres?.stop().catch(() => {});
    removeTempFolder(dataDir);
  }
}

export async function benchXlsxExports(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const kind of ['postgres', 'pglite'] as const) if (benchDatabases().includes(kind)) await benchOn(kind, rows);
  return rows;
}
