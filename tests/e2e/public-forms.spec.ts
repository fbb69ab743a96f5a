/**
 * An authorization card signed on the public page (issue 36 point 5) at a phone's width, with the keyboard alone: the
 * page loads none of the app (under 100 KB of script), the card is confirmed with the code a fake SMS provider on
 * loopback received, and only then counts toward the campaign; the receipt is a PDF.
 */
import { expect, test } from '@playwright/test';
import { startFakeSmsProvider } from './fake-sms-provider';
import { Api, axeViolations } from './support';

let api: Api;
let provider: Awaited<ReturnType<typeof startFakeSmsProvider>> | undefined;
let texts: URLSearchParams[] = [];
const stamp = Date.now().toString().slice(-6);
const slug = `card-${stamp}`;
let campaignId: number;

test.beforeAll(async () => {
  provider = await startFakeSmsProvider();
  texts = provider.texts;
  api = await Api.signIn();
  campaignId = (
    await api.post<{ data: { id: number } }>('/api/campaigns', { name: `Harbor drywall ${stamp}`, unit_size: 20 })
  ).data.id;
  await api.post('/api/public-forms', {
    title: 'Harbor drywall card',
    slug,
    kind: 'card',
    campaign_id: campaignId,
    consent_text: 'I authorize the union to represent me in collective bargaining with my employer.',
    thank_you: 'Your card is confirmed. Thank you for standing together!',
  });
});

test.afterAll(async () => {
  await api?.dispose();
  await provider?.close();
});

const cards = async () =>
  (await api.get<{ data: { progress: { cards: number } } }>(`/api/campaigns/${campaignId}`)).data.progress.cards;

test('a worker signs a card at 390 px with the keyboard alone and confirms it with the texted code', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`/f/${slug}`);
  await expect(page.getByRole('heading', { name: 'Harbor drywall card' })).toBeVisible();

  // The page's own script only: none of the app.
  const scriptBytes = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => entry.name.endsWith('.js'))
      .reduce((sum, entry) => sum + entry.decodedBodySize, 0),
  );
  expect(scriptBytes).toBeGreaterThan(0);
  expect(scriptBytes).toBeLessThan(100_000);
  expect(await axeViolations(page, 'public card form')).toEqual([]);

  // The heading has focus: Tab walks the fields in order.
  for (const value of ['Marisol Vega', 'Harbor Drywall Inc', 'Drywall finisher', '', '(555) 010-0300']) {
    await page.keyboard.press('Tab');
    if (value) await page.keyboard.type(value);
  }
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('I have read the text above and I agree to it.')).toBeFocused();
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Signature: type your full name')).toBeFocused();
  await page.keyboard.type('Marisol Vega');
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Confirm your card' })).toBeVisible();
  await expect.poll(() => texts.length).toBeGreaterThan(0);
  const text = texts.at(-1)!;
  expect(text.get('To')).toBe('+15550100300');
  const code = /(\d{6})/.exec(text.get('Body') ?? '')![1];
  expect(await cards()).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Code from the text')).toBeFocused();
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  await expect(page.getByText('Your card is confirmed. Thank you for standing together!')).toBeVisible();
  expect(await cards()).toBe(1);

  const receipt = page.getByRole('link', { name: 'Download your card (PDF)' });
  const response = await page.request.get((await receipt.getAttribute('href'))!);
  expect(response.headers()['content-type']).toBe('application/pdf');
  expect((await response.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await context.close();
});
