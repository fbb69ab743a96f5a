/**
 * The offline app shell (issue 17's benchmark, docs/offline.md): after a first visit has installed the service worker,
 * the app is opened in a new tab with no connection, several times, and timed from the start of the navigation to the
 * signed-in shell on screen (top bar and dashboard greeting): the page, its scripts and the start-up reads all come
 * from the worker's caches. Target under 1 s. Builds the client and runs the real server (`npm start`'s way) on a
 * temporary data folder; headless Chromium at a phone's width, offline through the browser's network emulation. The
 * load average is printed beside each load (two shared cores: a figure is only comparable with one taken at a
 * similar load).
 */
import { execSync } from 'node:child_process';
import { type Browser, chromium } from '@playwright/test';
import {
  freePort,
  loadAverage,
  makeTempFolder,
  ROOT,
  type RunningServer,
  removeTempFolder,
  startServer,
} from './lib/server.js';
import { type BenchRow, row } from './types.js';

const AREA = 'offline';
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'bench-admin-password';
const RUNS = 5;
const TARGET_MS = 1_000;

/**
 * When the signed-in shell is on screen: the top bar and the dashboard's greeting (performance.now() from navigation
 * start). A string: no loader helpers in the page.
 */
const SHELL_PROBE = `(() => {
  const check = () => {
    if (document.querySelector('[data-testid=open-drawer]') && document.querySelector('[data-testid=greeting]')) { window.__shell = performance.now(); return; }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

export async function benchOffline(): Promise<BenchRow[]> {
  execSync('npx vite build --logLevel warn', { cwd: ROOT, stdio: 'inherit' });
  const dataDir = makeTempFolder('om-bench-offline-');
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const rows: BenchRow[] = [];
  try {
    server = await startServer({
      dataDir,
      port: await freePort(),
      adminEmail: ADMIN_EMAIL,
      adminPassword: ADMIN_PASSWORD,
      timeoutMs: 180_000,
    });
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });
    const context = await browser.newContext({
      baseURL: server.baseUrl,
      viewport: { width: 390, height: 844 },
      serviceWorkers: 'allow',
    });
    await context.addInitScript(SHELL_PROBE);

    // The first visit: sign in, let the worker install (it precaches the build) and take the page, load once more.
    const first = await context.newPage();
    await first.goto('/login');
    await first.getByLabel('Email').fill(ADMIN_EMAIL);
    await first.getByLabel('Password', { exact: false }).first().fill(ADMIN_PASSWORD);
    await first.getByRole('button', { name: 'Sign In' }).click();
    await first.getByTestId('greeting').waitFor({ timeout: 60_000 });
    await first.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await first.reload();
    await first.getByTestId('greeting').waitFor({ timeout: 60_000 });
    await first.close();

    // For comparison at the same load: the same loads online, where the worker sends the page and API reads to the
    // network (over loopback here) and answers the scripts from its cache.
    const online: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const page = await context.newPage();
      await page.goto('/');
      await page.waitForFunction(() => (window as unknown as { __shell?: number }).__shell !== undefined, undefined, {
        timeout: 30_000,
      });
      online.push(await page.evaluate(() => (window as unknown as { __shell: number }).__shell));
      await page.close();
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    rows.push(row(AREA, `the same shell online, median of ${RUNS} (load avg ${loadAverage()})`, median(online), 'ms'));

    await context.setOffline(true);
    const times: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const page = await context.newPage();
      const started = Date.now();
      await page.goto('/');
      await page.waitForFunction(() => (window as unknown as { __shell?: number }).__shell !== undefined, undefined, {
        timeout: 30_000,
      });
      const shellMs = await page.evaluate(() => (window as unknown as { __shell: number }).__shell);
      const controlled = await page.evaluate(() => Boolean(navigator.serviceWorker.controller));
      if (!controlled) throw new Error('The page was not served by the service worker.');
      times.push(shellMs);
      rows.push(
        row(
          AREA,
          `offline app shell from the worker's cache, load ${run} (${Date.now() - started} ms wall; load avg ${loadAverage()})`,
          shellMs,
          'ms',
          { below: TARGET_MS },
        ),
      );
      await page.close();
    }
    rows.push(
      row(AREA, `offline app shell, median of ${RUNS} (load avg ${loadAverage()})`, median(times), 'ms', {
        below: TARGET_MS,
      }),
    );
    await context.close();
  } finally {
    await browser?.close();
    await server?.stop();
    removeTempFolder(dataDir);
  }
  return rows;
}
