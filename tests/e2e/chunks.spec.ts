import { expect, test } from '@playwright/test';
import { signIn } from './support';

test('a route chunk that fails to load says so and can be retried', async ({ page }) => {
  // The dashboard's chunk fails once.
  let failed = 0;
  await page.route(/\/assets\/Dashboard-[^/]+\.js$/, async (route) => {
    if (failed === 0) {
      failed += 1;
      await route.abort('failed');
      return;
    }
    await route.continue();
  });
  await signIn(page);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(/Loading chunk Dashboard-[\w-]+ failed\. \(error: http:\/\/127\.0\.0\.1:\d+\/assets\/Dashboard-[\w-]+\.js\)/);
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByTestId('greeting')).toBeVisible();
  // The rest of the layout stayed usable meanwhile.
  await expect(page.getByTestId('sidebar')).toBeVisible();
});
