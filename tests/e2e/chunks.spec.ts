import { expect, test } from '@playwright/test';
import { signIn } from './support';

test('a route chunk that fails to load says so and can be retried', async ({ page }) => {
  // The settings page's chunk fails once (the sign-in page and the signed-in shell come in the first chunks).
  let failed = 0;
  await page.route(/\/assets\/ProfilePage-[^/]+\.js$/, async (route) => {
    if (failed === 0) {
      failed += 1;
      await route.abort('failed');
      return;
    }
    await route.continue();
  });
  await signIn(page);
  await expect(page.getByTestId('greeting')).toBeVisible();
  await page.goto('/settings');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(
    /Loading chunk ProfilePage-[\w-]+ failed\. \(error: http:\/\/127\.0\.0\.1:\d+\/assets\/ProfilePage-[\w-]+\.js\)/,
  );
  await alert.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your details' })).toBeVisible();
  // The rest of the layout stayed usable meanwhile.
  await expect(page.getByTestId('sidebar')).toBeVisible();
});
