/**
 * The site list as a grid over 100,000 sites: sorted, filtered and paged on the server. The sites are written with
 * SQL into a server of this spec's own (tests/support/many-sites.ts: its own folder and port, on a throwaway
 * PostgreSQL server when one is installed), so the other specs' lists stay small.
 */
import { expect, test } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../../playwright.config';
import { type ServerWithSites, startServerWithSites } from '../support/many-sites';
import { signIn } from './support';

const SITES = 100_000;
let running: ServerWithSites;

test.beforeAll(async () => {
  // On the embedded database of a busy machine the 100,000 rows take minutes to write; on PostgreSQL, seconds.
  test.setTimeout(300_000);
  running = await startServerWithSites(SITES, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, { postgres: true });
});
test.afterAll(async () => {
  await running?.close();
});

/** "Displaying 1 to 25 of 100,000" (or "of about ..." where the server estimated the total): the total as a number. */
const totalOf = (text: string) => Number(/of (?:about )?([\d,]+)/.exec(text)?.[1].replace(/,/g, '') ?? NaN);

test('100,000 sites: sorted, filtered and paged on the server', async ({ page }) => {
  test.setTimeout(120_000);
  const base = running.server.baseUrl;
  await signIn(page, { at: `${base}/sites` });
  const grid = page.getByRole('grid');
  const footer = page.getByText(/^Displaying \d+ to \d+ of /);
  await expect(footer).toHaveText(/^Displaying 1 to 25 of /, { timeout: 30_000 });
  expect(totalOf(await footer.innerText())).toBeGreaterThan(90_000);
  // The header row and a page of 25 (the grid renders only the rows in view; its aria-rowcount counts them all).
  await expect(grid).toHaveAttribute('aria-rowcount', '26');

  // Sorted by name on the server: the first row is the first of all 100,000 names, as the API orders them.
  const first = async (query: string) => {
    const answer = await page.request.get(`${base}/api/sites?${query}&per_page=1`);
    expect(answer.ok()).toBe(true);
    return ((await answer.json()) as { data: Array<{ name: string }> }).data[0].name;
  };
  await grid.getByRole('columnheader', { name: 'Name' }).getByText('Name').click();
  await expect(page).toHaveURL(/sort=name/);
  await expect(grid.getByRole('row').nth(1)).toContainText(await first('sort=name&order=asc'));
  await grid.getByRole('columnheader', { name: 'Name' }).getByText('Name').click();
  await expect(page).toHaveURL(/order=DESC/);
  await expect(grid.getByRole('row').nth(1)).toContainText(await first('sort=name&order=desc'));

  // Filtered on the server (the PLA tab: one site in six), still sorted.
  await page.getByTestId('category-pla').click();
  await expect(footer).toHaveText(/^Displaying 1 to 25 of /);
  await expect.poll(async () => totalOf(await footer.innerText())).toBeLessThan(20_000);
  expect(totalOf(await footer.innerText())).toBeGreaterThan(15_000);
  await expect(grid.getByRole('row').nth(1)).toContainText(await first('filter[type]=pla&sort=name&order=desc'));

  // Paged on the server: the next page, then a page of 100 rows.
  await page.getByRole('button', { name: /next page/i }).click();
  await expect(footer).toHaveText(/^Displaying 26 to 50 of /);
  await page.getByRole('combobox', { name: /rows per page/i }).click();
  await page.getByRole('option', { name: '100' }).click();
  await expect(footer).toHaveText(/^Displaying 1 to 100 of /);
  await expect(page).toHaveURL(/perPage=100/);
});
