/**
 * Client bundle figures: JavaScript transferred (gzip) to show /login, and to show the dashboard after
 * signing in there; time until /login is interactive in headless Chromium. Builds the client, runs the real
 * server on a temporary data folder and drives Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
 *
 * The server does not compress responses itself, so each script is gzipped here (zlib, level 9, as a
 * static-file server or proxy would serve it).
 */
import { execSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { freePort, makeTempFolder, removeTempFolder, ROOT, startServer, type RunningServer } from './lib/server.js';
import { row, type BenchRow } from './types.js';

const AREA = 'client-bundle';
const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'bench-admin-password';
const RUNS = 5;
const KB = 1024;

interface ScriptLog {
  /** url -> gzip bytes */
  scripts: Map<string, number>;
}

function trackScripts(page: Page): ScriptLog {
  const log: ScriptLog = { scripts: new Map() };
  page.on('response', async (response) => {
    const url = response.url();
    const type = response.request().resourceType();
    if (type !== 'script' && !/\.m?js(\?|$)/.test(url)) return;
    try {
      const body = await response.body();
      log.scripts.set(url, gzipSync(body, { level: 9 }).length);
    } catch {
      // A response without a body (redirect) carries no JavaScript.
    }
  });
  return log;
}

const total = (log: ScriptLog) => [...log.scripts.values()].reduce((sum, bytes) => sum + bytes, 0);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/**
 * Records when the sign-in form can be typed into (performance.now() from navigation start). A string, so
 * the TypeScript loader's helpers never end up in the page.
 */
const INTERACTIVE_PROBE = `(() => {
  const check = () => {
    const input = document.querySelector('input[name=email]');
    const button = document.querySelector('button[type=submit]');
    if (input && button && !input.disabled) { window.__loginInteractive = performance.now(); return; }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
}

export async function benchClientBundle(): Promise<BenchRow[]> {
  execSync('npx vite build --logLevel warn', { cwd: ROOT, stdio: 'inherit' });
  const dataDir = makeTempFolder('om-bench-client-');
  let server: RunningServer | null = null;
  let browser: Browser | null = null;
  try {
    server = await startServer({ dataDir, port: await freePort(), adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD });
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });

    const loginBytes: number[] = [];
    const dashboardBytes: number[] = [];
    const directDashboardBytes: number[] = [];
    const interactiveMs: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 800 } });
      await context.addInitScript({ content: INTERACTIVE_PROBE });
      const page = await context.newPage();
      const log = trackScripts(page);
      await page.goto('/login');
      await page.waitForFunction('window.__loginInteractive !== undefined');
      interactiveMs.push(Number(await page.evaluate('window.__loginInteractive')));
      await settle(page);
      loginBytes.push(total(log));

      await page.fill('input[name=email]', ADMIN_EMAIL);
      await page.fill('input[name=password]', ADMIN_PASSWORD);
      await page.click('button[type=submit]');
      await page.waitForSelector('[data-testid=greeting]');
      await settle(page);
      dashboardBytes.push(total(log));

      // Signed in already: open the dashboard directly in a fresh page (empty cache).
      const direct = await context.newPage();
      const directLog = trackScripts(direct);
      await direct.goto('/');
      await direct.waitForSelector('[data-testid=greeting]');
      await settle(direct);
      directDashboardBytes.push(total(directLog));
      await context.close();
    }

    return [
      row(AREA, 'JS transferred to show /login (gzip)', median(loginBytes) / KB, 'KB', { atMost: 300 }),
      row(AREA, 'JS transferred to show the dashboard after signing in at /login (gzip, cumulative)', median(dashboardBytes) / KB, 'KB', { atMost: 450 }),
      row(AREA, 'JS transferred to open the dashboard when signed in (gzip)', median(directDashboardBytes) / KB, 'KB'),
      row(AREA, `/login interactive in headless Chromium (median of ${RUNS})`, median(interactiveMs), 'ms'),
    ];
  } finally {
    await browser?.close();
    await server?.stop();
    removeTempFolder(dataDir);
  }
}
