/**
 * Bulk edit in a record list: 500 sites matching a search get one status in one background job, with progress
 * and the outcome, then Undo gives every one its status back.
 */
import { expect, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
const stamp = Date.now().toString().slice(-6);
const prefix = `Bulk ${stamp}`;
const ids: number[] = [];

test.beforeAll(async () => {
  test.setTimeout(240_000);
  api = await Api.signIn();
  for (let start = 1; start <= 500; start += 20) {
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.post<{ data: { id: number } }>('/api/sites', {
          name: `${prefix} ${String(start + i).padStart(3, '0')}`,
          type: 'union',
        }),
      ),
    );
    ids.push(...made.map((res) => res.data.id));
  }
});
test.afterAll(async () => {
  await api.dispose();
});

test('a bulk edit of 500 sites matching a search, its progress and outcome, and its undo', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, { at: `/sites?filter=${encodeURIComponent(JSON.stringify({ q: prefix }))}` });
  await expect(page.getByText('Displaying 1 to 25 of 500')).toBeVisible({ timeout: 30_000 });

  // One row chosen, then "all 500 matching" in the dialog.
  await page
    .getByRole('checkbox', { name: new RegExp(`^Select row ${prefix} \\d{3}$`) })
    .first()
    .check({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Change sites' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: 'All 500 sites matching the list' }).check();
  await dialog.getByRole('combobox', { name: 'Field' }).click();
  await page.getByRole('option', { name: 'Status', exact: true }).click();
  await dialog.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Awarded' }).click();
  await dialog.getByRole('button', { name: 'Change 500 sites' }).click();

  // The job's progress, then its outcome.
  await expect(page.getByRole('dialog', { name: 'Status: bulk edit finished' })).toBeVisible({ timeout: 240_000 });
  const result = page.getByTestId('bulk-edit-result');
  await expect(result).toContainText('500 sites changed.');
  const sample = await api.get<{ data: { site_status_id: number | null } }>(`/api/sites/${ids[499]}`);
  expect(sample.data.site_status_id).not.toBeNull();
  const history = await api.get<{ data: Array<{ action: string }> }>(
    `/api/revisions?type=site&revisionable_id=${ids[0]}`,
  );
  expect(history.data.filter((revision) => revision.action === 'updated')).toHaveLength(1);

  // Undo: every site has no status again.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('dialog', { name: 'Undone' })).toBeVisible({ timeout: 240_000 });
  await expect(result).toContainText('500 sites got their value back.');
  await page.getByRole('button', { name: 'Close' }).click();
  for (const id of [ids[0], ids[250], ids[499]]) {
    expect(
      (await api.get<{ data: { site_status_id: number | null } }>(`/api/sites/${id}`)).data.site_status_id,
    ).toBeNull();
  }
});
