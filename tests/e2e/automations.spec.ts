/**
 * Automations, webhooks and tokens (issue 34) at a desktop's width and a phone's: an automation
 * made through the API is listed in words and opens; a webhook made on its screen shows its secret once; a token made
 * on the profile page is shown once and listed without it. Nothing may overflow the page sideways at 390 px.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
// A worker started again after a failure runs this file anew: the stamp keeps its records apart.
const stamp = Date.now().toString().slice(-6);

test.beforeAll(async () => {
  api = await Api.signIn();
});
test.afterAll(async () => {
  // The webhooks made here call a host this closed network cannot resolve: left active, every later spec's record
  // changes would queue messages to it, and the job worker would spend minutes on their failing lookups (a bulk edit
  // waited 100 s behind them).
  const webhooks = await api.get<{ data: Array<{ id: number; name: string }> }>('/api/webhooks');
  for (const webhook of webhooks.data.filter((candidate) => candidate.name.endsWith(` ${stamp}`)))
    await api.delete(`/api/webhooks/${webhook.id}`);
  await api.dispose();
});

async function fitsTheWidth(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('an automation is listed in words and opens', async ({ page }) => {
      const name = `Tell the steward ${label} ${stamp}`;
      await api.post('/api/automations', {
        name,
        record_type: 'grievance',
        trigger: { kind: 'created' },
        actions: [{ kind: 'notify', record_owner: true, title: 'A grievance was filed: {{grievance.title}}' }],
      });
      await signIn(page, { at: '/automations' });
      const card = page.getByText(name);
      await expect(card).toBeVisible();
      await fitsTheWidth(page);
      await card.click();
      await expect(page).toHaveURL(/\/automations\/\d+$/);
      await expect(page.getByRole('textbox', { name: 'Name' }).first()).toHaveValue(name);
      await fitsTheWidth(page);
    });

    test('a webhook made on its screen shows its secret once', async ({ page }) => {
      await signIn(page, { at: '/webhooks' });
      const form = page.getByRole('region', { name: 'New webhook' });
      await form.getByRole('textbox', { name: 'Name' }).fill(`Vendor feed ${label} ${stamp}`);
      await form.getByRole('textbox', { name: "Receiver's web address" }).fill('http://127.0.0.1:9/hook');
      await form.getByRole('button', { name: 'Create' }).click();
      await expect(page.getByRole('alert')).toContainText('private network, which webhooks may not call');
      await form.getByRole('textbox', { name: "Receiver's web address" }).fill('https://hooks.example.org/in');
      await form.getByRole('button', { name: 'Create' }).click();
      await expect(page.getByText(/Its signing secret is whsec_\S+: copy it now/)).toBeVisible();
      await expect(page.getByRole('region', { name: `Vendor feed ${label} ${stamp}` })).toBeVisible();
      await fitsTheWidth(page);
      await page.reload();
      await expect(page.getByRole('region', { name: `Vendor feed ${label} ${stamp}` })).toBeVisible();
      await expect(page.getByText(/whsec_/)).toHaveCount(0);
    });

    test('a token is shown once and listed without it', async ({ page }) => {
      await signIn(page, { at: '/settings' });
      await page.getByRole('textbox', { name: 'Token name' }).fill(`Sync script ${label} ${stamp}`);
      await page.getByRole('button', { name: 'Make token' }).click();
      const token = page.getByRole('textbox', { name: 'The new token' });
      await expect(token).toHaveValue(/\S{20,}/);
      const table = page.getByRole('table', { name: 'Your tokens' });
      await expect(table).toContainText(`Sync script ${label} ${stamp}`);
      await fitsTheWidth(page);
      await page.reload();
      await expect(page.getByRole('table', { name: 'Your tokens' })).toContainText(`Sync script ${label} ${stamp}`);
      await expect(page.getByRole('textbox', { name: 'The new token' })).toHaveCount(0);
    });
  });
}
