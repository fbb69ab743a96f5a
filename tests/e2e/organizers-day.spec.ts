/**
 * The organizer's day on a phone (issue 36): log a conversation in two taps; the task form's button in view at 1280 px;
 * no map errors leaving the map at 390 px. Set up through the API.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, openInApp, signIn } from './support';

let api: Api;
let organizer: { id: number; email: string; password: string };
const stamp = Date.now().toString().slice(-6);
const ids: Record<string, number> = {};

test.beforeAll(async () => {
  api = await Api.signIn();
  organizer = await api.createUser('user', 'Dayna', `Organizer${stamp}`);
  ids.contact = (
    await api.post<{ data: { id: number } }>('/api/contacts', {
      first_name: 'Rosa',
      last_name: `Twotap${stamp}`,
      phone: '555-0110',
    })
  ).data.id;
});
test.afterAll(async () => {
  await api.dispose();
});

/** Counts the clicks and taps the page receives from now on. */
async function countTaps(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { taps: number }).taps = 0;
    document.addEventListener('click', () => (window as unknown as { taps: number }).taps++, { capture: true });
  });
  return () => page.evaluate(() => (window as unknown as { taps: number }).taps);
}

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('log a conversation in two taps from the person, and see it on their timeline', async ({ page }) => {
    await signIn(page, { user: organizer });
    await expect(page.getByTestId('greeting')).toBeVisible();
    await openInApp(page, `/contacts/${ids.contact}/show?tab=timeline`);
    await expect(page.getByTestId('person-timeline')).toBeVisible();
    const taps = await countTaps(page);
    await page.getByTestId('log-conversation-button').click();
    const dialog = page.getByTestId('log-conversation');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Reached' }).click();
    await expect(dialog).toBeHidden();
    expect(await taps()).toBe(2);
    const entry = page.getByTestId('timeline-entry').first();
    await expect(entry).toContainText('Call');
    await expect(entry).toContainText('Reached');
    await expect(entry).toContainText(`Dayna Organizer${stamp}`);

    // With a next step for later: more taps, and the task appears on the person's Tasks tab.
    await page.getByTestId('log-conversation-button').click();
    await dialog.getByRole('button', { name: 'Text' }).click();
    await dialog.getByTestId('conversation-more').click();
    await dialog.getByLabel('Notes').fill('Asked about the meeting on Thursday');
    await dialog.getByLabel('Next step').fill(`Drive Rosa to the meeting ${stamp}`);
    await dialog.getByRole('button', { name: 'Left a message' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('timeline-entry').first()).toContainText('Asked about the meeting on Thursday');
    await openInApp(page, `/contacts/${ids.contact}/show?tab=tasks`);
    await expect(page.getByTestId('tasks')).toContainText(`Drive Rosa to the meeting ${stamp}`);
  });

  test('leaving the map, even in the middle of a zoom, logs no map error', async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await signIn(page, { user: organizer });
    await expect(page.getByTestId('greeting')).toBeVisible();
    for (let round = 0; round < 3; round++) {
      await openInApp(page, '/map');
      await expect(page.getByTestId('map-page')).toBeVisible();
      await page.locator('.leaflet-control-zoom-in').click();
      await openInApp(page, '/');
      await page.waitForTimeout(400);
    }
    expect(errors.filter((text) => /_leaflet_pos|leaflet/i.test(text))).toEqual([]);
  });
});

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the task form on a record shows its Add task button whole, and offers an assignee', async ({ page }) => {
    await signIn(page, { user: organizer });
    await expect(page.getByTestId('greeting')).toBeVisible();
    await openInApp(page, `/contacts/${ids.contact}/show?tab=tasks`);
    const form = page.getByTestId('task-form');
    const button = form.getByRole('button', { name: 'Add task' });
    await expect(button).toBeVisible();
    const [formBox, buttonBox] = [await form.boundingBox(), await button.boundingBox()];
    expect(buttonBox!.x + buttonBox!.width).toBeLessThanOrEqual(formBox!.x + formBox!.width + 1);
    const card = page.locator('.MuiCardContent-root').filter({ has: form }).first();
    const cardBox = await card.boundingBox();
    expect(buttonBox!.x + buttonBox!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width);
    await expect(form.getByLabel('Assignee')).toHaveValue(`Dayna Organizer${stamp}`);
  });
});
