import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { Api, signIn } from './support';

/** The market-share report: a filter, its chart, its table, the drill-down and the CSV export. */
let api: Api;
const stamp = Date.now();
test.beforeAll(async () => {
  api = await Api.signIn();
  const union = await api.post<{ data: { id: number } }>('/api/contractors', {
    name: `Union Builders ${stamp}`,
    type: 'union',
  });
  const open = await api.post<{ data: { id: number } }>('/api/contractors', {
    name: `Open Shop ${stamp}`,
    type: 'non-union',
  });
  // By the rule: a union contractor makes union work, else a non-union one non-union work, else the site's type.
  await api.post('/api/sites', {
    name: `=Formula Tower ${stamp}`,
    type: 'pending',
    general_contractor_id: union.data.id,
    estimated_value: 1000000,
    estimated_hours: 5000,
  });
  await api.post('/api/sites', {
    name: `Open Plaza ${stamp}`,
    type: 'pending',
    general_contractor_id: open.data.id,
    estimated_value: 3000000,
    estimated_hours: 9000,
  });
  await api.post('/api/sites', {
    name: `PLA School ${stamp}`,
    type: 'pla',
    estimated_value: 2000000,
    estimated_hours: 4000,
  });
  await api.post('/api/sites', { name: `Mega Mall ${stamp}`, type: 'mega', estimated_value: 500000 });
});
test.afterAll(async () => {
  await api.dispose();
});

test('market share: filter, chart, table, drill-down and CSV', async ({ page }) => {
  await signIn(page, { at: '/reports/market-share?group_by=site_type' });
  await expect(page.getByTestId('market-share-table')).toBeVisible();
  await expect(page.getByTestId('market-share-chart').locator('svg').first()).toBeVisible();
  const report = await api.get<any>('/api/reports/market-share?group_by=site_type');
  await expect(page.getByTestId('union-share')).toHaveText(
    `${report.totals.share.sites.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`,
  );

  // A filter (kept in the URL): only PLA sites -> all union.
  await page.getByTestId('filter-site-type').locator('..').click();
  await page.getByRole('option', { name: 'PLA' }).click();
  await expect(page).toHaveURL(/site_type=pla/);
  await expect(page.getByTestId('union-share')).toHaveText('100%');
  await expect(page.getByTestId('market-share-row')).toHaveCount(1);

  // By estimated value, the pending sites: 1,000,000 union against 3,000,000 non-union = 25%.
  await page.goto('/reports/market-share?group_by=site_type&site_type=pending&measure=value');
  await expect(page.getByTestId('union-share')).toHaveText(/%$/);
  const pending = await api.get<any>('/api/reports/market-share?group_by=site_type&site_type=pending');
  await expect(page.getByTestId('union-share')).toHaveText(
    `${pending.totals.share.value.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`,
  );

  // A number opens the sites it counts.
  await page.getByTestId('market-share-row').first().getByRole('link').first().click();
  await expect(page).toHaveURL(/\/reports\/market-share\/sites\?/);
  await expect(page.getByTestId('drill-down-table')).toContainText(`=Formula Tower ${stamp}`);

  // CSV export of what is on screen, formulas escaped.
  await page.goto('/reports/market-share?group_by=region');
  await expect(page.getByTestId('market-share-table')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv-export').click()]);
  expect(download.suggestedFilename()).toMatch(/^market-share-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toMatch(/^Group,Union sites,Union estimated value/);
  expect(csv).toMatch(/\r\nTotal,/);
});

test('the reports are readable on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await expect(page.getByTestId('greeting')).toBeVisible();
  for (const path of [
    '/reports/market-share',
    '/reports/classifications',
    '/reports/task-performance',
    '/reports/user-performance',
    '/actions',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(1);
  }
});
