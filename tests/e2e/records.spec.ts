/**
 * Schema-driven records in the browser (the scenario): an administrator adds a dropdown field and a rule
 * "show field X when field Y equals Z" to sites in the schema editor; an organizer creates a site and sees X appear
 * and disappear as Y changes, saves, edits it, and finds it by that field in the list filter; the site is deleted and
 * restored with the server's messages; its history shows the change.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, filterList, signIn } from './support';

let api: Api;
test.beforeAll(async () => {
  api = await Api.signIn();
});
test.afterAll(async () => {
  await api.dispose();
});

/** Choose an option of a MUI select (react-admin SelectInput or a plain TextField select) by its label. */
async function choose(page: Page, label: string | RegExp, option: string, scope = page.locator('body')) {
  await scope.getByRole('combobox', { name: label, exact: typeof label === 'string' }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function expectNotice(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
}

test.describe('schema-driven records', () => {
  test('a dropdown and a rule added to sites drive the organizer’s form, list filter, delete/restore and history', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    const stamp = Date.now().toString().slice(-6);
    const accessName = `Access ${stamp}`;
    const codeName = `Gate code ${stamp}`;

    // --- The administrator adds two fields and a rule to sites in the schema editor. ---
    await signIn(page, { at: '/schemas' });
    await page.getByRole('grid').getByRole('link', { name: 'Sites', exact: true }).click();
    await expect(page.getByTestId('page-heading')).toHaveText('Sites');
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByTestId('page-heading')).toHaveText('Edit Sites');

    await page.getByTestId('add-field').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Field name').fill(accessName);
    await choose(page, 'Type', 'Dropdown', dialog);
    await dialog.getByTestId('choice-label-0').fill('Open');
    await dialog.getByRole('button', { name: 'Add a choice' }).click();
    await dialog.getByTestId('choice-label-1').fill('Gated');
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await expectNotice(page, 'Field created successfully.');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.getByTestId('add-field').click();
    await page.getByRole('dialog').getByLabel('Field name').fill(codeName);
    await page.getByRole('dialog').getByRole('button', { name: 'Add field' }).click();
    await expect(page.locator(`[data-field-row]`).filter({ hasText: codeName })).toBeVisible();

    await page.getByTestId('add-rule').click();
    const rule = page.getByTestId(/^rule-\d+$/).last();
    await choose(page, 'Field', accessName, rule.getByTestId(/when-field-0$/));
    await choose(page, 'Value', 'Gated', rule.getByTestId(/when-value-0$/));
    await choose(page, 'Do', 'show', rule.getByTestId(/then-action-0$/));
    await choose(page, 'Field', codeName, rule.getByTestId(/then-field-0$/));
    await expect(rule.getByTestId(/summary$/)).toHaveText(`When ${accessName} equals "gated", show ${codeName}`);
    await rule.getByRole('button', { name: 'Save rule' }).click();
    await expectNotice(page, 'Logic block created successfully.');

    // --- An organizer creates a site: the gate code shows only while access is Gated. ---
    const organizer = await api.createUser('user', 'Olive', 'Organizer');
    const context = await browser.newContext();
    const org = await context.newPage();
    await signIn(org, { user: organizer, at: '/sites/create' });
    await expect(org.getByTestId('page-heading')).toHaveText('Create Site');
    const siteName = `Harbor Depot ${stamp}`;
    await org.getByLabel('Name *').fill(siteName);
    await choose(org, 'Type', 'Union');
    await expect(org.getByLabel(codeName)).toHaveCount(0);
    await choose(org, accessName, 'Gated');
    await expect(org.getByLabel(codeName)).toBeVisible();
    await choose(org, accessName, 'Open');
    await expect(org.getByLabel(codeName)).toHaveCount(0);
    await choose(org, accessName, 'Gated');
    await org.getByLabel(codeName).fill('4321');
    await org.getByRole('button', { name: 'Save' }).click();
    await expectNotice(org, 'Site created successfully.');
    await expect(org.getByTestId('page-heading')).toHaveText(siteName);
    await expect(org.getByTestId('record-details')).toContainText('4321');
    const siteId = Number(new URL(org.url()).pathname.split('/')[2]);
    expect(siteId).toBeGreaterThan(0);

    // Edit: the gate code changes (the history will show it).
    await org.getByRole('link', { name: 'Edit' }).click();
    await expect(org.getByLabel(codeName)).toHaveValue('4321');
    await org.getByLabel(codeName).fill('9999');
    await org.getByRole('button', { name: 'Save' }).click();
    await expectNotice(org, 'Site updated successfully.');
    await expect(org.getByTestId('record-details')).toContainText('9999');

    // The list filter finds it by the new field (and leaves out a site without it).
    const otherName = `Quarry Yard ${stamp}`;
    await api.post('/api/sites', { name: otherName, type: 'union' });
    await org.goto('/sites');
    await expect(org.getByText(otherName)).toBeVisible();
    await filterList(org, [{ field: accessName, value: 'Gated', pick: true }]);
    await expect(org.getByText(siteName)).toBeVisible();
    await expect(org.getByText(otherName)).toHaveCount(0);
    await expect(org.getByText(/Displaying 1 to 1 of 1/)).toBeVisible();
    // The filter is kept in the URL, as the view filter structure.
    await expect
      .poll(() => decodeURIComponent(org.url()))
      .toContain(`"field":"${accessName.toLowerCase().replace(/ /g, '_')}","op":"eq","value":"gated"`);
    await org.getByRole('button', { name: 'Filters (1)' }).click();
    await choose(org, 'Value', 'Open', org.getByRole('dialog', { name: 'Filter' }));
    await org.getByRole('dialog', { name: 'Filter' }).getByRole('button', { name: 'Apply' }).click();
    await expect(org.getByText(siteName)).toHaveCount(0);
    await context.close();

    // --- The administrator deletes and restores it, with the server's messages. ---
    await page.goto(`/sites/${siteId}/show`);
    await expect(page.getByTestId('page-heading')).toHaveText(siteName);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expectNotice(page, 'Site deleted successfully.');
    await expect(page).toHaveURL(/\/sites$/);
    await page.getByRole('link', { name: 'Deleted' }).click();
    await expect(page).toHaveURL(/\/sites\/deleted/);
    const row = page.getByRole('row').filter({ hasText: siteName });
    await row.getByRole('button', { name: 'Restore' }).click();
    await expectNotice(page, 'Site restored successfully.');
    await expect(page.getByRole('row').filter({ hasText: siteName })).toHaveCount(0);

    // --- Its history shows who changed the gate code, before and after. ---
    await page.goto(`/sites/${siteId}/show?tab=history`);
    const history = page.getByTestId('history');
    await expect(history.locator('[data-revision=restored]')).toBeVisible();
    await expect(history.locator('[data-revision=deleted]')).toBeVisible();
    const change = history.locator('[data-revision=updated]').locator('tr', { hasText: codeName });
    await expect(change).toContainText('4321');
    await expect(change).toContainText('9999');
    await expect(history.locator('[data-revision=updated]')).toContainText('Olive Organizer');

    // Restore the version from before the edit: the gate code is 4321 again.
    await history.locator('[data-revision=created]').getByRole('button', { name: 'Restore this version' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await expectNotice(page, 'Site updated successfully.');
    await page.getByTestId('tab-details').click();
    await expect(page.getByTestId('record-details')).toContainText('4321');
  });
});
