/**
 * Reordering a kanban's cards within a column (issue 32 point 4, docs/views.md "Kanban"): a record type made in the
 * app with a Stage dropdown and a Place number, its board by Stage ordered by Place (`rank=place`). At 1280 px a card
 * is dragged above the first; at 390 px one is moved down with Ctrl+↓. The new order shows, stays after a reload and
 * is the server's (the list sorted by Place).
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
const stamp = Date.now().toString().slice(-6);
let resource = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  api = await Api.signIn();
  const schema = await api.post<{ data: { resource: string } }>('/api/schemas', {
    name_singular: `Chore ${stamp}`,
    name_plural: `Chores ${stamp}`,
    fields: [
      {
        name: 'Stage',
        type: 'dropdown',
        required: true,
        options: { choices: ['todo', 'doing', 'done'].map((value) => ({ value, label: value })) },
      },
      { name: 'Place', type: 'number', options: { format: 'integer' } },
    ],
  });
  resource = schema.data.resource;
  for (const stage of ['todo', 'doing'])
    for (const name of ['Alpha', 'Bravo', 'Charlie'])
      await api.post(`/api/${resource}`, { name: `${name} ${stage}`, stage });
});

test.afterAll(async () => {
  await api.dispose();
});

const names = (lane: Locator) => lane.getByTestId('kanban-card').getByRole('link').allTextContents();

async function serverOrder(stage: string) {
  const found = await api.get<{ data: Array<{ name: string }> }>(
    `/api/${resource}?filter[stage]=${stage}&sort=place&order=asc&per_page=10`,
  );
  return found.data.map((record) => record.name);
}

/** A mouse drag of `from`'s handle to just inside the top of `to`, in small steps (dnd-kit starts after 6 px). */
async function dragAbove(page: Page, from: Locator, to: Locator) {
  const a = (await from.getByTestId('kanban-handle').boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 - 10, { steps: 3 });
  await page.mouse.move(a.x + a.width / 2, b.y + 4, { steps: 12 });
  await page.mouse.up();
}

for (const [width, stage] of [
  [1280, 'todo'],
  [390, 'doing'],
] as const) {
  test(`a card is reordered within its column and the order is kept, at ${width} px`, async ({ browser }) => {
    const page = await browser.newPage({ viewport: { width, height: width > 500 ? 900 : 844 } });
    await signIn(page, { at: `/${resource}?layout=kanban&by=stage&rank=place` });
    const lane = page.getByTestId(`kanban-column-${stage}`);
    await lane.scrollIntoViewIfNeeded();
    await expect(lane.getByTestId('kanban-card')).toHaveCount(3);
    const [first, second, third] = await names(lane);
    const card = (name: string) => lane.getByTestId('kanban-card').filter({ hasText: name });

    let expected: string[];
    if (width > 500) {
      await dragAbove(page, card(third), card(first));
      expected = [third, first, second];
    } else {
      await card(first).focus();
      await page.keyboard.press('Control+ArrowDown');
      expected = [second, first, third];
    }
    await expect(page.getByText(/moved to place/)).toBeVisible();
    await expect.poll(() => names(lane)).toEqual(expected);
    await expect.poll(() => serverOrder(stage)).toEqual(expected);
    await page.screenshot({ path: test.info().outputPath(`kanban-order-${width}.png`) });

    await page.reload();
    await expect(lane.getByTestId('kanban-card')).toHaveCount(3);
    expect(await names(lane)).toEqual(expected);
    await page.close();
  });
}
