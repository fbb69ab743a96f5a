/**
 * The grid of a view (issue 32, docs/views.md): the sites list grouped by type with a count and the sum of the
 * estimated values per group, a group opened to its rows (1280 and 390 px, by keyboard on the phone); a view's
 * column resized, the changed view saved, its width back after a reload, then a change reset (1280 px: a phone shows
 * cards); an administrator makes a view the Organizer role's default and an organizer's list opens in it.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
const stamp = `Grp${Date.now().toString().slice(-6)}`;
const sites = [
  { name: `${stamp} Alpha`, type: 'union', estimated_value: 1000 },
  { name: `${stamp} Beta`, type: 'union', estimated_value: 2500 },
  { name: `${stamp} Gamma`, type: 'non-union', estimated_value: 400 },
];
let organizer: { email: string; password: string };
const madeViews: number[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  api = await Api.signIn();
  for (const site of sites) await api.post('/api/sites', site);
  organizer = await api.createUser('user', 'Greta', `Grid${stamp}`);
});

test.afterAll(async () => {
  // Nobody else's list opens in these views later on.
  for (const id of madeViews) await api.post(`/api/views/${id}`, { default_role_ids: [] });
  await api.dispose();
});

/** The sites list searched for this run's sites. */
const searched = `/sites?filter=${encodeURIComponent(JSON.stringify({ q: stamp }))}`;

async function pickGroup(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'Group by' }).click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

