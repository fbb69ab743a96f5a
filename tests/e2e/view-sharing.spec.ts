/**
 * Sharing a view with a team from the screen, and a person's own default view (docs/views.md "Default views"): an
 * administrator opens a view, shares it with a team in its Share dialog; an organizer of that team opens it, makes
 * it the view their list opens in, and the sites list then opens in it. At 1280 px by mouse, at 390 px by keyboard.
 */
import { expect, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
const stamp = Date.now().toString().slice(-6);
const teamName = `Crew ${stamp}`;
let teamId: number;
let organizer: { email: string; password: string };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  api = await Api.signIn();
  teamId = (await api.post<{ data: { id: number } }>('/api/teams', { name: teamName })).data.id;
  const person = await api.createUser('user', 'Tess', `Crew${stamp}`);
  await api.post(`/api/users/${person.id}`, { team_ids: [teamId] });
  organizer = person;
  await api.post('/api/sites', { name: `Crew site ${stamp}`, type: 'union' });
});

test.afterAll(async () => {
  await api.dispose();
});

for (const width of [1280, 390]) {
  test(`a view is shared with a team from its Share dialog and made a person's own default, at ${width} px`, async ({
    browser,
  }) => {
    test.slow();
    const byKeys = width < 500;
    const viewport = { width, height: width > 500 ? 900 : 844 };
    const name = `Crew view ${stamp} ${width}`;
    const view = (await api.post<{ data: { id: number } }>('/api/views', { name, record_type: 'site' })).data;

    const adminPage = await browser.newPage({ viewport });
    await signIn(adminPage, { at: `/sites?view=${view.id}` });
    await expect(adminPage.getByTestId('open-view')).toContainText(name);
    const share = adminPage.getByRole('button', { name: 'Share', exact: true });
    if (byKeys) {
      await share.focus();
      await adminPage.keyboard.press('Enter');
    } else await share.click();
    const dialog = adminPage.getByRole('dialog', { name: `Share "${name}"` });
    await expect(dialog).toBeVisible();
    const team = dialog.getByRole('checkbox', { name: teamName });
    if (byKeys) {
      await team.focus();
      await adminPage.keyboard.press('Space');
    } else await team.check();
    await expect(team).toBeChecked();
    await adminPage.screenshot({ path: test.info().outputPath(`view-sharing-dialog-${width}.png`) });
    const saved = adminPage.waitForResponse(
      (r) => r.url().includes(`/api/views/${view.id}`) && r.request().method() !== 'GET',
    );
    if (byKeys) {
      await dialog.getByRole('button', { name: 'Save' }).focus();
      await adminPage.keyboard.press('Enter');
    } else await dialog.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).toBe(200);
    await expect(dialog).toBeHidden();
    const kept = await api.get<{ data: { team_ids: number[] } }>(`/api/views/${view.id}`);
    expect(kept.data.team_ids).toEqual([teamId]);
    await adminPage.close();

    // The organizer, of that team, opens it and makes it the view their sites list opens in.
    const page = await browser.newPage({ viewport });
    await signIn(page, { user: organizer, at: `/sites?view=${view.id}` });
    await expect(page.getByTestId('open-view')).toContainText(`${name} (shared)`);
    const mine = page.getByRole('button', { name: 'Open my list in this view' });
    // It waits for the person's current default: a disabled button cannot take the focus the keys need.
    await expect(mine).toBeEnabled();
    // `press` focuses the button it finds then and there: the list may draw the view bar again between a focus() and
    // a key pressed on its own, and the key then lands on the page.
    if (byKeys) await mine.press('Enter');
    else await mine.click();
    await expect(page.getByRole('button', { name: 'My default view' })).toHaveAttribute('aria-pressed', 'true');
    await page.screenshot({ path: test.info().outputPath(`view-sharing-default-${width}.png`) });
    await page.goto('/sites');
    await expect(page).toHaveURL(new RegExp(`[?&]view=${view.id}(&|$)`));
    await expect(page.getByTestId('open-view')).toContainText(name);
    // Taken back: the list is the whole list again.
    await page.getByRole('button', { name: 'My default view' }).click();
    await expect(page.getByRole('button', { name: 'Open my list in this view' })).toBeVisible();
    await page.goto('/sites');
    await expect(page.getByTestId('open-view')).toHaveCount(0);
    await page.close();
  });
}
