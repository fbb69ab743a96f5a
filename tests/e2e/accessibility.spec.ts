import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { Api, signIn } from './support';

/**
 * axe-core over the screens of SPEC section 2, signed in as an administrator and as an organizer, at 1280 and
 * 390 px: no violation of WCAG 2.1 A or AA (issue 19, docs/accessibility.md). One browser page per role and width,
 * each route opened in turn, so the whole sweep stays within a few minutes.
 */
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

let api: Api;
let siteId: number;
let organizer: { email: string; password: string };

test.beforeAll(async () => {
  api = await Api.signIn();
  siteId = (await api.post<{ data: { id: number } }>('/api/sites', { name: 'Axe Check Apartments', type: 'union', city: 'Tacoma', state: 'WA', latitude: 47.25, longitude: -122.44 })).data.id;
  organizer = await api.createUser('user', 'Ada', 'Axe');
});
test.afterAll(async () => {
  await api?.dispose();
});

/** Routes every signed-in person has, then the ones only an administrator sees. The lists are data grids (issue 15). */
const everyone = () => ['/', '/actions', '/tasks', '/notifications', '/settings', '/map', '/sites', '/contacts', `/sites/${siteId}/show`, `/sites/${siteId}/edit`, '/sites/create', '/reports/market-share'];
const adminOnly = ['/imports', '/importers', '/schemas', '/site-statuses', '/unions', '/users', '/roles'];

/** Waits for the route's content (its requests answered, no spinner) and runs axe on the whole page. */
async function violations(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('main')).toBeVisible();
  await page.waitForLoadState('networkidle');
  // Only spinners: a determinate bar (a goal's progress) is content.
  await expect(page.locator('main [role=progressbar]:not([aria-valuenow])')).toHaveCount(0);
  const result = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  return result.violations.map((v) => `${path}: ${v.id} (${v.impact}) ${v.help}\n    ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('\n    ')}`);
}

for (const viewport of WIDTHS) {
  test(`guest screens have no WCAG 2.1 A/AA violation at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const found: string[] = [];
    for (const path of ['/login', '/password/reset', '/404']) {
      await page.goto(path);
      await expect(page.locator('h1')).toBeVisible();
      const result = await new AxeBuilder({ page }).withTags(WCAG).analyze();
      found.push(...result.violations.map((v) => `${path}: ${v.id} ${v.help}`));
    }
    expect(found).toEqual([]);
  });

  for (const role of ['admin', 'organizer'] as const) {
    test(`${role} screens have no WCAG 2.1 A/AA violation at ${viewport.width} px`, async ({ page }) => {
      test.setTimeout(360_000);
      await page.setViewportSize(viewport);
      if (role === 'admin') await signIn(page);
      else await signIn(page, organizer.email, organizer.password);
      await expect(page.getByTestId('greeting')).toBeVisible();
      const found: string[] = [];
      for (const path of role === 'admin' ? [...everyone(), ...adminOnly] : everyone()) found.push(...(await violations(page, path)));
      expect(found).toEqual([]);
    });
  }
}
