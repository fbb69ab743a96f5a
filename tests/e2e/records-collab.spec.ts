/**
 * Two people, one record: each sees that the other has the site open, and saving over a change the other saved
 * meanwhile is refused (409) with an offer to reload, never silently overwritten.
 */
import { expect, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
test.beforeAll(async () => {
  api = await Api.signIn();
});
test.afterAll(async () => {
  await api.dispose();
});

/** Joining a presence channel is a websocket subscription plus a signed auth request: slow on a busy machine. */
const PRESENCE_WAIT = 30_000;

test('presence on a record and the edit conflict', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString().slice(-6);
  const site = await api.post<{ data: { id: number } }>('/api/sites', {
    name: `Twin Towers ${stamp}`,
    type: 'union',
    owner: 'First owner',
  });
  const id = site.data.id;
  const other = await api.createUser('user', 'Pat', 'Partner');

  await signIn(page);
  await expect(page.getByTestId('sidebar')).toBeVisible();
  const context = await browser.newContext();
  const second = await context.newPage();
  await signIn(second, { user: other });
  await expect(second.getByTestId('sidebar')).toBeVisible();

  // Both open the site: each sees the other.
  await page.goto(`/sites/${id}/show`);
  await second.goto(`/sites/${id}/show`);
  await expect(page.getByTestId('presence')).toContainText('Pat Partner', { timeout: PRESENCE_WAIT });
  await expect(second.getByTestId('presence')).toBeVisible({ timeout: PRESENCE_WAIT });
  // The second person leaves: the first no longer sees them.
  await second.goto('/sites');
  await expect(page.getByTestId('presence')).toHaveCount(0, { timeout: PRESENCE_WAIT });

  // Both open the edit form.
  await page.goto(`/sites/${id}`);
  await second.goto(`/sites/${id}`);
  await expect(page.getByLabel('Owner', { exact: true })).toHaveValue('First owner');
  await expect(second.getByLabel('Owner', { exact: true })).toHaveValue('First owner');
  await expect(page.getByTestId('presence')).toContainText('Pat Partner', { timeout: PRESENCE_WAIT });

  // The second saves first.
  await second.getByLabel('Owner', { exact: true }).fill('Second owner');
  await second.getByRole('button', { name: 'Save' }).click();
  await expect(second.getByText('Site updated successfully.')).toBeVisible();

  // The first is told live that the record changed, and their save is refused with an offer to reload.
  await expect(page.getByTestId('changed-meanwhile')).toBeVisible();
  await page.getByLabel('Owner', { exact: true }).fill('First owner, edited');
  await page.getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Someone else saved this site after you opened it');
  const saved = await api.get<{ data: { owner: string } }>(`/api/sites/${id}`);
  expect(saved.data.owner).toBe('Second owner');
  await dialog.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByLabel('Owner', { exact: true })).toHaveValue('Second owner');
  // After reloading, saving works.
  await page.getByLabel('Owner', { exact: true }).fill('Third owner');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Site updated successfully.')).toBeVisible();
  expect((await api.get<{ data: { owner: string } }>(`/api/sites/${id}`)).data.owner).toBe('Third owner');
  await context.close();
});
