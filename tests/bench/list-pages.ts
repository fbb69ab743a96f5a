/**
 * `npm run bench -- list-pages` (issue 35 point 3): what a list's deep pages cost against its first ones, black-box
 * over HTTP against the real server (read cache off), on the embedded database and on PostgreSQL (BENCH_DATABASES).
 * Each of three lists is walked from page 1 to page 100 (25 a page, `total=estimate` as the generated lists ask),
 * once following each page's `meta.next_cursor` as the web client does (the page sought in the sort's index), once
 * by page number only (read past its offset, as before cursors): p50 / p95 and the server's CPU per request of pages
 * 1–10 and 91–100 each way, the load average beside each. Target: pages 91–100 within 1.2× of pages 1–10, p95 ≤ 25 ms.
 * BENCH_SITES (30,000: each of the six site types then has more than 100 pages), BENCH_PASSES (2) walks per list.
 * BENCH_READ_CACHE=1: the servers with their read cache on, as `npm start` runs them; a site is changed before each
 * walk, so that no whole answer comes from the cache of the one before, while what a list keeps between its own pages
 * (names, turfs, its total) is used as people would use it.
 */
import { performance } from 'node:perf_hooks';
import { SITE_TYPES, startServerWithSites } from '../support/many-sites.js';
import { request, signIn, xsrfOf } from './lib/http.js';
import { percentile } from './lib/percentile.js';
import { benchDatabases, loadAverage, procCpuMs } from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'list-pages';
const SITES = Number(process.env.BENCH_SITES ?? 30_000);
const PASSES = Number(process.env.BENCH_PASSES ?? 2);
const PAGES = 100;
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };
const READ_CACHE = process.env.BENCH_READ_CACHE === '1';

/** The lists walked: a type's sites by value (the case), every site by name, a type's newest first. */
const LISTS: Array<[string, (pass: number) => string]> = [
  ['a type by value', (pass) => `filter[type]=${SITE_TYPES[pass % 6]}&sort=estimated_value&order=desc`],
  ['every site by name', () => 'sort=name&order=asc'],
  ['a type, newest first', (pass) => `filter[type]=${SITE_TYPES[(pass + 3) % 6]}&sort=created_at&order=desc`],
];

interface Timed {
  ms: number;
  cpuMs: number;
}

/** A site's notes changed, as someone at work would: every answer the read cache kept is then stale. */
async function writeOne(baseUrl: string, cookie: string, siteId: number) {
  const xsrf = xsrfOf(cookie);
  const body = JSON.stringify({ notes: `walked ${performance.now()}` });
  const answer = await request(`${baseUrl}/api/sites/${siteId}`, {
    method: 'PUT',
    headers: { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
    body,
  });
  if (answer.status !== 200) throw new Error(`PUT /api/sites/${siteId} answered ${answer.status}`);
}

async function walk(baseUrl: string, cookie: string, pid: number, query: string, cursors: boolean) {
  const pages: Timed[] = [];
  let cursor: string | undefined;
  for (let page = 1; page <= PAGES; page++) {
    const asked = cursors && cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const cpuFrom = procCpuMs(pid);
    const started = performance.now();
    const response = await request(`${baseUrl}/api/sites?${query}&per_page=25&page=${page}&total=estimate${asked}`, {
      headers: { cookie },
    });
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`${query} page ${page} answered ${response.status}`);
    pages.push({ ms, cpuMs: procCpuMs(pid) - cpuFrom });
    cursor = JSON.parse(response.body).meta.next_cursor;
    if (cursors && !cursor && page < PAGES) throw new Error(`${query}: page ${page} gave no cursor`);
  }
  return pages;
}

function summary(timed: Timed[]) {
  const times = timed.map((t) => t.ms);
  const cpu = timed.reduce((sum, t) => sum + t.cpuMs, 0) / timed.length;
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), cpu };
}

async function benchOn(kind: 'pglite' | 'postgres', rows: BenchRow[]) {
  const running = await startServerWithSites(SITES, ADMIN, {
    postgres: kind === 'postgres',
    ...(READ_CACHE ? { env: { READ_CACHE: '1' } } : {}),
  });
  try {
    const { server } = running;
    const cookie = await signIn(server.baseUrl, ADMIN.email, ADMIN.password);
    const siteId: number = JSON.parse(
      (await request(`${server.baseUrl}/api/sites?per_page=1`, { headers: { cookie } })).body,
    ).data[0].id;
    // A first walk of each list, not timed: the server's code and the indexes warmed.
    for (const [, queryOf] of LISTS) await walk(server.baseUrl, cookie, server.pid, queryOf(PASSES), true);
    for (const [name, queryOf] of LISTS) {
      for (const cursors of [false, true]) {
        const first: Timed[] = [];
        const deep: Timed[] = [];
        for (let pass = 0; pass < PASSES; pass++) {
          if (READ_CACHE) await writeOne(server.baseUrl, cookie, siteId);
          const pages = await walk(server.baseUrl, cookie, server.pid, queryOf(pass), cursors);
          first.push(...pages.slice(0, 10));
          deep.push(...pages.slice(PAGES - 10));
        }
        const load = loadAverage();
        const a = summary(first);
        const b = summary(deep);
        const how = `${cursors ? 'with cursors' : 'by offset'}${READ_CACHE ? ', read cache on' : ''}`;
        console.error(
          `[bench] list-pages, ${kind}: ${name}, ${how}: pages 1-10 p50 ${a.p50.toFixed(1)} / p95 ${a.p95.toFixed(1)} ms, CPU ${a.cpu.toFixed(2)} ms; pages 91-100 p50 ${b.p50.toFixed(1)} / p95 ${b.p95.toFixed(1)} ms, CPU ${b.cpu.toFixed(2)} ms; load average ${load}`,
        );
        const label = `${kind}: ${name}, ${how} (${SITES} sites; load ${load})`;
        rows.push(row(AREA, `${label}: pages 1-10 p95`, Math.round(a.p95 * 10) / 10, 'ms', { atMost: 25 }));
        rows.push(row(AREA, `${label}: pages 91-100 p95`, Math.round(b.p95 * 10) / 10, 'ms', { atMost: 25 }));
        rows.push(row(AREA, `${label}: server CPU per page, pages 1-10`, Math.round(a.cpu * 100) / 100, 'ms'));
        rows.push(row(AREA, `${label}: server CPU per page, pages 91-100`, Math.round(b.cpu * 100) / 100, 'ms'));
        rows.push(
          row(AREA, `${label}: pages 91-100 p50 over pages 1-10 p50`, Math.round((b.p50 / a.p50) * 100) / 100, '×', {
            atMost: 1.2,
          }),
        );
      }
    }
  } finally {
    await running.close();
  }
}

export async function benchListPages(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const kind of benchDatabases()) await benchOn(kind, rows);
  return rows;
}
