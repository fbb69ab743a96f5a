/**
 * A record list as a data grid: sort, filter and page a site list on the server, edit a status in place and find
 * the revision, and a refused value keeping its message in the cell.
 */
import { expect, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
const stamp = Date.now().toString().slice(-6);
const prefix = `Grid ${stamp}`;
const ids: number[] = [];

test.beforeAll(async () => {
  api = await Api.signIn();
  for (let n = 1; n <= 30; n += 1) {
    const created = await api.post<{ data: { id: number } }>('/api/sites', { name: `${prefix} ${String(n).padStart(3, '0')}`, type: 'union' });
    ids.push(created.data.id);
  }
});
test.afterAll(async () => {
  await api.dispose();
});

test('a site list as a grid: server sort, filter and pages; a status edited in place; a refused value', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await page.goto(`/sites?filter=${encodeURIComponent(JSON.stringify({ q: prefix }))}`);
  const grid = page.getByRole('grid');
  // The list route's chunk holds the grid: on a loaded machine it takes seconds to arrive and run.
  await expect(page.getByText('Displaying 1 to 25 of 30')).toBeVisible({ timeout: 30_000 });

  // Sort by name, both ways (the server orders all 30, not the page shown).
  await grid.getByRole('columnheader', { name: 'Name' }).getByText('Name').click();
  await expect(grid.getByRole('row').nth(1)).toContainText(`${prefix} 001`);
  await grid.getByRole('columnheader', { name: 'Name' }).getByText('Name').click();
  await expect(grid.getByRole('row').nth(1)).toContainText(`${prefix} 030`);

  // The next page.
  await page.getByRole('button', { name: /next page/i }).click();
  await expect(page.getByText('Displaying 26 to 30 of 30')).toBeVisible();
  await expect(grid.getByRole('row').nth(1)).toContainText(`${prefix} 005`);

  // The grid's filter: name contains "029".
  await page.getByRole('button', { name: /^Filters$/ }).click();
  const filterValue = page.getByRole('tooltip').getByRole('textbox', { name: 'Value' });
  await filterValue.fill(`${stamp} 029`);
  await expect(page.getByText('Displaying 1 to 1 of 1')).toBeVisible();
  await expect(grid.getByRole('row').filter({ hasText: `${prefix} 029` })).toHaveCount(1);
  await filterValue.press('Escape');
  await expect(page.locator('.MuiDataGrid-panel')).toBeHidden();

  // The name is a link to the site.
  const row = grid.getByRole('row').filter({ hasText: `${prefix} 029` });
  await expect(row.getByRole('link', { name: `${prefix} 029` })).toHaveAttribute('href', `/sites/${ids[28]}/show`);

  // A status edited in place: saved through the one write path, with a revision.
  const statusCell = row.locator('[data-field="site_status_id"]');
  await statusCell.dblclick();
  await page.getByRole('option', { name: 'Bidding', exact: true }).click();
  await expect(page.getByText('Site updated successfully.').first()).toBeVisible();
  await expect(statusCell).toContainText('Bidding');
  await expect.poll(async () => (await api.get<{ data: { site_status_id: number | null } }>(`/api/sites/${ids[28]}`)).data.site_status_id).not.toBeNull();

  // A value the server refuses keeps what was typed, with the server's message.
  const streetCell = row.locator('[data-field="street"]');
  await streetCell.dblclick();
  const tooLong = 'x'.repeat(2_100);
  await streetCell.getByRole('textbox').fill(tooLong);
  await streetCell.getByRole('textbox').press('Enter');
  await expect(page.getByRole('tooltip')).toBeVisible();
  await expect(page.getByRole('tooltip')).not.toBeEmpty();
  await expect(streetCell.getByRole('textbox')).toHaveValue(tooLong);
  await streetCell.getByRole('textbox').press('Escape');

  await page.goto(`/sites/${ids[28]}/show?tab=history`);
  await expect(page.getByTestId('history').locator('[data-revision=updated]').first()).toContainText('Bidding', { timeout: 30_000 });
});
