/**
 * Work on records in the browser: tasks (with the sidebar's open count), documents (multipart upload), sharing
 * and notifications (the unread count, dismiss), the roles permission checklist, and users (goals, impersonate).
 */
import { expect, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
test.beforeAll(async () => {
  api = await Api.signIn();
});
test.afterAll(async () => {
  await api.dispose();
});

test('tasks, documents, sharing and notifications on a site', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString().slice(-6);
  const site = await api.post<{ data: { id: number } }>('/api/sites', { name: `Work Site ${stamp}`, type: 'union' });
  const organizer = await api.createUser('user', 'Tess', 'Tasker');
  await signIn(page, { user: organizer });
  await expect(page.getByTestId('menu-count-tasks')).toHaveText('0');

  // A task on the site: the open count goes up, and down again when it is completed.
  await page.goto(`/sites/${site.data.id}/show?tab=tasks`);
  await page.getByTestId('task-form').getByLabel('Task').fill('Call the foreman');
  await page.getByTestId('task-form').getByRole('button', { name: 'Add task' }).click();
  await expect(page.getByText('Task created successfully.')).toBeVisible();
  await expect(page.getByTestId('tasks')).toContainText('Call the foreman');
  await expect(page.getByTestId('menu-count-tasks')).toHaveText('1');
  await page.getByRole('checkbox', { name: 'Complete Call the foreman' }).check();
  await expect(page.getByTestId('menu-count-tasks')).toHaveText('0');

  // A document uploaded to the site.
  await page.getByTestId('tab-documents').click();
  await page
    .getByTestId('document-file')
    .setInputFiles({ name: 'site-plan.txt', mimeType: 'text/plain', buffer: Buffer.from('Gate on the north side.\n') });
  await expect(page.getByTestId('documents').getByRole('link', { name: 'site-plan.txt' })).toBeVisible();
  const docs = await api.get<{ data: Array<{ file_name: string }> }>(
    `/api/documents?filter=${encodeURIComponent(JSON.stringify({ documentable_type: 'site', documentable_id: site.data.id }))}`,
  );
  expect(docs.data.map((doc) => doc.file_name)).toContain('site-plan.txt');

  // The administrator shares the site with the organizer: one unread notification, dismissed from the list.
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signIn(adminPage, { at: `/sites/${site.data.id}/show` });
  await adminPage.getByRole('button', { name: 'Share' }).click();
  const dialog = adminPage.getByRole('dialog');
  await dialog.getByLabel('People').fill('Tasker');
  await adminPage.getByRole('option', { name: 'Tess Tasker' }).click();
  await dialog.getByRole('button', { name: 'Share' }).click();
  await expect(adminPage.getByText('Site shared successfully.')).toBeVisible();
  await admin.close();

  await expect(page.getByTestId('menu-count-notifications')).toHaveText('1');
  await page.goto('/notifications');
  await expect(page.getByText(`shared a site with you: Work Site ${stamp}`)).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByText('Notification dismissed.')).toBeVisible();
  await expect(page.getByTestId('menu-count-notifications')).toHaveText('0');
});

test('the roles permission checklist and a user’s goals', async ({ page }) => {
  test.setTimeout(90_000);
  const roleId = await api.roleId('assistant');
  await signIn(page, { at: '/roles' });
  await page.getByRole('grid').getByRole('link', { name: 'Assistant', exact: true }).click();
  const checklist = page.getByTestId('permission-checklist');
  await expect(checklist).toBeVisible();
  // Grouped by entity, named as the record types are.
  await expect(checklist.locator('[data-entity=site]')).toContainText('Sites');
  await expect(checklist.locator('[data-permission="site:read:union"]')).toHaveAttribute('aria-pressed', 'true');
  await checklist.locator('input[data-permission="grievance:read"]').check();
  await checklist.locator('[data-permission="site:read:lcmt"]').click();
  await page.getByRole('button', { name: 'Save role' }).click();
  await expect(page.getByText('Role updated successfully.')).toBeVisible();
  const role = await api.get<{ data: { permissions: string[] } }>(`/api/roles/${roleId}`);
  try {
    expect(role.data.permissions).toContain('grievance:read');
    expect(role.data.permissions).toContain('site:read:lcmt');
  } finally {
    await api.post(`/api/roles/${roleId}`, {
      permissions: role.data.permissions.filter((p) => p !== 'grievance:read' && p !== 'site:read:lcmt'),
    });
  }

  // Goals of a user, for every month.
  const person = await api.createUser('user', 'Gail', 'Goals');
  await page.goto(`/users/${person.id}/show`);
  await expect(page.getByTestId('page-heading')).toHaveText('Gail Goals');
  await page.getByLabel('Calls').fill('40');
  await page.getByLabel('Visits').fill('12');
  await page.getByRole('button', { name: 'Save goals' }).click();
  await expect(page.getByText('Goals updated successfully.')).toBeVisible();
  const saved = await api.get<{ data: { goals: Record<string, Record<string, number>> } }>(`/api/users/${person.id}`);
  expect(saved.data.goals.default).toMatchObject({ calls: 40, visits: 12 });

  // Impersonate, and come back.
  await page.getByRole('button', { name: 'Sign in as Gail' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign in as them' }).click();
  await expect(page.getByTestId('user-avatar')).toHaveText('GG');
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('leave-impersonation').click();
  await expect(page.getByTestId('user-avatar')).not.toHaveText('GG');
  await expect(page).toHaveURL(/\/users$/);
});

test('sites: change type, attach contacts, bulk delete', async ({ page }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString().slice(-6);
  const first = await api.post<{ data: { id: number } }>('/api/sites', { name: `Pairdel A ${stamp}`, type: 'union' });
  await api.post('/api/sites', { name: `Pairdel B ${stamp}`, type: 'union' });
  await api.post('/api/contacts', { first_name: 'Carla', last_name: `Contact${stamp}` });
  await signIn(page, { at: `/sites/${first.data.id}/show` });
  await expect(page.getByTestId('page-heading')).toHaveText(`Pairdel A ${stamp}`);
  await page.getByRole('button', { name: 'Change type' }).click();
  await page.getByRole('dialog').getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'PLA', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Change type' }).click();
  await expect(page.getByText('Site type changed successfully.')).toBeVisible();
  await expect(page.getByText('PLA site')).toBeVisible();

  await page.getByRole('button', { name: 'Contacts' }).click();
  await page.getByRole('dialog').getByLabel('Contacts').fill(`Contact${stamp}`);
  await page.getByRole('option', { name: `Carla Contact${stamp}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save contacts' }).click();
  await expect(page.getByText('Site updated successfully.')).toBeVisible();
  await expect(page.getByTestId('record-details').locator('[data-field=contact_ids]')).toContainText(
    `Carla Contact${stamp}`,
  );

  await page.goto(`/sites?filter=${encodeURIComponent(JSON.stringify({ q: `Pairdel` }))}`);
  await expect(page.getByText(/Displaying 1 to 2 of 2/)).toBeVisible();
  await page
    .getByRole('row')
    .filter({ hasText: `Pairdel A ${stamp}` })
    .getByRole('checkbox')
    .check();
  await page
    .getByRole('row')
    .filter({ hasText: `Pairdel B ${stamp}` })
    .getByRole('checkbox')
    .check();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('2 sites deleted successfully.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: `Pairdel A ${stamp}` })).toHaveCount(0);
});
