/**
 * The schema editor beyond fields and rules: a record type created in the editor is usable end to end (menu entry,
 * list, create, show, edit, delete), and renaming a type changes its menu label and page titles at once.
 */
import { expect, test, type Page } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
test.beforeAll(async () => {
  api = await Api.signIn();
});
test.afterAll(async () => {
  await api.dispose();
});

async function expectNotice(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
}

test.describe('schema editor', () => {
  test('a record type created in the editor gets a menu entry and working list, create, show and edit screens', async ({ page }) => {
    test.setTimeout(120_000);
    const stamp = Date.now().toString().slice(-6);
    const singular = `Vehicle${stamp}`;
    const plural = `Vehicles${stamp}`;
    await signIn(page);
    await expect(page.getByTestId('sidebar')).toBeVisible();
    await page.goto('/schemas');
    await page.getByRole('link', { name: 'New record type' }).click();
    await page.getByLabel('One record is called').fill(singular);
    await page.getByLabel('Several are called').fill(plural);
    await page.getByRole('button', { name: 'Add a field' }).click();
    await page.getByTestId('new-field-name-0').fill('Plate');
    await page.getByRole('button', { name: 'Create record type' }).click();
    await expectNotice(page, 'Schema created successfully.');
    await expect(page.getByTestId('page-heading')).toHaveText(`Edit ${plural}`);

    // It is in the menu at once.
    const entry = page.getByTestId('sidebar').getByRole('link', { name: plural });
    await expect(entry).toBeVisible();
    await entry.click();
    await expect(page).toHaveURL(new RegExp(`/${singular.toLowerCase()}s$`));
    await expect(page.locator('#react-admin-title')).toContainText(plural);

    // Create, show, edit, list.
    await page.getByRole('link', { name: 'Create' }).click();
    await expect(page.getByTestId('page-heading')).toHaveText(`Create ${singular}`);
    await page.getByLabel('Name *').fill('Blue van');
    await page.getByLabel('Plate').fill('7ABC123');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, `${singular} created successfully.`);
    await expect(page.getByTestId('page-heading')).toHaveText('Blue van');
    await expect(page.getByTestId('record-details')).toContainText('7ABC123');

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Plate').fill('8XYZ987');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectNotice(page, `${singular} updated successfully.`);
    await expect(page.getByTestId('record-details')).toContainText('8XYZ987');

    // Notes work on it too.
    await page.getByTestId('tab-notes').click();
    await page.getByLabel('New note').fill('Needs new tyres');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expectNotice(page, 'Note created successfully.');
    await expect(page.getByTestId('notes')).toContainText('Needs new tyres');

    await entry.click();
    await expect(page.getByRole('cell', { name: 'Blue van' })).toBeVisible();
    await expect(page.getByRole('cell', { name: '8XYZ987' })).toBeVisible();
    await page.getByRole('searchbox').or(page.getByPlaceholder('Search')).first().fill('nothing-like-it');
    await expect(page.getByRole('cell', { name: 'Blue van' })).toHaveCount(0);
  });

  test('renaming a record type renames its menu entry and page titles', async ({ page }) => {
    const schemas = await api.get<{ data: Array<{ id: number; type: string; name_singular: string; name_plural: string }> }>('/api/schemas?per_page=-1');
    const contact = schemas.data.find((schema) => schema.type === 'contact')!;
    await signIn(page);
    await expect(page.getByTestId('sidebar')).toBeVisible();
    await page.goto(`/schemas/${contact.id}`);
    await page.getByLabel('One record is called').fill('Prospect');
    await page.getByLabel('Several are called').fill('Prospects');
    await page.getByRole('button', { name: 'Save names' }).click();
    try {
      await expectNotice(page, 'Schema updated successfully.');
      await expect(page.getByTestId('sidebar').locator('[data-menu-key=contacts]')).toHaveText('Prospects');
      await page.getByTestId('sidebar').locator('[data-menu-key=contacts]').click();
      await expect(page.locator('#react-admin-title')).toContainText('Prospects');
      await page.getByRole('link', { name: 'Create' }).click();
      await expect(page.getByTestId('page-heading')).toHaveText('Create Prospect');
    } finally {
      await api.post(`/api/schemas/${contact.id}`, { name_singular: contact.name_singular, name_plural: contact.name_plural });
    }
  });
});
