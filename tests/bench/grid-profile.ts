/**
 * `npx tsx tests/bench/grid-profile.ts`: where the main thread's time goes when the site list's grid shows its next
 * page of 100 rows (the grid bench's case), from a CPU profile of the built client: the functions with the most
 * time of their own, the components and functions with the most time inclusive, and the time per component (what
 * runs under a component's function up to the next component: its render, hooks and selectors). Build the client unminified
 * first for readable names (`npx vite build --minify false`). BENCH_SITES (10,000) sites, BENCH_SAMPLES (5) pages.
 */
import { chromium } from 'playwright-core';
import { startServerWithSites } from '../support/many-sites.js';

const SITES = Number(process.env.BENCH_SITES ?? 10_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 5);
const ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };
/** The page's first row (the grid fills the window and renders only the rows in view). */
const FIRST_ROW = `document.querySelector('[role=grid] [role=row][data-rowindex="0"]')`;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const running = await startServerWithSites(SITES, ADMIN, { postgres: process.env.BENCH_DATABASES !== 'pglite' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })).newPage();
  const baseUrl = running.server.baseUrl;
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: false }).first().fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.goto(`${baseUrl}/sites?page=1&perPage=100&sort=name&order=ASC`);
  await page.waitForFunction(`Boolean(${FIRST_ROW})`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byComponent = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < SAMPLES + 1; i++) {
    const before = await page.evaluate<string>(`${FIRST_ROW}?.getAttribute('data-id') ?? ''`);
    if (i > 0) await cdp.send('Profiler.start');
    await page.getByRole('button', { name: /next page/i }).click();
    await page.waitForFunction(
      `Boolean(${FIRST_ROW}) && ${FIRST_ROW}.getAttribute('data-id') !== ${JSON.stringify(before)}`,
    );
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))');
    if (i === 0) continue;
    const { profile } = await cdp.send('Profiler.stop');
    const nodes = new Map<number, ProfileNode>(profile.nodes.map((node: ProfileNode) => [node.id, node]));
    const hits = new Map<number, number>();
    const deltas = profile.timeDeltas ?? [];
    profile.samples?.forEach((id: number, index: number) =>
      hits.set(id, (hits.get(id) ?? 0) + (deltas[index + 1] ?? deltas[index] ?? 0) / 1000),
    );
    const name = (node: ProfileNode) =>
      `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}`;
    // A component is a function of the page's scripts named with a capital (React's own functions are not).
    const isComponent = (node: ProfileNode) => /^[A-Z]/.test(node.callFrame.functionName) && node.callFrame.url !== '';
    const walk = (id: number, open: Set<string>, component: string): number => {
      const node = nodes.get(id)!;
      const key = name(node);
      const own = hits.get(id) ?? 0;
      if (!['(idle)', '(program)', '(garbage collector)'].includes(node.callFrame.functionName)) total += own;
      self.set(key, (self.get(key) ?? 0) + own);
      const owner = isComponent(node) ? key : component;
      byComponent.set(owner, (byComponent.get(owner) ?? 0) + own);
      const inside = new Set(open).add(key);
      const sum = own + (node.children ?? []).reduce((acc, child) => acc + walk(child, inside, owner), 0);
      if (!open.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + sum);
      return sum;
    };
    walk(profile.nodes[0].id, new Set(), '(outside any component)');
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, ms]) => `${(ms / SAMPLES).toFixed(1).padStart(8)} ms  ${key}`);
  console.log(`Busy (not idle, program or GC) per page: ${(total / SAMPLES).toFixed(1)} ms`);
  console.log('\nSelf time per page:\n' + top(self, 40).join('\n'));
  console.log('\nInclusive time per page:\n' + top(inclusive, 80).join('\n'));
  console.log(
    '\nTime per component per page (its own work and the functions it calls, not its child components):\n' +
      top(byComponent, 40).join('\n'),
  );
} finally {
  await browser.close().catch(() => undefined);
  await running.close();
}
