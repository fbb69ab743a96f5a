/**
 * The assistant in the browser: opened from the map in the side panel, a question answered by the built-in assistant
 * (streamed over the person's private channel, with a link that opens the record), a task proposed, approved and
 * found under Tasks; and the same at 390 px wide.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
let site: { id: number; name: string };
let contractor: { id: number; name: string };

test.beforeAll(async () => {
  api = await Api.signIn();
  const stamp = Date.now().toString().slice(-6);
  contractor = { name: `Keystone Builders ${stamp}`, id: 0 };
  contractor.id = (
    await api.post<{ data: { id: number } }>('/api/contractors', { name: contractor.name, type: 'union' })
  ).data.id;
  site = { name: `Cedar Tower ${stamp}`, id: 0 };
  site.id = (
    await api.post<{ data: { id: number } }>('/api/sites', {
      name: site.name,
      type: 'union',
      city: 'Oakland',
      latitude: 37.8,
      longitude: -122.27,
      general_contractor_id: contractor.id,
    })
  ).data.id;
});
test.afterAll(async () => {
  await api.dispose();
});

/** Frames of the realtime websocket that carry a piece of an answer being written. */
function streamedPieces(page: Page) {
  const pieces: string[] = [];
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => {
      const text = String(payload);
      if (text.includes('AssistantMessage') && text.includes('streaming')) pieces.push(text);
    });
  });
  return pieces;
}

test('ask from the map, follow the link, approve a proposed task and find it under Tasks', async ({ page }) => {
  test.setTimeout(120_000);
  const organizer = await api.createUser('user', 'Ada', 'Asker');
  const pieces = streamedPieces(page);
  await signIn(page, { user: organizer, at: '/map' });
  await expect(page.getByTestId('map-page')).toBeVisible();

  await page.getByTestId('sidebar').locator('[data-menu-key="assistant"]').click();
  const panel = page.getByRole('dialog', { name: 'Assistant' });
  await expect(panel.getByTestId('assistant-suggestions').getByRole('button').first()).toBeVisible();
  // The page behind stays: the map is still there under the panel.
  await expect(page).toHaveURL(/\/map(\?|$)/);
  await expect(page.getByTestId('map-page')).toBeVisible();

  await panel.getByLabel('Ask the assistant').fill(`Who is the general contractor on ${site.name}?`);
  await panel.getByLabel('Ask the assistant').press('Enter');
  await expect(panel.getByTestId('assistant-question')).toHaveText(`Who is the general contractor on ${site.name}?`);
  const answer = panel.getByTestId('assistant-answer').last();
  await expect(answer).toContainText(`The general contractor of ${site.name} is ${contractor.name}.`);
  expect(pieces.length, 'the answer came in pieces over the private channel').toBeGreaterThan(0);
  await expect(panel.getByTestId('assistant-thread-title')).toHaveText(
    `Who is the general contractor on ${site.name}?`,
  );

  await answer.getByRole('link', { name: site.name }).click();
  await expect(page).toHaveURL(new RegExp(`/sites/${site.id}/show$`));
  await expect(page).toHaveTitle(new RegExp(site.name));
  // On a wide screen the panel stays open over the record; "this" is now that record.
  await expect(panel.getByTestId('assistant-context')).toContainText(site.name);

  await panel.getByLabel('Ask the assistant').fill('Remind me to visit this site on Friday');
  await panel.getByRole('button', { name: 'Send' }).click();
  const card = panel.getByTestId('assistant-proposal');
  await expect(card).toContainText('New task');
  await expect(card).toContainText('Visit this site');
  await expect(card).toContainText('Waiting for you');
  expect(
    (
      await api.get<{ meta: { total: number } }>(
        `/api/tasks?filter=${encodeURIComponent(JSON.stringify({ taskable_type: 'site', taskable_id: site.id }))}`,
      )
    ).meta.total,
  ).toBe(0);
  await card.getByRole('button', { name: 'Approve' }).click();
  await expect(card).toContainText('Approved');
  await expect(page.getByText(/^Done: Create a task: Visit this site/)).toBeVisible();

  await page.getByRole('button', { name: 'Close' }).first().click();
  await page.getByTestId('sidebar').locator('[data-menu-key="tasks"]').click();
  await expect(page.getByText('Visit this site').first()).toBeVisible();
  await expect(page.getByTestId('menu-count-tasks')).toHaveText('1');

  // All conversations, full page: rename, delete, restore.
  await page.goto('/assistant');
  const threads = page.getByTestId('assistant-threads');
  await expect(threads).toContainText(`Who is the general contractor on ${site.name}?`);
  await threads
    .getByRole('button', { name: /^Rename / })
    .first()
    .click();
  await page.getByRole('dialog').getByLabel('Title').fill('Cedar Tower GC');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(threads).toContainText('Cedar Tower GC');
  await threads.getByRole('button', { name: 'Delete Cedar Tower GC' }).click();
  await expect(page.getByText('No conversations yet.')).toBeVisible();
  await page.getByLabel('Deleted').check();
  await threads.getByRole('button', { name: 'Restore Cedar Tower GC' }).click();
  await page.getByLabel('Deleted').uncheck();
  await expect(threads).toContainText('Cedar Tower GC');
  await threads.getByText('Cedar Tower GC').click();
  await expect(page.getByRole('dialog', { name: 'Assistant' }).getByTestId('assistant-answer').first()).toContainText(
    contractor.name,
  );
});

