/**
 * `npm run bench -- compare` (issue 35 point 5): the product's headline figures on both databases in one run, so a
 * later change is measured the same way. It runs the benches that measure each figure and keeps their headline rows,
 * each with its CPU per unit and the load average at the time:
 * - a list's p95 and server CPU per page at pages 1-10 and 91-100 (list-pages: a type by value, every site by name,
 *   a type newest first; by offset and with cursors), BENCH_SITES sites (default here 30,000), BENCH_PASSES (1);
 * - an import's CPU per row, server + database, and its time (imports), BENCH_IMPORT_ROWS rows (default here 10,000);
 * - 50 people's reads and writes (load): p95, answers a second, server CPU per answer, LOAD_SECONDS (default here 30);
 * - server CPU per answer of each request of the load mix, in process (load-costs), embedded then PostgreSQL; the
 *   site list's target (10-35 rows a page in the mix, 22 on average) is 2 ms. LOAD_COSTS_REQUESTS (default here 600).
 * BENCH_DATABASES / LOAD_SETUPS choose the databases as for those benches (both by default).
 */
import { loadAverage } from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'compare';

const DEFAULTS: Record<string, string> = {
  BENCH_SITES: '30000',
  BENCH_PASSES: '1',
  BENCH_IMPORT_ROWS: '10000',
  LOAD_SECONDS: '30',
  LOAD_SETUPS: 'pglite,postgres',
  LOAD_COSTS_REQUESTS: '600',
};

/** A bench's row kept under this area, with the load average after its bench when its label has none. */
const kept = (from: BenchRow, load: string): BenchRow => ({
  ...from,
  area: AREA,
  metric: `${from.area}: ${from.metric}${/\bload\b/.test(from.metric) ? '' : ` (load ${load})`}`,
});

async function listPages(rows: BenchRow[]) {
  const { benchListPages } = await import('./list-pages.js');
  const found = await benchListPages();
  const load = loadAverage();
  for (const r of found) if (/p95|CPU per page/.test(r.metric)) rows.push(kept(r, load));
}

async function imports(rows: BenchRow[]) {
  const { benchImports } = await import('./imports.js');
  const found = await benchImports();
  const load = loadAverage();
  for (const r of found) if (/CPU|import time, whole file/.test(r.metric)) rows.push(kept(r, load));
}

async function load(rows: BenchRow[]) {
  const { benchLoad } = await import('./load.js');
  const found = await benchLoad();
  const load = loadAverage();
  const setups = new Set(found.map((r) => /\[([^\]]+)\]/.exec(r.metric)?.[1]).filter(Boolean));
  for (const where of setups) {
    const of = (start: string) => found.find((r) => r.metric.startsWith(start) && r.metric.includes(`[${where}]`));
    const requests = of('requests (');
    const cpu = of('server CPU during the run');
    for (const r of [of('latency p95'), of('requests per second'), of('errors')]) if (r) rows.push(kept(r, load));
    if (requests?.value && cpu?.value !== null && cpu?.value !== undefined)
      rows.push(
        row(
          AREA,
          `load: server CPU per answer [${where}] (PostgreSQL's own not counted; load ${load})`,
          (cpu.value * 1000) / requests.value,
          'ms',
        ),
      );
  }
}

async function loadCosts(rows: BenchRow[]) {
  const { benchLoadCosts } = await import('./load-costs.js');
  for (const database of ['embedded', 'postgres']) {
    process.env.LOAD_COSTS_DATABASE = database;
    const found = await benchLoadCosts();
    const load = loadAverage();
    for (const r of found) {
      const list = /^list sites \[/.test(r.metric);
      if (!list && !/^every kind/.test(r.metric)) continue;
      rows.push(kept(list ? row(r.area, r.metric, r.value, r.unit, { atMost: 2 }) : r, load));
    }
  }
}

export async function benchCompare(): Promise<BenchRow[]> {
  for (const [name, value] of Object.entries(DEFAULTS)) process.env[name] ??= value;
  const rows: BenchRow[] = [];
  for (const part of [listPages, imports, load, loadCosts]) {
    try {
      await part(rows);
    } catch (error) {
      const message = (error as Error).message.split('\n')[0].slice(0, 200);
      rows.push({ ...row(AREA, `${part.name} FAILED: ${message}`, null, ''), ok: false });
    }
  }
  return rows;
}
