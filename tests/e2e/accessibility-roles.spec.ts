import { expect, test } from '@playwright/test';
import { Api, axeScreen, axeViolations, sidebarLinks, signIn } from './support';

/**
 * axe-core (WCAG 2.1 A and AA) beyond accessibility.spec's fixed routes: the assistant role's menu at phone width,
 * and what opens over a page: the delete dialog, the assistant's side panel with an answer in it, the map's card, at
 * desktop and phone widths.
 */
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

let api: Api;
let site: { id: number; name: string };
test.beforeAll(async () => {
  api = await Api.signIn();
  site = { name: `Axe Roles Tower ${Date.now().toString().slice(-6)}`, id: 0 };
  site.id = (
    await api.post<{ data: { id: number } }>('/api/sites', {
      name: site.name,
      type: 'union',
      city: 'Tacoma',
      state: 'WA',
      latitude: 47.26,
      longitude: -122.45,
    })
  ).data.id;
});
test.afterAll(async () => {
  await api?.dispose();
});

/**
 * The assistant's menu at phone width (first-hour.spec holds every role's menu to axe at 1280 px, and
 * accessibility.spec the administrator's and the organizer's screens at 390 px).
 */
test("every screen of the assistant role's menu at 390 px", async ({ page }) => {
  test.setTimeout(300_000);
  const person = await api.createUser('assistant', 'Axe', 'assistant');
  await page.setViewportSize(WIDTHS[0]);
  await signIn(page, { user: person });
  const links = await sidebarLinks(page);
  await page.setViewportSize(WIDTHS[1]);
  const found: string[] = [];
  for (const [i, path] of links.entries())
    found.push(...(await axeScreen(page, path, i === 0 ? undefined : '#main-content')));
  expect(found).toEqual([]);
});

for (const viewport of WIDTHS) {
  test(`the delete dialog and the assistant's page and panel at ${viewport.width} px`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    await signIn(page, { at: `/sites/${site.id}/show` });
    const found: string[] = [];

    await page.getByRole('button', { name: 'Delete' }).first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    found.push(...(await axeViolations(page, 'delete dialog')));
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await page.goto('/assistant');
    await expect(page.locator('#main-content')).toBeVisible();
    await page.waitForLoadState('networkidle');
    found.push(...(await axeViolations(page, '/assistant')));
    await page.goto('/');
    if (viewport.width < 600) await page.getByTestId('open-drawer').click();
    await page
      .getByTestId(viewport.width < 600 ? 'nav-drawer' : 'sidebar')
      .locator('[data-menu-key="assistant"]')
      .click();
    const panel = page.getByRole('dialog', { name: 'Assistant' });
    await panel.getByLabel('Ask the assistant').fill(`Who is the general contractor on ${site.name}?`);
    await panel.getByLabel('Ask the assistant').press('Enter');
    await expect(panel.getByTestId('assistant-answer').last()).toContainText(/\w+/, { timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    found.push(...(await axeViolations(page, 'assistant panel')));

    expect(found).toEqual([]);
  });

  test(`the map card at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page, { at: '/map' });
    await page.getByRole('combobox', { name: 'Search the map' }).fill(site.name);
    await page
      .getByRole('option', { name: new RegExp(site.name) })
      .first()
      .click();
    await expect(page.getByTestId('marker-card')).toBeVisible();
    expect(await axeViolations(page, 'map card')).toEqual([]);
  });
}
