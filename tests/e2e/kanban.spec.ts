/**
 * The kanban layout (issue 32 point 4, docs/views.md "Layouts"): an administrator keeps a board of sites by type as a
 * view shared with a role that may edit non-union and organizing sites only. A person of that role opens it: a card
 * dragged (at 1280 px) or moved with Ctrl+→ (at 390 px) from Non-Union to Organizing is saved; one moved on to Pending,
 * a category their role may not edit, is refused with the server's reason and snaps back. The board's columns come
 * in one request (GET /api/records/sites/board), none read on its own, and the list under it reads no rows.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
const stamp = Date.now().toString().slice(-6);
let person: { email: string; password: string };
let viewId = 0;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  api = await Api.signIn();
  // An organizer's permissions, but sites editable in two categories only.
  const roles = await api.get<{ data: Array<{ slug: string; permissions: string[] }> }>('/api/roles?per_page=-1');
  const organizer = roles.data.find((role) => role.slug === 'user')!;
  const roleSlug = `kanban-${stamp}`;
  const role = await api.post<{ data: { id: number } }>('/api/roles', {
    slug: roleSlug,
    name: `Kanban movers ${stamp}`,
    permissions: [
      ...organizer.permissions.filter((permission) => !permission.startsWith('site:update')),
      'site:update:non-union',
      'site:update:organizing',
    ],
  });
  person = await api.createUser(roleSlug, 'Kim', `Kanban${stamp}`);
  viewId = (
    await api.post<{ data: { id: number } }>('/api/views', {
      name: `Board ${stamp}`,
      record_type: 'site',
      layout: 'kanban',
      settings: { field: 'type' },
      filters: { all: [{ field: 'name', op: 'contains', value: `K${stamp}` }] },
      role_ids: [role.data.id],
    })
  ).data.id;
});

test.afterAll(async () => {
  await api.dispose();
});

const column = (page: Page, value: string) => page.getByTestId(`kanban-column-${value}`);
const card = (lane: Locator, name: string) => lane.getByTestId('kanban-card').filter({ hasText: name });

/** A mouse drag of `from` onto `to`, in small steps (dnd-kit starts a drag after 6 px). */
async function drag(page: Page, from: Locator, to: Locator) {
  const a = (await from.getByTestId('kanban-handle').boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 10, a.y + a.height / 2, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + 40, { steps: 12 });
  await page.mouse.up();
}

async function typeOf(name: string) {
  const found = await api.get<{ data: Array<{ type: string }> }>(`/api/sites?search=${encodeURIComponent(name)}`);
  return found.data[0]?.type;
}

for (const width of [1280, 390]) {
  test(`a card moves to another column and a move the role refuses snaps back, at ${width} px`, async ({ browser }) => {
    const first = `Mover K${stamp} ${width}`;
    const second = `Stayer K${stamp} ${width}`;
    await api.post('/api/sites', { name: first, type: 'non-union' });
    await api.post('/api/sites', { name: second, type: 'organizing' });
    const page = await browser.newPage({ viewport: { width, height: width > 500 ? 900 : 844 } });
    const reads: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/sites' || url.pathname === '/api/records/sites/board')
        reads.push(`${url.pathname}?per_page=${url.searchParams.get('per_page')}`);
    });
    await signIn(page, { user: person, at: `/sites?view=${viewId}` });
    const nonUnion = column(page, 'non-union');
    const organizing = column(page, 'organizing');
    const pending = column(page, 'pending');
    await nonUnion.scrollIntoViewIfNeeded();
    await expect(card(nonUnion, first)).toBeVisible();
    await expect(organizing.getByTestId('kanban-count')).toHaveText(width > 500 ? '1' : '3'); // the 1280 px run left its two here
    // Every column's first page and count came in one request, none of them read on its own.
    // (The realtime connection's catch-up may read the board once more; the offline copy reads 1,000 sites.)
    expect(reads).toContain('/api/records/sites/board?per_page=50');
    expect(reads.filter((read) => read.startsWith('/api/sites?') && read !== '/api/sites?per_page=1000')).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`kanban-${width}.png`) });

    // Accepted: Non-Union → Organizing.
    if (width > 500) await drag(page, card(nonUnion, first), organizing);
    else {
      await card(nonUnion, first).focus();
      await page.keyboard.press('Control+ArrowRight');
    }
    await expect(card(organizing, first)).toBeVisible();
    await expect(page.getByText(/updated successfully/).first()).toBeVisible();
    await expect.poll(() => typeOf(first)).toBe('organizing');

    // Refused: Organizing → Pending (the role may not edit pending sites): the server's reason, the card back.
    await pending.scrollIntoViewIfNeeded();
    if (width > 500) await drag(page, card(organizing, second), pending);
    else {
      await card(organizing, second).focus();
      await page.keyboard.press('Control+ArrowRight');
    }
    await expect(page.getByText('You do not have permission to update sites.')).toBeVisible();
    await expect(card(organizing, second)).toBeVisible();
    await expect(card(pending, second)).toHaveCount(0);
    expect(await typeOf(second)).toBe('organizing');
    await page.screenshot({ path: test.info().outputPath(`kanban-refused-${width}.png`) });
    await page.close();
  });
}
