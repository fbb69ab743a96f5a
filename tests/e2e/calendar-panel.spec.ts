/**
 * The calendar's side panel, end resizing, hour grid and URL (issue 32 point 4, docs/views.md "Calendar"), on a record
 * type made in the app with a start and end pair of dates and a date-time. At 1280 and 390 px: an event's end is
 * dragged (1280) or moved with Ctrl+Shift+→ (390) to a later day and saved; its name opens the record in the side
 * panel; the mode and the month are kept in the URL over a reload. At 1280 px a week by the date-time is an hour grid
 * and an event dropped on another hour is saved at that hour; at 390 px that week is a list of days.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { Api, dayOfThisMonth, dragEvent, signIn } from './support';

let api: Api;
const stamp = Date.now().toString().slice(-6);
let resource = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  api = await Api.signIn();
  const schema = await api.post<{ data: { resource: string } }>('/api/schemas', {
    name_singular: `Outing ${stamp}`,
    name_plural: `Outings ${stamp}`,
    fields: [
      { name: 'Starts', type: 'date' },
      { name: 'Ends', type: 'date' },
      { name: 'Meets at', type: 'datetime' },
    ],
  });
  resource = schema.data.resource;
});

test.afterAll(async () => {
  await api.dispose();
});

const day = (page: Page, key: string) => page.getByTestId(`calendar-day-${key}`);
const event = (scope: Locator, name: string) => scope.getByTestId('calendar-event').filter({ hasText: name });

async function read(id: number) {
  return (await api.get<{ data: Record<string, string | null> }>(`/api/${resource}/${id}`)).data;
}

for (const width of [1280, 390]) {
  test(`an event's end is resized, its record opens in the side panel, the month stays in the URL, at ${width} px`, async ({
    browser,
  }) => {
    const name = `Picnic ${stamp} ${width}`;
    const [from, until] = width > 500 ? [3, 4] : [17, 18];
    const later = dayOfThisMonth(width > 500 ? until + 2 : until + 1);
    const created = await api.post<{ data: { id: number } }>(`/api/${resource}`, {
      name,
      starts: dayOfThisMonth(from),
      ends: dayOfThisMonth(until),
    });
    const page = await browser.newPage({ viewport: { width, height: width > 500 ? 900 : 844 } });
    await signIn(page, { at: `/${resource}?layout=calendar&by=starts&end=ends` });
    const last = day(page, dayOfThisMonth(until));
    await expect(event(last, name)).toBeVisible({ timeout: 30_000 });

    if (width > 500) await dragEvent(page, event(last, name).getByTestId('calendar-event-end'), day(page, later));
    else {
      await event(last, name).focus();
      await page.keyboard.press('Control+Shift+ArrowRight');
    }
    await expect(page.getByText(/updated successfully/).first()).toBeVisible();
    await expect(event(day(page, later), name)).toBeVisible();
    await expect.poll(async () => (await read(created.data.id)).ends?.slice(0, 10)).toBe(later);
    expect((await read(created.data.id)).starts?.slice(0, 10)).toBe(dayOfThisMonth(from));

    // The name opens the record in the side panel, over the calendar; "Open the full page" goes to it.
    await event(last, name).getByRole('link').click();
    const panel = page.getByRole('dialog', { name });
    await expect(panel).toBeVisible();
    await expect(panel.getByText('Ends')).toBeVisible();
    await expect(page).toHaveURL(/layout=calendar/);
    await page.screenshot({ path: test.info().outputPath(`calendar-panel-${width}.png`) });
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(panel).toHaveCount(0);

    // The mode and the month shown are in the URL, and a reload shows them again.
    const next = new Date();
    next.setDate(1);
    next.setMonth(next.getMonth() + 1);
    const title = next.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
    await page.getByRole('button', { name: 'Next month' }).click();
    await expect(page.getByTestId('calendar-title')).toHaveText(title);
    await page.getByRole('button', { name: 'Agenda' }).click();
    await expect(page).toHaveURL(/mode=agenda/);
    await expect(page.getByTestId('calendar-title')).toHaveText(title);
    await page.reload();
    await expect(page.getByTestId('calendar-title')).toHaveText(title);
    await expect(page.getByRole('button', { name: 'Agenda' })).toHaveAttribute('aria-pressed', 'true');
    await page.close();
  });

  test(`a week by a date-time is an hour grid wider than a phone, at ${width} px`, async ({ browser }) => {
    const name = `Standup ${stamp} ${width}`;
    const key = dayOfThisMonth(10);
    const [year, month] = key.split('-').map(Number);
    const created = await api.post<{ data: { id: number } }>(`/api/${resource}`, {
      name,
      meets_at: new Date(year, month - 1, 10, 9, 30).toISOString(),
    });
    const page = await browser.newPage({ viewport: { width, height: width > 500 ? 900 : 844 } });
    await signIn(page, { at: `/${resource}?layout=calendar&by=meets_at&mode=week&date=${key}` });
    if (width < 500) {
      await expect(event(day(page, key), name)).toContainText('09:30', { timeout: 30_000 });
      await expect(page.getByTestId('calendar-hours')).toHaveCount(0);
      await page.close();
      return;
    }
    const nine = page.getByTestId(`calendar-hour-${key}-9`);
    await expect(event(nine, name)).toBeVisible({ timeout: 30_000 });
    const two = page.getByTestId(`calendar-hour-${key}-14`);
    await two.scrollIntoViewIfNeeded();
    await dragEvent(page, event(nine, name), two);
    await expect(event(two, name)).toBeVisible();
    await expect
      .poll(async () => {
        const moved = new Date((await read(created.data.id)).meets_at!);
        return [moved.getDate(), moved.getHours(), moved.getMinutes()];
      })
      .toEqual([10, 14, 30]);
    await page.screenshot({ path: test.info().outputPath(`calendar-hours-${width}.png`) });
    await page.close();
  });
}
