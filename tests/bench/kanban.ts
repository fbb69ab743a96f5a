/**
 * `npm run bench -- kanban`: the kanban layout's first paint in headless Chromium (issue 32: a board of 5 columns × 50
 * cards drawn in under 1 s), against the real server (`npm start`, built client: run `npx vite build` first).
 *
 * A required custom dropdown "Stage" with five choices is added to sites as an administrator would, then BENCH_SITES
 * sites (1,000 by default) are written with SQL, their stages cycling through the five, so each column has more than
 * 50 cards. Each sample opens `/sites?layout=kanban&by=<stage>` in a fresh page load; the figure is the time from the
 * navigation's start (the page's time origin) to the first frame painted once the five columns each hold their 50
 * cards: the document, the bundle, the session, the schema, the board's one request (GET /api/records/sites/board;
 * before it, five list requests and the list's own) and React's rendering, all inside it; and when the cards' data
 * was asked for and had arrived (resource timings).
 * Beside it, the renderer main thread's CPU time over the same load (a Chromium trace, lib/main-thread.ts), which the
 * other processes on the shared machine do not inflate. On a throwaway PostgreSQL server when one is installed
 * (BENCH_DATABASES=pglite: the embedded database). BENCH_SAMPLES (default 7) samples after 2 warm-up loads; p50 and
 * p95, with the load average beside each figure. BENCH_CPU_PROFILE=<file> writes the last load's renderer CPU profile
 * there (open it in Chromium's DevTools, Performance).
 */
import { writeFileSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';
import { fillSites } from '../support/many-sites.js';
import { type PostgresServer, startPostgres } from '../support/postgres-server.js';
import { request, signIn, xsrfOf } from './lib/http.js';
import { mainThreadTime } from './lib/main-thread.js';
import { percentile } from './lib/percentile.js';
import {
  freePort,
  loadAverage,
  makeTempFolder,
  type RunningServer,
  removeTempFolder,
  startServer,
} from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'kanban';
const SITES = Number(process.env.BENCH_SITES ?? 1_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 7);
const WARMUP = 2;
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };
const STAGES = ['lead', 'contacted', 'meeting', 'vote', 'won'];
const CARDS = 50;

/** Adds the required five-choice dropdown to sites; its slug. */
async function addStageField(baseUrl: string): Promise<string> {
  const cookie = await signIn(baseUrl, ADMIN.email, ADMIN.password);
  const xsrf = xsrfOf(cookie);
  // Set-up, not measured: a freshly started server on a loaded machine may take longer than the usual 10 s.
  const timeoutMs = 120_000;
  const schemas = JSON.parse(
    (await request(`${baseUrl}/api/schemas?per_page=-1`, { headers: { cookie }, timeoutMs })).body,
  );
  const site = schemas.data.find((schema: { type: string }) => schema.type === 'site');
  const created = await request(`${baseUrl}/api/schema-fields`, {
    method: 'POST',
    headers: { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
    timeoutMs,
    body: JSON.stringify({
      schema_id: site.id,
      name: 'Stage',
      type: 'dropdown',
      required: true,
      options: { choices: STAGES.map((value) => ({ value, label: value })) },
    }),
  });
  if (created.status !== 201) throw new Error(`Adding the Stage field answered ${created.status}: ${created.body}`);
  return JSON.parse(created.body).data.slug as string;
}

async function signInPage(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: false }).first().fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/**
 * In the page: the time (from the navigation's start) of the frame painted once every column holds its 50 cards, and
 * when the cards' data was asked for and had all arrived (the resource timings of the board's request, or of the
 * columns' list requests of `per_page=50`).
 */
interface BoardTimes {
  painted: number;
  requests: number;
  asked: number | null;
  answered: number | null;
  /** Every script and API request of the load: its path, when asked and when answered (ms from navigation). */
  waterfall: Array<[string, number, number]>;
}

const BOARD_PAINTED = `new Promise((resolve, reject) => {
  setTimeout(() => reject(new Error('The board was not drawn within 30 s')), 30000);
  const done = () => {
    const columns = document.querySelectorAll('[data-testid^="kanban-column-"]');
    return columns.length === ${STAGES.length} && [...columns].every((column) => column.querySelectorAll('[data-testid="kanban-card"]').length === ${CARDS});
  };
  // Where the cards' data came from: the board's one request, or (before it) one list request per column.
  const data = () => performance.getEntriesByType('resource').filter((entry) =>
    entry.name.includes('/api/records/') ? entry.name.includes('/board?') : entry.name.includes('per_page=${CARDS}'));
  const finish = () => requestAnimationFrame(() => setTimeout(() => {
    const painted = performance.now();
    const reads = data();
    resolve({
      painted,
      requests: reads.length,
      asked: reads.length ? Math.min(...reads.map((entry) => entry.startTime)) : null,
      answered: reads.length ? Math.max(...reads.map((entry) => entry.responseEnd)) : null,
      waterfall: performance.getEntriesByType('resource')
        .filter((entry) => entry.name.includes('/api/') || entry.name.endsWith('.js'))
        .map((entry) => [new URL(entry.name).pathname, Math.round(entry.startTime), Math.round(entry.responseEnd)]),
    });
  }, 0));
  if (done()) return finish();
  const observer = new MutationObserver(() => {
    if (!done()) return;
    observer.disconnect();
    finish();
  });
  observer.observe(document, { childList: true, subtree: true });
})`;

