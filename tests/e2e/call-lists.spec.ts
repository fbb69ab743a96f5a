/**
 * Call lists on a phone (issue 36, the phone bank): an organizer filters the contacts, makes a call list of them with
 * a script, and works three people: the phone, the script, an outcome each, and the next person. Set up through the API.
 */
import { expect, test } from '@playwright/test';
import { Api, openInApp, signIn } from './support';

let api: Api;
let organizer: { id: number; email: string; password: string };
const stamp = Date.now().toString().slice(-6);
const family = `Dialed${stamp}`;

test.beforeAll(async () => {
  api = await Api.signIn();
  organizer = await api.createUser('user', 'Cal', `Caller${stamp}`);
  for (const [first, phone] of [
    ['Ada', '555-0141'],
    ['Bo', '555-0142'],
    ['Cy', '555-0143'],
  ])
    await api.post('/api/contacts', { first_name: first, last_name: family, phone });
});
test.afterAll(async () => {
  await api.dispose();
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('make a call list from the filtered contacts and work three people of it', async ({ page }) => {
    await signIn(page, { user: organizer });
    await expect(page.getByTestId('greeting')).toBeVisible();
    await openInApp(page, `/contacts?filter=${encodeURIComponent(JSON.stringify({ q: family }))}`);
    await expect(page.getByText(`Ada ${family}`).first()).toBeVisible();
    await page.getByRole('button', { name: 'Call list' }).click();
    const dialog = page.getByRole('dialog', { name: 'Make a call list' });
    await expect(dialog).toContainText('The 3 contacts this list shows now');
    await dialog.getByLabel('Name').fill(`Phone bank ${stamp}`);
    await dialog.getByLabel('Script').fill('Hi, this is Cal from the union. Can we count on you Thursday?');
    await dialog.getByRole('button', { name: 'Start calling' }).click();

    await expect(page.getByRole('heading', { name: `Phone bank ${stamp}` })).toBeVisible();
    await expect(page.getByText('0 of 3 contacts called')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Script' })).toContainText('Can we count on you Thursday?');
    const called: string[] = [];
    for (const outcome of ['Reached', 'Wrong number', 'Refused']) {
      const card = page.getByRole('region', { name: /^Calling / });
      await expect(card.getByRole('link', { name: /555-014/ })).toBeVisible();
      const name = (await card.getByRole('heading').innerText()).trim();
      expect(called).not.toContain(name);
      called.push(name);
      if (outcome === 'Reached') await page.getByLabel('Notes').fill('Coming Thursday with two co-workers');
      await page.getByRole('button', { name: outcome, exact: true }).click();
      await expect(page.getByText(`${called.length} of 3 contacts called`)).toBeVisible();
    }
    const finished = page.getByRole('status').filter({ hasText: 'Everyone on this list has been called.' });
    await expect(finished).toContainText('Reached: 1 · Wrong number: 1 · Refused: 1');
    // Nothing runs off the side of the phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // The lists page shows the list done.
    await openInApp(page, '/call-lists');
    await expect(page.getByRole('region', { name: `Phone bank ${stamp}` })).toContainText('3 of 3 contacts called');
  });
});