for (const width of [1280, 390]) {
  test(`the sites list grouped by type shows counts and sums, and a group opens to its rows, at ${width} px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
    await signIn(page, { at: searched });
    await pickGroup(page, 'Type');
    await expect(page).toHaveURL(/[?&]group=type/);
    const groups = page.getByTestId('list-group');
    await expect(groups).toHaveCount(2);
    const union = groups.filter({ hasText: 'Union' }).filter({ hasNotText: 'Non' });
    await expect(union.getByTestId('group-count')).toHaveText('2');
    await expect(union.getByTestId('group-sums')).toContainText('$3,500');
    await expect(groups.filter({ hasText: 'Non-Union' }).getByTestId('group-count')).toHaveText('1');
    await expect(page.getByText(`3 sites in 2 groups by type`)).toBeVisible();
    // Closed, a group shows no rows; opened (by keyboard on the phone), its own.
    await expect(page.getByText(sites[0].name)).toHaveCount(0);
    const header = union.getByRole('button', { expanded: false });
    if (width > 500) await header.click();
    else {
      await header.focus();
      await page.keyboard.press('Enter');
    }
    await expect(union.getByRole('button', { expanded: true })).toBeVisible();
    await expect(union.getByText(sites[0].name)).toBeVisible();
    await expect(union.getByText(sites[1].name)).toBeVisible();
    await expect(page.getByText(sites[2].name)).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath(`grouped-${width}.png`), fullPage: true });
    // Kept in the URL: a reload shows the same groups.
    await page.reload();
    await expect(page.getByTestId('list-group')).toHaveCount(2);
  });
}

/** The width of the grid's Name column header, in CSS pixels. */
const nameWidth = async (page: Page) =>
  Math.round((await page.locator('.MuiDataGrid-columnHeader[data-field="name"]').boundingBox())?.width ?? 0);

test('a resized column marks the view changed; saved, it stays after a reload; reset, it goes back', async ({
  page,
}) => {
  const view = await api.post<{ data: { id: number } }>('/api/views', {
    name: `Columns ${stamp}`,
    record_type: 'site',
    filters: { all: [{ field: 'name', op: 'contains', value: stamp }] },
    columns: [{ field: 'name', width: 180 }, { field: 'type' }],
  });
  const id = view.data.id;
  test.slow();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, { at: `/sites?view=${id}` });
  await expect(page.getByTestId('open-view')).toContainText(`Columns ${stamp}`, { timeout: 30_000 });
  await expect(page.locator('.MuiDataGrid-columnHeader[data-field="type"]')).toBeVisible();
  await expect(page.locator('.MuiDataGrid-columnHeader[data-field="estimated_value"]')).toHaveCount(0);
  // The grid sizes its columns after it first draws them: the width is read until it settles.
  await expect.poll(() => nameWidth(page)).toBe(180);
  await expect(page.getByTestId('view-changed')).toHaveCount(0);

  // Drag the Name column's right edge 120 px further.
  const separator = page.locator('.MuiDataGrid-columnHeader[data-field="name"] .MuiDataGrid-columnSeparator');
  const box = (await separator.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 5 });
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByTestId('view-changed')).toHaveText('Changed: columns');
  const resized = await nameWidth(page);
  expect(resized).toBeGreaterThan(250);
  await page.screenshot({ path: test.info().outputPath('view-changed-1280.png') });

  await page
    .getByRole('group', { name: 'Changes to the view' })
    .getByRole('button', { name: 'Save', exact: true })
    .click();
  await expect(page.getByTestId('view-changed')).toHaveCount(0);
  const saved = await api.get<{ data: { columns: Array<{ field: string; width?: number }> } }>(`/api/views/${id}`);
  expect(saved.data.columns).toEqual([{ field: 'name', width: resized }, { field: 'type' }]);
  await page.reload();
  await expect(page.locator('.MuiDataGrid-columnHeader[data-field="type"]')).toBeVisible();
  await expect.poll(() => nameWidth(page)).toBe(resized);

  // Sorted by a column of its own: changed; Reset gives the view as saved.
  await page.locator('.MuiDataGrid-columnHeader[data-field="type"] .MuiDataGrid-columnHeaderTitleContainer').click();
  await expect(page.getByTestId('view-changed')).toHaveText('Changed: sort');
  await page.getByRole('group', { name: 'Changes to the view' }).getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByTestId('view-changed')).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`view=${id}`));
  await expect.poll(() => nameWidth(page)).toBe(resized);
});

for (const width of [1280, 390]) {
  test(`an administrator makes a view the Organizer role's default and an organizer's list opens in it, at ${width} px`, async ({
    browser,
  }) => {
    test.slow();
    const viewport = { width, height: width > 500 ? 900 : 844 };
    const name = `Default ${stamp} ${width}`;
    const adminPage = await browser.newPage({ viewport });
    await signIn(adminPage, { at: searched });
    await pickGroup(adminPage, 'Type');
    await adminPage.getByRole('button', { name: 'Save as view' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Save as view' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('checkbox', { name: 'Default for Organizer' }).check();
    await adminPage.screenshot({ path: test.info().outputPath(`default-view-dialog-${width}.png`) });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(adminPage).toHaveURL(/[?&]view=\d+/);
    const id = Number(new URL(adminPage.url()).searchParams.get('view'));
    madeViews.push(id);
    const saved = await api.get<{ data: { default_role_ids: number[]; group_by: string } }>(`/api/views/${id}`);
    expect(saved.data.default_role_ids).toEqual([await api.roleId('user')]);
    expect(saved.data.group_by).toBe('type');
    await adminPage.close();

    const page = await browser.newPage({ viewport });
    await signIn(page, { user: organizer, at: '/sites' });
    await expect(page).toHaveURL(new RegExp(`[?&]view=${id}`));
    await expect(page.getByTestId('open-view')).toContainText(name);
    await expect(page.getByTestId('list-group').first()).toBeVisible();
    await expect(page.getByText(/ in \d+ groups? by type/)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`default-view-opened-${width}.png`), fullPage: true });
    // Closing the view shows the whole list, not the default again.
    await page.getByRole('link', { name: /Close the view/ }).click();
    await expect(page).toHaveURL(/[?&]view=none/);
    await expect(page.getByTestId('open-view')).toHaveCount(0);
    // Only one view is the role's default at a time in these tests.
    await api.post(`/api/views/${id}`, { default_role_ids: [] });
    await page.close();
  });
}
