/**
 * `npm run bench -- views` (issue 32): with 100,000 sites, black-box over HTTP against the real server as `npm start`
 * runs it (read cache on, the default on both databases) on the embedded database and on PostgreSQL (skipped when
 * none is installed):
 * - a view's list: two AND/OR groups, a relative date and a condition on the related general contractor's type,
 *   sorted on two columns, p95 against the list with a single filter (target: at most 1.5 times it);
 * - the list grouped by type with the count and the sums of the number fields per group
 *   (GET /api/records/sites/groups), p95 (target: under 100 ms on PostgreSQL).
 * Sites come from tests/support/many-sites.ts with their bid dates (two years around today) and general contractors
 * (two sites in three, 2,000 contractors of four types) in the same one insert, while the server is stopped; on the
 * embedded database from its kept data folder (made once, copied for each run). Each list request
 * asks another page or relative date, as a person paging through would. The load average is printed beside every
 * figure, with the CPU time per request of the server and, on PostgreSQL, of the database's processes (steadier on a
 * shared machine); BENCH_PG_STATEMENTS=1 prints each case's costliest statements there. BENCH_SITES=2000 makes a quick run;
 * BENCH_DATABASES=pglite (or postgres) runs one database only. BENCH_READ_CACHE=0: the servers with their read cache off,
 * so that each request counts its list's matches (with it on, a list's total and each choice's matches are counted on
 * its first page and kept until a write, records/kept-totals.ts, as for a person paging through it); the figures'
 * names then say "read cache off".
 */

import { performance } from 'node:perf_hooks';
import { putSites } from '../support/many-sites.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';
import { request, signIn } from './lib/http.js';
import { percentile } from './lib/percentile.js';
import { statementProfile, statementSettings } from './lib/pg-statements.js';
import {
  benchDatabases,
  freePort,
  loadAverage,
  makeTempFolder,
  procCpuMs,
  type RunningServer,
  removeTempFolder,
  startServer,
} from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'views';
const SITES = Number(process.env.BENCH_SITES ?? 100_000);
const CONTRACTORS = 2_000;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const WARMUP = 10;
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };
const TYPES = ['union', 'non-union', 'pla', 'public-works', 'development', 'pending'];
const READ_CACHE = process.env.BENCH_READ_CACHE !== '0';
const RELATIVE = ['this_month', 'last_30_days', 'this_quarter', 'next_30_days', 'last_quarter', 'this_year'];

const encoded = (value: unknown) => encodeURIComponent(JSON.stringify(value));

/** Request i of each case. */
function cases(): Array<[string, (i: number) => string]> {
  return [
    // About 16,700 matches each, sorted by a column with a value on every site (the records bench's first case).
    [
      'single-filter list (type = <type>, sorted by value)',
      (i) =>
        `/api/sites?filter[type]=${TYPES[i % 6]}&sort=estimated_value&order=desc&page=${1 + Math.floor(i / 6)}&per_page=25&total=estimate`,
    ],
    [
      'view list (two AND/OR groups, a relative date, a relation condition; two sorts)',
      (i) =>
        `/api/sites?filters=${encoded({
          all: [
            {
              any: [
                { field: 'type', op: 'eq', value: 'union' },
                { field: 'type', op: 'eq', value: 'pla' },
              ],
            },
            {
              any: [
                { field: 'bid_date', op: 'date', value: RELATIVE[i % RELATIVE.length] },
                { field: 'general_contractor_id.type', op: 'eq', value: 'union' },
              ],
            },
          ],
        })}&sort=type,-estimated_value&order=asc&page=${1 + Math.floor(i / RELATIVE.length)}&per_page=25&total=estimate`,
    ],
  ];
}

const GROUPS = '/api/records/sites/groups?group_by=type';

async function timed(server: RunningServer, cookie: string, urlOf: (i: number) => string, databaseCpuMs: () => number) {
  const times: number[] = [];
  let cpuFrom = 0;
  let databaseCpuFrom = 0;
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const url = urlOf(i);
    if (i === WARMUP) {
      cpuFrom = procCpuMs(server.pid);
      databaseCpuFrom = databaseCpuMs();
    }
    const started = performance.now();
    const response = await request(server.baseUrl + url, { headers: { cookie } });
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${response.body.slice(0, 300)}`);
    if (i >= WARMUP) times.push(performance.now() - started);
  }
  return {
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    cpu: (procCpuMs(server.pid) - cpuFrom) / SAMPLES,
    databaseCpu: (databaseCpuMs() - databaseCpuFrom) / SAMPLES,
  };
}

async function benchOn(kind: 'pglite' | 'postgres', rows: BenchRow[]) {
  const dataDir = makeTempFolder('om-bench-views-');
  let postgres: PostgresServer | null = null;
  let server: RunningServer | null = null;
  try {
    if (kind === 'postgres') {
      postgres = await (startPostgres(statementSettings()) ?? Promise.resolve(null));
      if (!postgres) {
        console.error('[bench] views: no PostgreSQL server binaries installed; PostgreSQL skipped');
        return;
      }
    }
    const options = {
      dataDir,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      databaseUrl: postgres?.url,
      readCache: false,
    };
    await putSites(options, SITES, ADMIN, { keep: true, fill: { contractors: CONTRACTORS } });
    server = await startServer({ ...options, readCache: READ_CACHE, port: await freePort() });
    const setup = READ_CACHE ? kind : `${kind}, read cache off`;
    const cookie = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);

    const p95s: number[] = [];
    const statements = statementProfile(AREA, postgres?.url);
    for (const [metric, urlOf] of [...cases(), ['grouped by type, counts and sums', () => GROUPS] as const]) {
      await statements.reset();
      const figures = await timed(server, cookie, urlOf, () => postgres?.cpuMs() ?? 0);
      await statements.print(metric);
      const load = loadAverage();
      const databaseCpu = postgres ? `, PostgreSQL's CPU ${figures.databaseCpu.toFixed(1)} ms` : '';
      console.error(
        `[bench] views, ${setup}: ${metric}: p50 ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms; server CPU ${figures.cpu.toFixed(1)} ms${databaseCpu} per request; load average ${load}`,
      );
      p95s.push(figures.p95);
      const grouped = metric.startsWith('grouped');
      rows.push(
        row(
          AREA,
          `${setup}: ${metric} p95 (${SITES} sites; load ${load})`,
          Math.round(figures.p95 * 10) / 10,
          'ms',
          grouped && kind === 'postgres' ? { below: 100 } : undefined,
        ),
      );
      rows.push(
        row(AREA, `${setup}: ${metric} server CPU per request (load ${load})`, Math.round(figures.cpu * 10) / 10, 'ms'),
      );
      if (postgres)
        rows.push(
          row(
            AREA,
            `${setup}: ${metric} PostgreSQL's CPU per request (load ${load})`,
            Math.round(figures.databaseCpu * 10) / 10,
            'ms',
          ),
        );
    }
    await statements.close();
    const ratio = p95s[1] / p95s[0];
    console.error(`[bench] views, ${setup}: view list p95 / single-filter list p95 = ${ratio.toFixed(2)}`);
    rows.push(
      row(AREA, `${setup}: view list p95 / single-filter list p95`, Math.round(ratio * 100) / 100, '×', {
        atMost: 1.5,
      }),
    );
  } finally {
    await server?.stop().catch(() => {});
    await postgres?.stop().catch(() => {});
    removeTempFolder(dataDir);
  }
}

export async function benchViews(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const kind of ['pglite', 'postgres'] as const) if (benchDatabases().includes(kind)) await benchOn(kind, rows);
  return rows;
}