test('at 390 px the panel covers the screen and a link closes it to show the record', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const organizer = await api.createUser('user', 'Mo', 'Mobile');
  await signIn(page, { user: organizer, at: '/map' });
  await page.getByTestId('open-drawer').click();
  await page.getByTestId('nav-drawer').locator('[data-menu-key="assistant"]').click();
  const panel = page.getByRole('dialog', { name: 'Assistant' });
  await expect(panel).toBeVisible();
  // Polled: the panel slides in, and its box is fractional until it has arrived.
  await expect.poll(async () => Math.round((await panel.boundingBox())!.width)).toBe(390);
  await panel.getByLabel('Ask the assistant').fill(`How many union sites are in Oakland?`);
  await panel.getByRole('button', { name: 'Send' }).click();
  const answer = panel.getByTestId('assistant-answer');
  await expect(answer).toContainText(/There (is|are) \*?\*?\d/);
  const widths = await panel.evaluate((node) => ({ scroll: node.scrollWidth, client: node.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  await answer.getByRole('link', { name: site.name }).click();
  await expect(page).toHaveURL(new RegExp(`/sites/${site.id}/show$`));
  await expect(panel).toBeHidden();
  await context.close();
});

test('at 390 px three questions are answered, one read two ways as buttons, and an answer is saved as a view and opens as a list', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const organizer = await api.createUser('user', 'Lu', 'Lister');
  await signIn(page, { user: organizer, at: '/map' });
  await page.getByTestId('open-drawer').click();
  await page.getByTestId('nav-drawer').locator('[data-menu-key="assistant"]').click();
  const panel = page.getByRole('dialog', { name: 'Assistant' });
  await expect(panel).toBeVisible();
  const ask = async (question: string) => {
    await panel.getByLabel('Ask the assistant').fill(question);
    await panel.getByRole('button', { name: 'Send' }).click();
  };
  const answers = panel.getByTestId('assistant-answer');

  await ask(`summarize site ${site.name}`);
  await expect(answers.last()).toContainText(contractor.name);
  await expect(answers.last()).not.toContainText(/\d{4}-\d{2}-\d{2}/);

  await ask('How many union sites are in Oakland with a general contractor?');
  await expect(answers).toHaveCount(2);
  await expect(answers.last()).toContainText(/union sites? in Oakland with a general contractor/i);

  await ask(`sites for ${contractor.name}`);
  await expect(answers).toHaveCount(3);
  const widths = await panel.evaluate((node) => ({ scroll: node.scrollWidth, client: node.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  // The answer's list saved as a view of the person's own, then opened as that view.
  await answers.last().getByRole('button', { name: 'Save as view' }).click();
  const saved = answers.last().getByRole('link', { name: /^Open the view/ });
  await expect(saved).toBeVisible();
  await saved.click();
  await expect(page).toHaveURL(/\/sites\?view=\d+/);
  await expect(panel).toBeHidden();
  await expect(page.getByText(site.name).first()).toBeVisible();
  await page.getByTestId('open-drawer').click();
  await page.getByTestId('nav-drawer').locator('[data-menu-key="assistant"]').click();
  await answers.last().getByRole('link', { name: 'Open the list' }).click();
  await expect(page).toHaveURL(/\/sites\?.*filter=/);
  await expect(panel).toBeHidden();
  await expect(page.getByText(site.name).first()).toBeVisible();
  await context.close();
});
