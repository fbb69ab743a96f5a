/**
 * Saved views (issue 32, docs/views.md): an administrator narrows the sites list in the filter builder to records
 * matching any of two conditions (an OR group), saves it as a view shared with the Organizer role; an organizer finds it in the sidebar under Job Sites,
 * opens it and sees what it shows, as far as their own access goes; at 1280 px and on a phone.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, filterList, signIn } from './support';

let api: Api;
const stamp = Date.now().toString().slice(-6);
const site = { harbor: `Harbor ${stamp}`, valley: `Valley ${stamp}`, dock: `Dock ${stamp}` };
let organizer: { email: string; password: string };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  api = await Api.signIn();
  await api.post('/api/sites', { name: site.harbor, type: 'union' });
  await api.post('/api/sites', { name: site.valley, type: 'non-union' });
  await api.post('/api/sites', { name: site.dock, type: 'non-union' });
  organizer = await api.createUser('user', 'Vera', `Views${stamp}`);
});

test.afterAll(async () => {
  await api.dispose();
});

/** The menu: the sidebar at 1280 px, the drawer (opened) on a phone. */
async function menu(page: Page, width: number) {
  if (width > 500) return page.getByTestId('sidebar');
  await page.getByTestId('open-drawer').click();
  const drawer = page.getByTestId('nav-drawer');
  await expect(drawer).toBeVisible();
  return drawer;
}

for (const width of [1280, 390]) {
  test(`a view with an OR group is saved, shared with a role and opened from the sidebar by its people, at ${width} px`, async ({
    browser,
  }) => {
    // Two people, a filter, a sort, a save and the sidebar: more than the default minute on a busy machine.
    test.slow();
    const viewport = { width, height: width > 500 ? 900 : 844 };
    const name = `Harbor or Valley ${width}`;
    // The administrator: two conditions in the filter builder, matching any of them.
    const adminPage = await browser.newPage({ viewport });
    await signIn(adminPage, { at: '/sites' });
    await filterList(
      adminPage,
      [
        { field: 'Name', value: site.harbor },
        { field: 'Name', value: site.valley },
      ],
      { join: 'any' },
    );
    await expect(adminPage.getByRole('button', { name: 'Filters (2)' })).toBeVisible();
    // Sorted by name, descending: Valley before Harbor.
    await adminPage.getByRole('button', { name: 'Sort' }).click();
    const sortDialog = adminPage.getByRole('dialog', { name: 'Sort' });
    await sortDialog.getByRole('button', { name: 'Add a sort' }).click();
    await sortDialog.getByRole('combobox', { name: 'Sort by' }).click();
    await adminPage.getByRole('option', { name: 'Name', exact: true }).click();
    await sortDialog.getByRole('combobox', { name: 'Order' }).click();
    await adminPage.getByRole('option', { name: 'Descending' }).click();
    await sortDialog.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(async () => {
        const text = await adminPage.locator('main').innerText();
        return text.indexOf(site.valley) >= 0 && text.indexOf(site.valley) < text.indexOf(site.harbor);
      })
      .toBe(true);
    await adminPage.getByRole('button', { name: 'Save as view' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Save as view' });
    await dialog.getByLabel('Name').fill(name);
    await expect(dialog.getByText('2 filters, the sort, columns and grouping of this list')).toBeVisible();
    await dialog.getByLabel('Organizer', { exact: true }).check();
    await adminPage.screenshot({ path: test.info().outputPath(`save-view-${width}.png`) });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(adminPage).toHaveURL(/[?&]view=\d+/);
    const viewId = Number(new URL(adminPage.url()).searchParams.get('view'));
    await expect(adminPage.getByTestId('open-view')).toContainText(`View: ${name} (shared)`);
    const main = adminPage.locator('main');
    await expect(main.getByText(site.harbor)).toBeVisible();
    await expect(main.getByText(site.valley)).toBeVisible();
    await expect(main.getByText(site.dock)).toHaveCount(0);
    const saved = await api.get<{ data: { filters: unknown; sorts: unknown; role_ids: number[] } }>(
      `/api/views/${viewId}`,
    );
    expect(saved.data.sorts).toEqual([{ field: 'name', order: 'desc' }]);
    expect(saved.data.filters).toEqual({
      any: [
        { field: 'name', op: 'contains', value: site.harbor },
        { field: 'name', op: 'contains', value: site.valley },
      ],
    });
    expect(saved.data.role_ids).toEqual([await api.roleId('user')]);
    await adminPage.close();

    // An organizer: the view is under Job Sites in their menu, and opens the same records.
    const page = await browser.newPage({ viewport });
    await signIn(page, { user: organizer, at: '/' });
    const nav = await menu(page, width);
    await nav.locator('[data-menu-key=sites]').click();
    const entry = nav.locator(`[data-menu-key=view-${viewId}]`);
    await expect(entry).toHaveText(name);
    await entry.scrollIntoViewIfNeeded();
    await page.waitForTimeout(400); // the group's opening animation, for the screenshot
    await page.screenshot({ path: test.info().outputPath(`views-menu-${width}.png`) });
    await entry.click();
    await expect(page).toHaveURL(new RegExp(`/sites\\?view=${viewId}$`));
    await expect(page.getByTestId('open-view')).toContainText(name);
    const list = page.locator('main');
    await expect(list.getByText(site.harbor)).toBeVisible();
    await expect(list.getByText(site.valley)).toBeVisible();
    await expect(list.getByText(site.dock)).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath(`view-opened-${width}.png`), fullPage: true });
    await page.close();
  });
}
