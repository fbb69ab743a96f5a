/**
 * A sign-up on the public page with a link field (issue 36 point 5, docs/public-forms.md "Links to other records"):
 * at a phone's width a worker types part of their employer's name, picks it among the names the form offers (a
 * saved view of union contractors: a non-union one is never offered), and sends the form; the contact is written
 * with that contractor. The page stays under its script budget.
 */
import { expect, test } from '@playwright/test';
import { Api, axeViolations, signIn } from './support';

let api: Api;
const stamp = Date.now().toString().slice(-6);
const slug = `sign-up-${stamp}`;
const contractors: Record<string, number> = {};

test.beforeAll(async () => {
  api = await Api.signIn();
  for (const [name, type] of [
    [`Quarry Drywall ${stamp}`, 'union'],
    [`Quarry Roofing ${stamp}`, 'non-union'],
  ])
    contractors[name] = (await api.post<{ data: { id: number } }>('/api/contractors', { name, type })).data.id;
  const view = await api.post<{ data: { id: number } }>('/api/views', {
    name: `Union contractors ${stamp}`,
    record_type: 'contractor',
    filters: { all: [{ field: 'type', op: 'eq', value: 'union' }] },
  });
  await api.post('/api/public-forms', {
    title: 'Join the drywall committee',
    slug,
    kind: 'record',
    record_type: 'contact',
    fields: ['first_name', 'last_name', 'contractor_id'],
    offers: { contractor_id: { view_id: view.data.id } },
    thank_you: 'Thanks! An organizer will call you this week.',
  });
});

test.afterAll(async () => {
  await api?.dispose();
});

test('a worker picks their employer by name at 390 px and sends the form', async ({ browser }, info) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`/f/${slug}`);
  await expect(page.getByRole('heading', { name: 'Join the drywall committee' })).toBeVisible();
  const scriptBytes = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => entry.name.endsWith('.js'))
      .reduce((sum, entry) => sum + entry.decodedBodySize, 0),
  );
  expect(scriptBytes).toBeGreaterThan(0);
  expect(scriptBytes).toBeLessThan(100_000);

  await page.getByLabel('First name').fill('Ines');
  await page.getByLabel('Last name').fill(`Linked ${stamp}`);
  const employer = page.getByRole('combobox', { name: 'Employer' });
  await employer.pressSequentially('quarry', { delay: 30 });
  const options = page.getByRole('option');
  // Only the view's contractor: the non-union one is not offered.
  await expect(options).toHaveText([`Quarry Drywall ${stamp}`]);
  await expect(employer).toHaveAttribute('aria-expanded', 'true');
  expect(await axeViolations(page, 'public form with a link field, list open')).toEqual([]);
  await page.screenshot({ path: info.outputPath('link-open-390.png') });
  await employer.press('ArrowDown');
  await employer.press('Enter');
  await expect(employer).toHaveValue(`Quarry Drywall ${stamp}`);
  await expect(employer).toHaveAttribute('aria-expanded', 'false');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Thanks! An organizer will call you this week.')).toBeVisible();
  await page.screenshot({ path: info.outputPath('link-sent-390.png') });

  const found = await api.get<{ data: Array<{ contractor_id: number }> }>(
    `/api/contacts?filter[last_name]=${encodeURIComponent(`Linked ${stamp}`)}`,
  );
  expect(found.data.map((contact) => contact.contractor_id)).toEqual([contractors[`Quarry Drywall ${stamp}`]]);
  await context.close();
});

test('a name typed but not picked is refused beside the field, at 1280 px', async ({ browser }, info) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`/f/${slug}`);
  await page.getByLabel('First name').fill('Omar');
  await page.getByLabel('Last name').fill(`Unpicked ${stamp}`);
  const employer = page.getByRole('combobox', { name: 'Employer' });
  await employer.pressSequentially('quarry roof', { delay: 30 });
  await expect(page.getByText('No name matches: check the spelling, or try fewer letters.')).toBeVisible();
  await page.screenshot({ path: info.outputPath('link-nomatch-1280.png') });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.locator('#field-contractor_id-error')).toHaveText(/^Choose one of the names offered/);
  await expect(employer).toHaveAttribute('aria-invalid', 'true');
  // Said once, beside the field; the alert above the button only points to it.
  await expect(page.getByRole('alert')).toHaveText('Please correct the field marked above.');
  await expect(page.getByText(/^Choose one of the names offered/)).toHaveCount(1);
  await page.screenshot({ path: info.outputPath('link-refused-1280.png') });
  await context.close();
});

test('an administrator chooses, in the form dialog with the keyboard, which names a link field offers', async ({
  browser,
}, info) => {
  const view = await api.post<{ data: { id: number } }>('/api/views', {
    name: `Roofers offered ${stamp}`,
    record_type: 'contractor',
    filters: { all: [{ field: 'type', op: 'eq', value: 'non-union' }] },
  });
  const title = `Roofers sign-up ${stamp}`;
  const form = await api.post<{ data: { id: number } }>('/api/public-forms', {
    title,
    slug: `roofers-${stamp}`,
    kind: 'record',
    record_type: 'contact',
    fields: ['first_name', 'last_name', 'contractor_id'],
    offers: { contractor_id: { view_id: null } },
    thank_you: 'Thanks!',
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signIn(page, { at: '/public-forms' });
  await page.getByRole('region', { name: title }).getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: `Edit "${title}"` });
  const offered = dialog.getByRole('combobox', { name: 'Employer: names offered' });
  await expect(offered).toHaveText('All contractors');
  await offered.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('option', { name: `The view "Roofers offered ${stamp}"` }).focus();
  await page.keyboard.press('Enter');
  await expect(offered).toHaveText(`The view "Roofers offered ${stamp}"`);
  await page.screenshot({ path: info.outputPath('offers-chosen-1280.png') });
  await dialog.getByRole('button', { name: 'Save' }).press('Enter');
  await expect(dialog).toBeHidden();
  const forms = await api.get<{ data: Array<{ id: number; offers: Record<string, { view_id: number | null }> }> }>(
    '/api/public-forms',
  );
  expect(forms.data.find((saved) => saved.id === form.data.id)?.offers).toEqual({
    contractor_id: { view_id: view.data.id },
  });

  // The public page now offers the view's names only: the roofer, not the union drywall firm.
  const visitor = await browser.newPage();
  await visitor.goto(`/f/roofers-${stamp}`);
  await visitor.getByRole('combobox', { name: 'Employer' }).pressSequentially('quarry', { delay: 30 });
  await expect(visitor.getByRole('option')).toHaveText([`Quarry Roofing ${stamp}`]);
  await visitor.close();
  await context.close();
});
