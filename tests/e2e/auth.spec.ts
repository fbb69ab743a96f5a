import { expect, test } from '@playwright/test';
import { ADMIN_EMAIL, signIn, signInWithForm } from './support';

test.describe('sign-in screens', () => {
  test('signs in and out', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByText('Navigate. Organize. Grow.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '/privacy.html');
    await expect(page.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', '/terms.html');
    await expect(page.getByRole('link', { name: 'Support' })).toHaveAttribute('href', /^mailto:/);
    await expect(page.getByRole('img', { name: /logo/ })).toHaveAttribute('src', '/logo.svg');
    await signInWithForm(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('greeting')).toHaveText(/^Good (morning|afternoon|evening), Admin$/);
    await expect(page.getByTestId('user-avatar')).toHaveText('AA');

    await page.getByTestId('user-menu-button').click();
    await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    const check = await page.request.get('/api/auth/check');
    expect(check.status()).toBe(401);
    // Signed out for real: a guarded page sends back to the sign-in screen.
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a wrong password says so and stays on /login', async ({ page }) => {
    await page.goto('/login');
    await signInWithForm(page, ADMIN_EMAIL, 'not-the-password');
    await expect(page.getByTestId('login-error')).toHaveText('These credentials do not match our records.');
    await expect(page).toHaveURL(/\/login$/);
    expect((await page.request.get('/api/auth/check')).status()).toBe(401);
  });

  test('a guarded page stores the full intended path and returns there after sign-in', async ({ page }) => {
    await page.goto('/settings?section=password#top');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('intendedUrl'))).toBe('/settings?section=password#top');
    await signInWithForm(page);
    await expect(page).toHaveURL(/\/settings\?section=password#top$/);
    await expect(page.getByRole('heading', { name: 'Your details' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('intendedUrl'))).toBeNull();
  });

  test('a signed-in visit to a guest route goes to the dashboard', async ({ page }) => {
    await signIn(page);
    await expect(page.getByTestId('greeting')).toBeVisible();
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/password/reset');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('greeting')).toBeVisible();
  });

  test('password reset and update screens are reachable as a guest', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL(/\/password\/reset$/);
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByRole('status')).toBeVisible();
    await page.goto('/password/update?token=abc&email=nobody%40example.com');
    await expect(page.getByLabel('Email')).toHaveValue('nobody@example.com');
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('a-new-password-1');
    await page.getByLabel('Confirm new password').fill('a-new-password-1');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page).toHaveURL(/\/password\/update/);
  });

  test('the 404 page, and unknown paths go there', async ({ page }) => {
    await page.goto('/404');
    await expect(page.getByRole('heading', { name: "Sorry, we couldn't find this page." })).toBeVisible();
    await signIn(page);
    await expect(page.getByTestId('greeting')).toBeVisible();
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByRole('heading', { name: "Sorry, we couldn't find this page." })).toBeVisible();
    // Its own layout: no sidebar.
    await expect(page.getByTestId('sidebar')).toHaveCount(0);
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await expect(page.getByTestId('greeting')).toBeVisible();
  });
});
