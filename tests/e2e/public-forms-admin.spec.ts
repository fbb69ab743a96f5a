/**
 * Public forms, the administrator's side (issue 36 point 5) at 1280 and 390 px: an administrator publishes a card form
 * for a campaign (the server's refusal shown beside the field first), opens its public link, a worker signs and
 * confirms the card there with the code a fake SMS provider on loopback received, and the administrator sees the
 * confirmed card listed with its receipt. An organizer has no entry in the menu and is told in plain words.
 */
import { expect, type Page, test } from '@playwright/test';
import { startFakeSmsProvider } from './fake-sms-provider';
import { Api, signIn, USER_PASSWORD } from './support';

let api: Api;
let provider: Awaited<ReturnType<typeof startFakeSmsProvider>> | undefined;
let texts: URLSearchParams[] = [];
const stamp = Date.now().toString().slice(-6);
const campaignName = `Bayview drywall ${stamp}`;
const organizer = { email: `forms-organizer-${stamp}@example.com`, password: USER_PASSWORD };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  provider = await startFakeSmsProvider();
  texts = provider.texts;
  api = await Api.signIn();
  await api.post('/api/campaigns', { name: campaignName, unit_size: 20 });
  const roles = await api.get<{ data: Array<{ id: number; slug: string }> }>('/api/roles?per_page=-1');
  await api.post('/api/users', {
    first_name: 'Omar',
    last_name: `Forms${stamp}`,
    email: organizer.email,
    password: USER_PASSWORD,
    role_id: roles.data.find((role) => role.slug === 'user')!.id,
  });
});

test.afterAll(async () => {
  await api?.dispose();
  await provider?.close();
});

async function fitsTheWidth(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

for (const [label, viewport, phone] of [
  ['desktop', { width: 1280, height: 800 }, '(555) 010-0401'],
  ['phone', { width: 390, height: 844 }, '(555) 010-0402'],
] as const) {
  test(`at ${viewport.width} px an administrator publishes a card form and sees the signed card`, async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const title = `Bayview card ${label} ${stamp}`;
    const slug = `bayview-${label}-${stamp}`;
    await signIn(page, { at: '/public-forms' });
    await page.getByRole('button', { name: 'Publish a form' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish a form' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill(title);
    await dialog.getByRole('textbox', { name: 'Address' }).fill(slug);
    await dialog.getByRole('combobox', { name: 'Campaign' }).click();
    await page.getByRole('option', { name: campaignName }).click();
    // No consent text: the server's 422 is shown beside the field, and nothing is published.
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Consent text' })).toHaveAccessibleDescription(
      'Write the consent text people agree to when they sign.',
    );
    await expect(dialog.getByRole('alert')).toHaveText('Some answers need another look: see the fields marked below.');
    await page.screenshot({ path: test.info().outputPath(`publish-dialog-${viewport.width}.png`) });
    await dialog
      .getByRole('textbox', { name: 'Consent text' })
      .fill('I authorize the union to represent me in bargaining with my employer.');
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await expect(dialog).toBeHidden();

    const card = page.getByRole('region', { name: title });
    await expect(card).toContainText(`Authorization card · for ${campaignName} · 0 submissions`);
    await expect(card.getByRole('button', { name: `Copy the link to /f/${slug}` })).toBeVisible();
    await fitsTheWidth(page);
    await page.screenshot({ path: test.info().outputPath(`public-forms-${viewport.width}.png`), fullPage: true });

    // The worker opens the link (no session needed) and signs, then confirms with the texted code.
    const href = await card.getByRole('link', { name: `/f/${slug}` }).getAttribute('href');
    const worker = await context.browser()!.newContext({ viewport });
    const signing = await worker.newPage();
    await signing.goto(href!);
    await signing.getByRole('textbox', { name: /^Full name/ }).fill(`Rosa Quintero ${label}`);
    await signing.getByRole('textbox', { name: /^Employer/ }).fill('Bayview Drywall Inc');
    await signing.getByRole('textbox', { name: /^Job title or trade/ }).fill('Taper');
    await signing.getByRole('textbox', { name: /^Mobile phone/ }).fill(phone);
    await signing.getByLabel('I have read the text above and I agree to it.').check();
    await signing.getByLabel('Signature: type your full name').fill(`Rosa Quintero ${label}`);
    const before = texts.length;
    await signing.getByRole('button', { name: 'Sign my card' }).click();
    await expect(signing.getByRole('heading', { name: 'Confirm your card' })).toBeVisible();
    await expect.poll(() => texts.length).toBeGreaterThan(before);
    const code = /(\d{6})/.exec(texts.at(-1)!.get('Body') ?? '')![1]!;
    await signing.getByLabel('Code from the text').fill(code);
    await signing.getByLabel('Code from the text').press('Enter');
    await expect(signing.getByRole('heading', { name: 'Thank you' })).toBeVisible();
    await worker.close();

    await page.reload();
    await expect(page.getByRole('region', { name: title })).toContainText('1 submission');
    await page.getByRole('region', { name: title }).getByRole('link', { name: 'Submissions' }).click();
    await expect(page.getByRole('heading', { name: `Submissions: ${title}` })).toBeVisible();
    const row = page.getByRole('list', { name: 'Submissions' }).getByRole('listitem').first();
    await expect(row).toContainText(`Rosa Quintero ${label}`);
    await expect(row).toContainText('Confirmed');
    const receipt = row.getByRole('link', { name: 'Receipt (PDF)' });
    const pdf = await page.request.get((await receipt.getAttribute('href'))!);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    await fitsTheWidth(page);
    await page.screenshot({ path: test.info().outputPath(`submissions-${viewport.width}.png`), fullPage: true });

    // Unpublish, confirmed first: the link stops opening and the signed card stays listed.
    await page.getByRole('link', { name: 'All public forms' }).click();
    await page.getByRole('region', { name: title }).getByRole('button', { name: 'Unpublish' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unpublish' }).click();
    await expect(page.getByRole('region', { name: title })).toContainText('Closed');
    expect((await page.request.get(`/api/public-forms/by-slug/${slug}`)).status()).toBe(404);
  });
}

test('an organizer has no public forms entry and is told so in plain words', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, { user: organizer, at: '/public-forms' });
  await expect(page.getByText("You can't manage public forms. Ask an administrator.")).toBeVisible();
  await expect(page.locator('[data-menu-key=admin-public-forms]')).toHaveCount(0);
  expect((await page.request.get('/api/public-forms')).status()).toBe(403);
  await page.screenshot({ path: test.info().outputPath('public-forms-organizer-390.png') });
});
