/**
 * Site visits on a phone (issue 17): "Log a visit" from a marker on the map and from the site page, counted with the
 * steppers, starting from the last visit's counts, then the visit in the site's history and its latest head count
 * by trade. The site, contractors and a first visit are set up through the API.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
// A worker started again after a failure runs this file anew: the stamp keeps its records apart.
const stamp = Date.now().toString().slice(-6);
// Spokane: a place no other test writes sites to.
const SPOT = { lat: 47.6588, lng: -117.426 };
const site = { id: 0, name: `Spokane Yard ${stamp}` };
const names = { general: `Inland Electric ${stamp}`, other: `Budget Framing ${stamp}`, trade: `Framers ${stamp}` };

test.use({ viewport: { width: 390, height: 844 } });
// The second visit starts from the first one's counts.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  api = await Api.signIn();
  const general = (await api.post<{ data: { id: number } }>('/api/contractors', { name: names.general, type: 'union' }))
    .data.id;
  const other = (await api.post<{ data: { id: number } }>('/api/contractors', { name: names.other, type: 'non-union' }))
    .data.id;
  const trade = (await api.post<{ data: { id: number } }>('/api/trades', { name: names.trade })).data.id;
  site.id = (
    await api.post<{ data: { id: number } }>('/api/sites', {
      name: site.name,
      type: 'union',
      city: 'Spokane',
      state: 'WA',
      latitude: SPOT.lat,
      longitude: SPOT.lng,
      general_contractor_id: general,
      contractors: [{ contractor_id: other, trade_id: trade }],
    })
  ).data.id;
  // Last week's visit: the starting point of the next.
  await api.post('/api/visits', {
    site_id: site.id,
    visited_at: new Date(Date.now() - 7 * 86_400_000).toISOString(),
    head_counts: [{ contractor_id: general, workers: 6, union_workers: 4 }],
  });
});

test.afterAll(async () => {
  await api.dispose();
});

/** The stepper buttons of a count of one contractor's row. */
const step = (page: Page, contractor: string, count: string, more = true) =>
  page.getByRole('button', { name: `${contractor}: ${count}: ${more ? 'one more' : 'one fewer'}` });
const countOf = (page: Page, contractor: string, count: string) =>
  page.getByRole('textbox', { name: `${contractor}: ${count}`, exact: true });

test('log a visit from a marker on the map: the last counts to start from, a known contractor added, counted with the steppers', async ({
  page,
}) => {
  await signIn(page, { at: `/map?lat=${SPOT.lat}&lng=${SPOT.lng}&z=17` });
  const pin = page.locator(`[data-testid=map-site][data-id="${site.id}"]`);
  await expect(pin).toBeVisible({ timeout: 20_000 });
  await pin.click();
  await page.getByTestId('marker-card').getByRole('button', { name: 'Log a visit' }).click();

  await expect(page.getByTestId('page-heading')).toHaveText('Log a visit');
  await expect(page.getByText(site.name).first()).toBeVisible();
  // Last week's count is the starting point.
  await expect(countOf(page, names.general, 'Workers counted')).toHaveValue('6');
  await expect(countOf(page, names.general, 'Union')).toHaveValue('4');
  // The site's other contractor is offered first, with its trade.
  await page.getByTestId('head-count-known').filter({ hasText: names.other }).click();
  const otherRow = page.getByTestId('head-count-row').filter({ hasText: names.other });
  await expect(otherRow.getByText(names.trade)).toBeVisible();
  for (let i = 0; i < 3; i++) await step(page, names.other, 'Non-union').click();
  // Counting non-union workers counts them as workers.
  await expect(countOf(page, names.other, 'Workers counted')).toHaveValue('3');
  await step(page, names.other, 'Cards signed').click();
  await step(page, names.general, 'Workers counted').click();
  await expect(countOf(page, names.general, 'Workers counted')).toHaveValue('7');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page).toHaveURL(new RegExp(`/sites/${site.id}/show\\?tab=visits`));
  const latest = page.getByTestId('latest-head-count');
  await expect(latest).toContainText('10 workers: 4 union, 3 non-union');
  await expect(latest.getByTestId('head-count-trade').filter({ hasText: names.trade })).toContainText('3');
  await expect(page.getByTestId('visit-history-item')).toHaveCount(2);
  await expect(page.getByTestId('visit-history-item').first()).toContainText('Cards signed 1');
});

test('log a visit from the site page: steppers down and up, refused when the counts do not add up, then in the history', async ({
  page,
}) => {
  await signIn(page, { at: `/sites/${site.id}/show?tab=visits` });
  await expect(page.getByTestId('visit-history-item')).toHaveCount(2);
  await page.getByTestId('site-visits').getByRole('button', { name: 'Log a visit' }).click();
  // Starts from the visit just logged.
  await expect(countOf(page, names.general, 'Workers counted')).toHaveValue('7');
  await expect(countOf(page, names.other, 'Non-union')).toHaveValue('3');
  // Workers cannot go under the union and non-union workers counted.
  await countOf(page, names.general, 'Workers counted').fill('3');
  await expect(
    page.getByText('This contractor: union and non-union workers (4) are more than the workers counted (3).'),
  ).toBeVisible();
  await step(page, names.general, 'Workers counted').click();
  await step(page, names.general, 'Union').click();
  await expect(countOf(page, names.general, 'Workers counted')).toHaveValue('5');
  await step(page, names.other, 'Non-union', false).click();
  await page.getByRole('textbox', { name: 'Notes' }).fill('Framers on the third floor, lunch at noon');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page).toHaveURL(new RegExp(`/sites/${site.id}/show\\?tab=visits`));
  await expect(page.getByTestId('visit-history-item')).toHaveCount(3);
  await expect(page.getByTestId('visit-history-item').first()).toContainText('Framers on the third floor');
  await expect(page.getByTestId('latest-head-count')).toContainText('8 workers: 5 union, 2 non-union');
});
