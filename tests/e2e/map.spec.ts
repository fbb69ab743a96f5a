import { expect, type Page, test } from '@playwright/test';
import { Api, signIn } from './support';

/**
 * The map in Chromium (no tile server is reachable in tests: regions and markers draw on the plain
 * background). Open it, see clusters, zoom into a point, open its card and its record; a site created
 * through the API appears on the open map.
 */

let api: Api;
const ids: number[] = [];
// Boise, Idaho: a place no other test writes sites to.
const CENTRE = { lat: 43.615, lng: -116.202 };

test.beforeAll(async () => {
  api = await Api.signIn();
  // After a failed test Playwright starts a new worker, which runs this again: reuse the sites of the first run, or
  // each would get a twin on the same spot and the twin's pin would take the clicks.
  const filter = encodeURIComponent(JSON.stringify({ city: 'Boise' }));
  const existing = await api.get<{ data: Array<{ id: number; name: string }> }>(
    `/api/sites?per_page=100&filter=${filter}`,
  );
  const earlier = existing.data.filter((site) => /^Boise Map Site \d+$/.test(site.name));
  if (earlier.length >= 30) {
    ids.push(...earlier.map((site) => site.id));
    return;
  }
  for (let i = 0; i < 30; i++) {
    const created = await api.post<{ data: { id: number } }>('/api/sites', {
      name: `Boise Map Site ${i + 1}`,
      type: i % 3 === 0 ? 'non-union' : 'union',
      latitude: CENTRE.lat + ((i % 6) - 2.5) * 0.004,
      longitude: CENTRE.lng + (Math.floor(i / 6) - 2) * 0.005,
      street: `${100 + i} Main St`,
      city: 'Boise',
      state: 'ID',
    });
    ids.push(created.data.id);
  }
});

test.afterAll(async () => {
  await api.dispose();
});

async function openMap(page: Page, query = '') {
  await signIn(page, { at: `/map${query}` });
  await expect(page.getByTestId('map-page')).toBeVisible();
}

const urlZoom = (page: Page) => Number(new URL(page.url()).searchParams.get('z'));

/** Waits until the map has stopped moving (its address holds still) and the markers of that zoom have come; its zoom. */
async function settledZoom(page: Page, markerZooms: number[]): Promise<number> {
  let last = '';
  await expect
    .poll(
      async () => {
        const now = page.url();
        const still = now === last;
        last = now;
        return still && markerZooms.at(-1) === Math.round(urlZoom(page));
      },
      { timeout: 30_000, intervals: [400] },
    )
    .toBe(true);
  return urlZoom(page);
}

/**
 * The id of a pin ('map-site' or 'map-cluster') lying wholly inside the map: markers near the edge can sit under the
 * page's edge, where a click cannot reach them.
 */
async function pinInView(page: Page, testId = 'map-site'): Promise<number> {
  let id = 0;
  await expect
    .poll(
      async () => {
        id = await page.getByTestId('map-page').evaluate((map, testId) => {
          const frame = map.getBoundingClientRect();
          const inside = [...map.querySelectorAll<HTMLElement>(`[data-testid=${testId}]`)].find((pin) => {
            const box = pin.getBoundingClientRect();
            return (
              box.left >= frame.left + 20 &&
              box.right <= Math.min(frame.right, window.innerWidth) - 20 &&
              box.top >= frame.top + 20 &&
              box.bottom <= Math.min(frame.bottom, window.innerHeight) - 20
            );
          });
          return inside ? Number(inside.dataset.id) : 0;
        }, testId);
        return id;
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(0);
  return id;
}

test('open the map, see clusters, zoom into a point, open its card and its record', async ({ page }) => {
  const markerZooms: number[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname === '/api/map/markers' && response.ok()) markerZooms.push(Number(url.searchParams.get('zoom')));
  });
  await openMap(page, `?lat=${CENTRE.lat}&lng=${CENTRE.lng}&z=9`);
  const cluster = page.getByTestId('map-cluster').first();
  await expect(cluster).toBeVisible();
  expect(Number(await cluster.getAttribute('data-count'))).toBeGreaterThanOrEqual(30);
  await expect(page.getByTestId('map-summary')).toContainText('sites in view');

  // Clicking a cluster flies to where it splits; keep going until single sites show. Each click waits for the
  // flight to end and for the markers of the new view, so it never clicks a cluster that is about to be replaced.
  for (let i = 0; i < 8 && (await page.getByTestId('map-site').count()) === 0; i++) {
    const before = await settledZoom(page, markerZooms);
    await page.locator(`[data-testid=map-cluster][data-id="${await pinInView(page, 'map-cluster')}"]`).click();
    await expect.poll(() => urlZoom(page), { timeout: 20_000 }).toBeGreaterThan(before);
    await settledZoom(page, markerZooms);
  }
  const id = await pinInView(page);
  expect(ids).toContain(id);
  const site = page.locator(`[data-testid=map-site][data-id="${id}"]`);

  await site.click();
  const card = page.getByTestId('marker-card');
  await expect(card).toBeVisible();
  await expect(card.getByRole('heading')).toHaveText(/^Boise Map Site \d+$/);
  await expect(card).toContainText('Boise, ID');
  await expect(card.getByTestId('marker-card-activity')).toContainText('Created');

  await card.getByRole('button', { name: 'Open in side panel' }).click();
  const panel = page.getByTestId('map-record-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('Boise');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  await card.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/sites/${id}/show$`));
});

test('a site created through the API appears on the open map without a reload', async ({ page }) => {
  const spot = { lat: 43.7, lng: -116.05 };
  await openMap(page, `?lat=${spot.lat}&lng=${spot.lng}&z=15`);
  await expect(page.getByTestId('map-summary')).toContainText('sites in view');
  await expect(page.getByTestId('map-site')).toHaveCount(0);
  let navigations = 0;
  page.on('framenavigated', () => (navigations += 1));

  const created = await api.post<{ data: { id: number } }>('/api/sites', {
    name: 'Live Map Site',
    type: 'union',
    latitude: spot.lat,
    longitude: spot.lng,
  });
  const marker = page.locator(`[data-testid=map-site][data-id="${created.data.id}"]`);
  await expect(marker).toBeVisible({ timeout: 15_000 });

  // Moved out of view, it leaves; deleted, it stays gone.
  await api.post(`/api/sites/${created.data.id}`, { latitude: spot.lat + 1, longitude: spot.lng });
  await expect(marker).toHaveCount(0, { timeout: 15_000 });
  expect(navigations).toBe(0);
});

test('the map fits a 390 px phone: search, filters and the card stay on screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openMap(page, `?lat=${CENTRE.lat}&lng=${CENTRE.lng}&z=17`);
  await expect(page.getByTestId('map-site').first()).toBeVisible();
  const site = page.locator(`[data-testid=map-site][data-id="${await pinInView(page)}"]`);
  await expect(page.getByRole('combobox', { name: 'Search the map' })).toBeVisible();
  await site.click();
  const card = page.getByTestId('marker-card');
  await expect(card).toBeVisible();
  const box = (await card.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await page.getByTestId('open-map-filters').click();
  await expect(page.getByTestId('map-filters')).toBeVisible();
  await expect(page.getByLabel('Site type')).toBeVisible();
});