export async function benchKanban(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const usePostgres = process.env.BENCH_DATABASES !== 'pglite';
  const postgres: PostgresServer | null = usePostgres ? await (startPostgres() ?? Promise.resolve(null)) : null;
  const dataDir = makeTempFolder('om-bench-kanban-');
  let server: RunningServer | null = null;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const options = {
      dataDir,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      databaseUrl: postgres?.url,
    };
    server = await startServer({ ...options, port: await freePort() });
    const slug = await addStageField(server.baseUrl);
    await server.stop();
    server = null;
    await fillSites(postgres?.url, dataDir, SITES, { custom: { slug, choices: STAGES } });
    server = await startServer({ ...options, port: await freePort() });

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await signInPage(page, server.baseUrl);
    const url = `${server.baseUrl}/sites?layout=kanban&by=${slug}`;
    const painted: number[] = [];
    const cpus: number[] = [];
    const asked: number[] = [];
    const answered: number[] = [];
    let requests = 0;
    let waterfall: BoardTimes['waterfall'] = [];
    const profileTo = process.env.BENCH_CPU_PROFILE;
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const profiler = profileTo && i === WARMUP + SAMPLES - 1 ? await context.newCDPSession(page) : null;
      if (profiler) {
        await profiler.send('Profiler.enable');
        await profiler.send('Profiler.setSamplingInterval', { interval: 250 });
        await profiler.send('Profiler.start');
      }
      const { result, cpuMs } = await mainThreadTime(page, async () => {
        await page.goto(url, { waitUntil: 'commit' });
        return page.evaluate<BoardTimes>(BOARD_PAINTED);
      });
      if (profiler && profileTo)
        writeFileSync(profileTo, JSON.stringify((await profiler.send('Profiler.stop')).profile));
      if (i >= WARMUP) {
        painted.push(result.painted);
        cpus.push(cpuMs);
        if (result.asked !== null && result.answered !== null) {
          asked.push(result.asked);
          answered.push(result.answered);
        }
        requests = result.requests;
        waterfall = result.waterfall;
      }
    }
    // What the last load waited for, in order: where the time before the board's request goes.
    console.error(
      `[bench] kanban: the last load's scripts and API requests (asked -> answered, ms):\n${waterfall
        .map(([path, start, end]) => `  ${String(start).padStart(5)} -> ${String(end).padStart(5)}  ${path}`)
        .join('\n')}`,
    );
    const load = loadAverage();
    const database = postgres ? 'PostgreSQL' : 'embedded database';
    console.error(
      `[bench] kanban: ${STAGES.length} columns × ${CARDS} cards (${SITES} sites, ${database}), navigation -> board painted p50 ${percentile(painted, 0.5).toFixed(0)} ms, p95 ${percentile(painted, 0.95).toFixed(0)} ms; main-thread CPU p50 ${percentile(cpus, 0.5).toFixed(0)} ms; the cards' data in ${requests} request(s), asked at p50 ${percentile(asked, 0.5).toFixed(0)} ms, answered at p50 ${percentile(answered, 0.5).toFixed(0)} ms; load average ${load}`,
    );
    rows.push(
      row(
        AREA,
        `${STAGES.length}×${CARDS} board: navigation -> first paint p50 (${database}; load ${load})`,
        Math.round(percentile(painted, 0.5)),
        'ms',
        { below: 1000 },
      ),
      row(
        AREA,
        `${STAGES.length}×${CARDS} board: navigation -> first paint p95 (load ${load})`,
        Math.round(percentile(painted, 0.95)),
        'ms',
      ),
      row(
        AREA,
        `${STAGES.length}×${CARDS} board: the cards' data (${requests} request(s)) asked at, p50 (load ${load})`,
        Math.round(percentile(asked, 0.5)),
        'ms',
      ),
      row(
        AREA,
        `${STAGES.length}×${CARDS} board: the cards' data answered at, p50 (load ${load})`,
        Math.round(percentile(answered, 0.5)),
        'ms',
      ),
      row(
        AREA,
        `${STAGES.length}×${CARDS} board: main-thread CPU of the load p50 (load ${load})`,
        Math.round(percentile(cpus, 0.5)),
        'ms',
        {
          below: 1000,
        },
      ),
    );
    return rows;
  } finally {
    await browser.close().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    await postgres?.stop().catch(() => undefined);
    removeTempFolder(dataDir);
  }
}
