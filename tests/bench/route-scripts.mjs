/**
 * The JavaScript a route loads, gzip level 9, for comparing two builds (issue 15's budget: a list route grows by at
 * most 150 KB gzip over the list route before the grid, another commit's build). Start each build's server
 * (`npm start` with PORT, DATA_DIR and ADMIN_PASSWORD, SEED_DEMO=1), then:
 *   node tests/bench/route-scripts.mjs <base URL> <that tree's dist/client> <email> <password> /sites [/other ...]
 * Each route opens in a new browser after sign-in; every script it loads is read from the build and compressed the
 * same way for both builds (docs/benchmarks.md "The list route's JavaScript against the list route before the grid").
 */

import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const [base, dist, email, password, ...routes] = process.argv.slice(2);
for (const route of routes) {
  const b = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const ctx = await b.newContext({ viewport: { width: 1280, height: 800 } });
  const p = await ctx.newPage();
  await p.goto(base + '/login');
  await p.getByLabel(/email/i).fill(email);
  await p.getByLabel(/password/i).fill(password);
  await p.getByRole('button', { name: /sign in/i }).click();
  await p.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 60000 });
  await p.waitForLoadState('networkidle');
  const p2 = await ctx.newPage();
  // Every script the route asks for, from the network or the browser's cache alike.
  const all = new Set();
  p2.on('request', (r) => {
    if (r.resourceType() === 'script') all.add(new URL(r.url()).pathname);
  });
  await p2.goto(base + route);
  await p2.waitForLoadState('networkidle');
  await p2.waitForTimeout(1500);
  let gz = 0,
    raw = 0;
  for (const s of all) {
    const f = dist + s;
    if (!existsSync(f)) {
      console.error('missing', f);
      continue;
    }
    const buf = readFileSync(f);
    raw += buf.length;
    gz += gzipSync(buf, { level: 9 }).length;
  }
  console.log(`${route}: ${all.size} scripts, ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzip-9`);
  await b.close();
}
