import { expect, test } from '@playwright/test';
import { signIn } from './support';

// Short durations for these tests only, through the client's localStorage override.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem('inactivityOverride', JSON.stringify({ idle_timeout_ms: 1500, countdown_seconds: 4 }));
  });
});

test.describe('session notices', () => {
  test('the inactivity notice counts down and signs out', async ({ page }) => {
    await signIn(page);
    await expect(page.getByTestId('greeting')).toBeVisible();
    const notice = page.getByRole('dialog', { name: 'Your session is about to expire' });
    await expect(notice).toBeVisible({ timeout: 5_000 });
    const secondsLeft = async () => Number((await notice.textContent())?.match(/signed out in (\d+) seconds\./)?.[1]);
    await expect(notice).toContainText(/You will be automatically signed out in [1-4] seconds\./);
    const first = await secondsLeft();
    // It counts down.
    await expect.poll(secondsLeft, { timeout: 3_000 }).toBeLessThan(first);
    await expect(page).toHaveURL(/\/login$/, { timeout: 8_000 });
    const timeout = page.getByRole('dialog', { name: 'Session Timeout' });
    await expect(timeout).toBeVisible();
    await expect(timeout).toContainText('For security reasons, you have been signed out due to inactivity.');
    expect((await page.request.get('/api/auth/check')).status()).toBe(401);
    await timeout.getByRole('button', { name: 'OK' }).click();
    await expect(timeout).toBeHidden();
  });

  test('Stay Signed In keeps the session', async ({ page }) => {
    await page.addInitScript(() => {
      localStorage.setItem('inactivityOverride', JSON.stringify({ idle_timeout_ms: 2500, countdown_seconds: 3 }));
    });
    await signIn(page);
    await expect(page.getByTestId('greeting')).toBeVisible();
    const notice = page.getByRole('dialog', { name: 'Your session is about to expire' });
    await expect(notice).toBeVisible({ timeout: 5_000 });
    await notice.getByRole('button', { name: 'Stay Signed In' }).click();
    await expect(notice).toBeHidden();
    // Past the end of the countdown that was running (and before a new one could end): still signed in, still here.
    await page.waitForTimeout(3_500);
    await expect(page).toHaveURL(/\/$/);
    expect((await page.request.get('/api/auth/check')).status()).toBe(200);
  });

  test('activity resets the timer', async ({ page }) => {
    await signIn(page);
    await expect(page.getByTestId('greeting')).toBeVisible();
    // Keep moving for longer than the idle time: no notice.
    for (let i = 0; i < 8; i += 1) {
      await page.mouse.move(100 + i * 10, 200);
      await page.waitForTimeout(300);
    }
    await expect(page.getByRole('dialog', { name: 'Your session is about to expire' })).toHaveCount(0);
  });
});
