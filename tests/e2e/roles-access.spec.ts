/**
 * The role screen's access matrix (issue 31): an administrator reads, per record type, what a role sees and changes
 * in words, edits a type's rules (the sentence follows as they tick), and sees as a person how many records of each
 * type they would see before saving; at 1280 px and on a phone. An organizer cannot open roles at all.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, signIn, USER_PASSWORD } from './support';

let api: Api;
const stamp = Date.now().toString().slice(-6);
const organizer = { id: 0, email: `access-organizer-${stamp}@example.com`, name: `Olga Access${stamp}` };
let roleId = 0;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  api = await Api.signIn();
  const roles = await api.get<{ data: Array<{ id: number; slug: string }> }>('/api/roles?per_page=-1');
  roleId = roles.data.find((role) => role.slug === 'user')!.id;
  organizer.id = (
    await api.post<{ data: { id: number } }>('/api/users', {
      first_name: 'Olga',
      last_name: `Access${stamp}`,
      email: organizer.email,
      password: USER_PASSWORD,
      role_id: roleId,
    })
  ).data.id;
});

test.afterAll(async () => {
  await api.dispose();
});

async function openRole(page: Page) {
  await signIn(page, { at: `/roles/${roleId}` });
  await expect(page.getByTestId('access-matrix')).toBeVisible({ timeout: 20_000 });
}

for (const width of [1280, 390]) {
  test(`an administrator reads and edits a role's rules and sees as a person, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: width > 500 ? 900 : 844 });
    await openRole(page);
    const notes = page.locator('[data-testid=access-matrix] tr[data-type=note]');
    await expect(notes.getByTestId('access-sentence')).toContainText('see the notes');
    await page.screenshot({ path: test.info().outputPath(`role-matrix-${width}.png`), fullPage: true });

    // Tasks: "only their own" to edit, Title hidden: the sentence says so before Apply, and the row after it.
    await page.getByRole('button', { name: 'Rules for Tasks' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rules for Tasks' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Which they may edit').click();
    await page.getByRole('option', { name: 'Only their own' }).click();
    await dialog.getByLabel('Title: visible, read-only or hidden').click();
    await page.getByRole('option', { name: 'Hidden' }).click();
    await expect(dialog.getByTestId('rule-sentence')).toContainText('cannot see Title');
    await page.screenshot({ path: test.info().outputPath(`role-rules-${width}.png`) });
    await dialog.getByRole('button', { name: 'Apply' }).click();
    const tasks = page.locator('[data-testid=access-matrix] tr[data-type=task]');
    await expect(tasks.getByTestId('access-sentence')).toContainText('cannot see Title');

    // See as the organizer: a count per type, with the rules not saved yet.
    const seeAs = page.getByTestId('see-as');
    await seeAs.getByLabel('Person').fill(organizer.name);
    await page.getByRole('option', { name: organizer.name }).click();
    await seeAs.getByRole('button', { name: `See as ${organizer.name}` }).click();
    // A large count is an estimate ("about 12,580").
    await expect(seeAs.locator('tr[data-type=site] [data-testid=see-as-count]')).toHaveText(/^(about )?\d/);
    await seeAs.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`role-see-as-${width}.png`), fullPage: true });
  });
}

test('an organizer cannot open the roles', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, { user: { email: organizer.email, password: USER_PASSWORD } });
  await expect(page.getByTestId('greeting')).toBeVisible();
  const answer = await page.evaluate(async (id) => (await fetch(`/api/roles/${id}`)).status, roleId);
  expect(answer).toBe(403);
  await page.goto(`/roles/${roleId}`);
  await expect(page.getByTestId('access-matrix')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('role-organizer-390.png') });
});
