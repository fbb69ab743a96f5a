import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { vendorSitesCsv } from '../fixtures/generate';
import { signIn } from './support';

/**
 * A person imports a vendor file: drops it, sees the preview, starts the import ('Your import has started.'),
 * watches the progress, opens the result and then one of the imported sites.
 */
test('upload a vendor file, watch the progress, open the result and an imported site', async ({ page }) => {
  test.setTimeout(300_000);
  const folder = mkdtempSync(path.join(os.tmpdir(), 'om-e2e-import-'));
  const file = path.join(folder, 'weekly-vendor-export.csv');
  writeFileSync(file, vendorSitesCsv(12_000, 31));

  await page.goto('/login');
  await signIn(page, { at: '/imports' });
  await expect(page.getByRole('heading', { name: 'Import CSV files' })).toBeVisible();
  await expect(page.getByTestId('importer-select')).toHaveValue(/\d+/);

  await page.getByTestId('import-file-input').setInputFiles(file);
  await expect(page.getByText('weekly-vendor-export.csv', { exact: false }).first()).toBeVisible();
  const preview = page.getByRole('grid', { name: 'Preview of the mapped rows' });
  await expect(preview).toBeVisible({ timeout: 30_000 });
  await expect(preview.getByRole('row')).toHaveCount(21); // header + the first 20 rows
  await expect(page.getByText('No errors in these rows.')).toBeVisible();

  await page.getByRole('button', { name: /start import/i }).click();
  await expect(page.getByText('Your import has started.')).toBeVisible();
  await page.waitForURL(/\/imports\/\d+\/show$/);

  // Progress while it runs (pending, then processing with a row count, live), then complete.
  const seen = new Set<string>();
  await expect
    .poll(
      async () => {
        // Short timeouts: the progress line goes away when the import completes, and an innerText() waiting for an
        // element that is gone would hold this poll until its overall timeout (it did in CI).
        const status = (
          await page
            .getByTestId('import-status')
            .innerText({ timeout: 2_000 })
            .catch(() => '')
        ).trim();
        seen.add(status);
        const progress = await page
          .getByTestId('import-progress')
          .innerText({ timeout: 500 })
          .catch(() => '');
        if (progress) seen.add(progress);
        return status;
      },
      { timeout: 270_000, intervals: [250] },
    )
    .toBe('Complete');
  expect(
    [...seen].some((text) => /Pending|Processing|Waiting|of about/.test(text)),
    `states seen: ${[...seen].join(' | ')}`,
  ).toBe(true);
  await expect(page.getByTestId('count-created')).toHaveText('12,000');
  await expect(page.getByTestId('count-failed')).toHaveText('0');

  // The result lists what was imported; open one of the sites.
  const records = page.getByRole('list', { name: 'Imported records' });
  const first = records.getByRole('link').first();
  const name = (await first.innerText()).trim();
  await first.click();
  await page.waitForURL(/\/sites\/\d+\/show$/);
  await expect(page.getByText(name).first()).toBeVisible();
});
