/**
 * Texting a list (issue 36 point 4) at 1280 px: an administrator filters the contacts, writes one text with a merge
 * field and sends it to the people the list shows. The texts reach a fake Twilio-compatible provider on loopback
 * (a real HTTP receiver this spec starts on SMS_PROVIDER_PORT, where the e2e server sends texts), each with its own
 * first name and the STOP line; the person whose clock is in the quiet hours gets nothing yet, and the message's page
 * shows each person's copy as sent or waiting. Set up through the API.
 */
import { expect, test } from '@playwright/test';
import { startFakeSmsProvider } from './fake-sms-provider';
import { Api, openInApp, signIn } from './support';

let api: Api;
let provider: Awaited<ReturnType<typeof startFakeSmsProvider>> | undefined;
const stamp = Date.now().toString().slice(-6);
const family = `Texted${stamp}`;

/** A fixed-offset zone where it is now `hour` o'clock (Etc/GMT+n is n hours behind UTC). */
function zoneAt(hour: number): string {
  const behind = (((new Date().getUTCHours() - hour) % 24) + 24) % 24;
  const offset = behind > 12 ? behind - 24 : behind;
  return `Etc/GMT${offset >= 0 ? '+' : '-'}${Math.abs(offset)}`;
}

const people = [
  { first_name: 'Ada', phone: '(555) 010-0601', time_zone: zoneAt(13) },
  { first_name: 'Bo', phone: '(555) 010-0602', time_zone: zoneAt(15) },
  // 03:00 on her clock: inside the quiet hours (21:00-09:00 by default), so her text waits for the morning.
  { first_name: 'Cleo', phone: '(555) 010-0603', time_zone: zoneAt(3) },
];

test.beforeAll(async () => {
  provider = await startFakeSmsProvider();
  api = await Api.signIn();
  // Per-person time zones are a `time_zone` field on the person's type (docs/messages.md).
  const schemas = await api.get<{ data: Array<{ id: number; type: string; fields?: Array<{ slug: string }> }> }>(
    '/api/schemas?per_page=-1',
  );
  const contact = schemas.data.find((schema) => schema.type === 'contact')!;
  if (!contact.fields?.some((field) => field.slug === 'time_zone'))
    await api.post('/api/schema-fields', { schema_id: contact.id, name: 'Time zone', slug: 'time_zone', type: 'text' });
  for (const person of people) await api.post('/api/contacts', { ...person, last_name: family });
});
test.afterAll(async () => {
  await api?.dispose();
  await provider?.close();
});

test('text the filtered contacts with a merge field: each gets their own, quiet hours kept', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page);
  await openInApp(page, `/contacts?filter=${encodeURIComponent(JSON.stringify({ q: family }))}`);
  await expect(page.getByRole('row', { name: new RegExp(`Ada ${family}`) })).toBeVisible();
  await page.getByRole('button', { name: 'Text or email' }).click();
  const dialog = page.getByRole('dialog', { name: 'Text or email 3 contacts' });
  await expect(dialog.getByRole('radio', { name: 'Text message' })).toBeChecked();
  const message = dialog.getByRole('textbox', { name: 'Message' });
  await message.fill('Hi ');
  await dialog.getByRole('button', { name: 'First name' }).click();
  await message.press('End');
  await message.pressSequentially(', the meeting is Thursday at 6.');
  await expect(message).toHaveValue('Hi {{first_name}}, the meeting is Thursday at 6.');
  await dialog.getByRole('button', { name: 'Send' }).click();

  await expect(page).toHaveURL(/\/messages\/\d+$/);
  await expect(page.locator('#main-content').getByRole('heading', { name: 'Text to 3 contacts' })).toBeVisible();
  await expect.poll(() => provider!.texts.filter((text) => text.get('Body')?.includes('Thursday at 6')).length).toBe(2);
  const sent = provider!.texts.filter((text) => text.get('Body')?.includes('Thursday at 6'));
  expect(sent.map((text) => [text.get('To'), text.get('Body')]).sort()).toEqual([
    ['+15550100601', 'Hi Ada, the meeting is Thursday at 6.\nReply STOP to opt out.'],
    ['+15550100602', 'Hi Bo, the meeting is Thursday at 6.\nReply STOP to opt out.'],
  ]);
  expect(sent.every((text) => text.get('From') === '+15550009999')).toBe(true);

  const copies = page.getByRole('table', { name: "Each person's copy" });
  await expect(async () => {
    await page.reload();
    await expect(copies.getByRole('row', { name: new RegExp(`Ada ${family}`) })).toContainText('Sent', {
      timeout: 2_000,
    });
    await expect(copies.getByRole('row', { name: new RegExp(`Bo ${family}`) })).toContainText('Sent', {
      timeout: 2_000,
    });
  }).toPass({ timeout: 30_000 });
  await expect(copies.getByRole('row', { name: new RegExp(`Cleo ${family}`) })).toContainText('Waiting to send');
  await expect(copies).toContainText('(555) 010-0603');
  expect(provider!.texts.some((text) => text.get('To') === '+15550100603')).toBe(false);
  await page.screenshot({ path: test.info().outputPath('text-to-a-list-1280.png') });
});
