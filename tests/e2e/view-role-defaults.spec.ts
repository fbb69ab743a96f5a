/**
 * A role's default view set on a view someone else owns (docs/views.md "Default views"): another administrator
 * shares a view with the administrators and the organizers; the administrator opens it, ticks "Default for Organizer"
 * in its "Role defaults" dialog, and an organizer's sites list then opens in it. At 1280 px by mouse, at 390 px by
 * keyboard.
 */
import { expect, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
let otherAdmin: Api;
const stamp = Date.now().toString().slice(-6);
let organizer: { email: string; password: string };
let organizerRole: number;
let sharedWith: number[];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  api = await Api.signIn();
  organizerRole = await api.roleId('user');
  // The test's administrator may hold either role that manages roles: the view is shared with both, so they read it.
  sharedWith = [await api.roleId('super'), await api.roleId('admin'), organizerRole];
  const other = await api.createUser('admin', 'Ada', `Other${stamp}`);
  otherAdmin = await Api.signIn(other.email, other.password);
  organizer = await api.createUser('user', 'Rita', `Default${stamp}`);
});

test.afterAll(async () => {
  await otherAdmin?.dispose();
  await api.dispose();
});

for (const width of [1280, 390]) {
  test(`an administrator makes someone else's shared view the organizers' default, at ${width} px`, async ({
    browser,
  }) => {
    test.slow();
    const byKeys = width < 500;
    const viewport = { width, height: width > 500 ? 900 : 844 };
    const name = `Their view ${stamp} ${width}`;
    const view = (
      await otherAdmin.post<{ data: { id: number } }>('/api/views', { name, record_type: 'site', role_ids: sharedWith })
    ).data;

    const adminPage = await browser.newPage({ viewport });
    await signIn(adminPage, { at: `/sites?view=${view.id}` });
    // A loaded machine may take longer than the usual 10 s to draw the list.
    await expect(adminPage.getByTestId('open-view')).toContainText(name, { timeout: 60_000 });
    // Not the owner: no Share, but Role defaults.
    await expect(adminPage.getByRole('button', { name: 'Share', exact: true })).toHaveCount(0);
    const open = adminPage.getByRole('button', { name: 'Role defaults' });
    if (byKeys) {
      await open.focus();
      await adminPage.keyboard.press('Enter');
    } else await open.click();
    const dialog = adminPage.getByRole('dialog', { name: `Role defaults for "${name}"` });
    await expect(dialog).toBeVisible();
    const organizers = dialog.getByRole('checkbox', { name: 'Default for Organizer' });
    if (byKeys) {
      await organizers.focus();
      await adminPage.keyboard.press('Space');
    } else await organizers.check();
    await expect(organizers).toBeChecked();
    await adminPage.screenshot({ path: test.info().outputPath(`view-role-defaults-dialog-${width}.png`) });
    const saved = adminPage.waitForResponse(
      (r) => r.url().includes('/api/views/role-defaults') && r.request().method() === 'PUT',
    );
    const save = dialog.getByRole('button', { name: 'Save' });
    if (byKeys) {
      // Save waits for the lists of roles and teams; a disabled button takes no focus, and Enter would then go to the
      // checkbox (a click waits by itself).
      await expect(save).toBeEnabled();
      await save.focus();
      await expect(save).toBeFocused();
      await adminPage.keyboard.press('Enter');
    } else await save.click();
    expect((await saved).status()).toBe(200);
    await expect(dialog).toBeHidden();
    const kept = await api.get<{ data: { default_role_ids: number[]; user_id: number } }>(`/api/views/${view.id}`);
    expect(kept.data.default_role_ids).toEqual([organizerRole]);
    await adminPage.close();

    // An organizer's sites list opens in it.
    const page = await browser.newPage({ viewport });
    await signIn(page, { user: organizer, at: '/sites' });
    await expect(page).toHaveURL(new RegExp(`[?&]view=${view.id}(&|$)`), { timeout: 60_000 });
    await expect(page.getByTestId('open-view')).toContainText(name, { timeout: 60_000 });
    await page.screenshot({ path: test.info().outputPath(`view-role-defaults-organizer-${width}.png`) });
    await page.close();
  });
}
