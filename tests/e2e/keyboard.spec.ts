import { expect, test } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, Api } from './support';

/**
 * The keyboard alone (issue 19): sign in, skip to the content, move through the menu with focus landing on
 * each page's heading, and open a map cluster and a pin's card with Enter.
 */
let api: Api;
test.beforeAll(async () => {
  api = await Api.signIn();
  // Two sites close together in Duluth (a place no other test uses: xss.spec writes to Fargo): a cluster at a
  // state's zoom, pins further in.
  for (const [i, name] of ['Keyboard Lofts', 'Keyboard Yards'].entries()) {
    await api.post('/api/sites', {
      name,
      type: 'union',
      city: 'Duluth',
      state: 'MN',
      latitude: 46.787 + i * 0.01,
      longitude: -92.1,
    });
  }
});
test.afterAll(async () => {
  await api?.dispose();
});

test('sign in, skip link, focus on the heading after navigation, map cluster and pin by keyboard', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/login');
  await page.getByLabel('Email').focus();
  await page.keyboard.type(ADMIN_EMAIL);
  await page.keyboard.press('Tab');
  await page.keyboard.type(ADMIN_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('greeting')).toBeVisible();

  // Focus went to the dashboard's heading, not to <body>.
  await expect(page.getByTestId('greeting')).toBeFocused();

  // From the top of the page the first Tab stop is the skip link, which lands in the content.
  // Put the sequential focus start at the top of the document (blur() would leave it at the heading).
  await page.evaluate(() => {
    document.body.setAttribute('tabindex', '-1');
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('skip-link')).toBeFocused();
  await expect(page.getByTestId('skip-link')).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();

  // A menu link followed with Enter: focus moves to the new page's heading.
  await page.locator('[data-menu-key=map]').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/map/);
  await expect(page.locator('#react-admin-title')).toBeFocused();

  // A search hit opens its card; Enter on a cluster zooms in; Enter on a pin opens its card.
  await page.getByRole('combobox', { name: 'Search the map' }).fill('Keyboard Lofts');
  await page
    .getByRole('option', { name: /Keyboard Lofts/ })
    .first()
    .click();
  const card = page.getByTestId('marker-card');
  await expect(card).toBeVisible();
  await page.getByRole('button', { name: 'Close the card' }).press('Enter');
  await expect(card).toBeHidden();

  // A view where the two sites are one cluster (the search flew in to the pin, and any wheel or key during that
  // flight stops it wherever it is).
  await page.goto('/map?lat=46.79&lng=-92.1&z=9');
  await expect(page.getByTestId('map-cluster').first()).toBeVisible({ timeout: 20_000 });
  const pin = page.getByRole('button', { name: /^Keyboard (Lofts|Yards), Union, / }).first();
  for (let i = 0; i < 8; i++) {
    // While the new view's markers are read, the map may show neither a cluster nor a pin for a moment.
    await expect(page.locator('[data-testid=map-site], [data-testid=map-cluster]').first()).toBeVisible({
      timeout: 20_000,
    });
    if ((await pin.count()) > 0) break;
    const cluster = page.getByTestId('map-cluster').first();
    await cluster.focus();
    await page.keyboard.press('Enter');
    // The flight and the new view's markers take a while on a busy machine; a pin ends the wait early.
    await page.waitForSelector('[data-testid=map-site]', { timeout: 8_000 }).catch(() => {});
  }
  await expect(pin).toBeVisible({ timeout: 20_000 });
  await pin.focus();
  await page.keyboard.press('Enter');
  await expect(card).toBeVisible();
  await expect(card.getByRole('heading', { name: /Keyboard (Lofts|Yards)/ })).toBeVisible();
});
