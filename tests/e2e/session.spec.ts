import { expect, type Page, test } from '@playwright/test';
import { signIn } from './support';

/**
 * The inactivity notice (SPEC section 4) on the page's clock: Playwright's fake clock moves the page's time forward
 * when the test says, so the idle time and the countdown pass at once and do not race a busy machine. The durations
 * are long, through the client's localStorage override, so the clock's own flow while the test runs changes nothing.
 */
const IDLE_MS = 60_000;
const COUNTDOWN_SECONDS = 30;

async function signInWithShortSession(page: Page) {
  await page.clock.install();
  await page.addInitScript(
    ({ idle, countdown }) =>
      localStorage.setItem(
        'inactivityOverride',
        JSON.stringify({ idle_timeout_ms: idle, countdown_seconds: countdown }),
      ),
    { idle: IDLE_MS, countdown: COUNTDOWN_SECONDS },
  );
  await signIn(page);
  await expect(page.getByTestId('greeting')).toBeVisible();
}

test.describe('session notices', () => {
  test('the inactivity notice counts down and signs out', async ({ page }) => {
    await signInWithShortSession(page);
    const notice = page.getByRole('dialog', { name: 'Your session is about to expire' });
    await expect(notice).toHaveCount(0);
    await page.clock.fastForward(IDLE_MS);
    await expect(notice).toBeVisible();
    const secondsLeft = async () => Number((await notice.textContent())?.match(/signed out in (\d+) seconds\./)?.[1]);
    await expect(notice).toContainText(/You will be automatically signed out in \d+ seconds\./);
    const first = await secondsLeft();
    expect(first).toBeLessThanOrEqual(COUNTDOWN_SECONDS);
    // It counts down.
    await page.clock.fastForward(2_000);
    await expect.poll(secondsLeft).toBeLessThan(first);
    await page.clock.fastForward(COUNTDOWN_SECONDS * 1000);
    await expect(page).toHaveURL(/\/login$/);
    const timeout = page.getByRole('dialog', { name: 'Session Timeout' });
    await expect(timeout).toBeVisible();
    await expect(timeout).toContainText('For security reasons, you have been signed out due to inactivity.');
    expect((await page.request.get('/api/auth/check')).status()).toBe(401);
    await timeout.getByRole('button', { name: 'OK' }).click();
    await expect(timeout).toBeHidden();
  });

  test('Stay Signed In keeps the session', async ({ page }) => {
    await signInWithShortSession(page);
    await page.clock.fastForward(IDLE_MS);
    const notice = page.getByRole('dialog', { name: 'Your session is about to expire' });
    await expect(notice).toBeVisible();
    await notice.getByRole('button', { name: 'Stay Signed In' }).click();
    await expect(notice).toBeHidden();
    // Past the end of the countdown that was running (and before a new one could end): still signed in, still here.
    await page.clock.fastForward(COUNTDOWN_SECONDS * 1000 + 1_000);
    await expect(page).toHaveURL(/\/$/);
    await expect(notice).toHaveCount(0);
    expect((await page.request.get('/api/auth/check')).status()).toBe(200);
  });

  test('activity resets the timer', async ({ page }) => {
    await signInWithShortSession(page);
    // Keep moving for longer than the idle time, never idle for as long: no notice.
    for (let i = 0; i < 8; i += 1) {
      await page.mouse.move(100 + i * 10, 200);
      await page.clock.fastForward(IDLE_MS / 4);
    }
    await expect(page.getByRole('dialog', { name: 'Your session is about to expire' })).toHaveCount(0);
    // And idle for as long, the notice comes.
    await page.clock.fastForward(IDLE_MS);
    await expect(page.getByRole('dialog', { name: 'Your session is about to expire' })).toBeVisible();
  });
});
