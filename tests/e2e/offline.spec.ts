/**
 * Offline field work (issue 17 point 4, docs/offline.md) on a phone: after a first visit the app opens with no
 * connection (the service worker's cached shell); two visits and a note captured offline wait in the outbox (the top
 * bar says so), and are sent once each when the connection returns; a site changed by someone else meanwhile is
 * offered for resolution instead of being overwritten.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { Api, openInApp, signIn } from './support';

test.use({ viewport: { width: 390, height: 844 }, serviceWorkers: 'allow' });
test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString().slice(-6);
const site = { id: 0, name: `Offline Yard ${stamp}` };
let admin: Api;
let organizer: { id: number; email: string; password: string };

test.beforeAll(async () => {
  admin = await Api.signIn();
  site.id = (
    await admin.post<{ data: { id: number } }>('/api/sites', {
      name: site.name,
      type: 'union',
      city: 'Boise',
      state: 'ID',
    })
  ).data.id;
  organizer = await admin.createUser('user', 'Odile', `Offline${stamp}`);
});
test.afterAll(async () => {
  await admin.dispose();
});

const indicator = (page: Page) => page.getByTestId('offline-indicator');

/** Signed in, with the service worker installed and in control of the page, and the screens used offline opened once. */
async function readyForOffline(page: Page, screens: string[]) {
  await signIn(page, { user: organizer });
  await expect(page.getByTestId('greeting')).toBeVisible();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // A page becomes controlled by a worker installed after it loaded through clientsClaim; a load makes sure.
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  for (const path of screens) await openInApp(page, path);
}

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
}

const logVisitPath = () => `/visits/create?source=${encodeURIComponent(JSON.stringify({ site_id: site.id }))}`;

async function logVisit(page: Page, notes: string) {
  await openInApp(page, logVisitPath());
  await expect(page.getByTestId('page-heading')).toHaveText('Log a visit');
  await page.getByLabel('Notes').fill(notes);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(new RegExp(`/sites/${site.id}/show`));
}

test('with no connection: the app opens from the cache, two visits and a note wait, then are sent once each', async ({
  page,
  context,
}) => {
  await readyForOffline(page, [
    `/sites/${site.id}/show?tab=visits`,
    logVisitPath(),
    `/sites/${site.id}/show?tab=notes`,
    '/offline-sites',
  ]);
  await goOffline(context, page);

  // The app shell loads from the service worker's cache, as the person last signed in here.
  await page.reload();
  await expect(page.getByTestId('open-drawer')).toBeVisible({ timeout: 20_000 });
  await expect(indicator(page)).toHaveText(/offline/i);

  await logVisit(page, `Gate talk ${stamp}`);
  await expect(indicator(page)).toHaveText(/offline, 1 waiting/i);
  await logVisit(page, `Lunch break ${stamp}`);
  await expect(page.getByTestId('visits-waiting')).toHaveText(/2 visits saved on this device/);

  await openInApp(page, `/sites/${site.id}/show?tab=notes`);
  await page.getByLabel('New note').fill(`Foreman asked us to leave ${stamp}`);
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByTestId('note-waiting')).toContainText(`Foreman asked us to leave ${stamp}`);
  await expect(indicator(page)).toHaveText(/offline, 3 waiting/i);
  // Announced to screen readers, and a keyboard opens the list of what waits.
  await expect(page.getByRole('status').filter({ has: indicator(page) })).toHaveAttribute('aria-live', 'polite');
  await indicator(page).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('outbox-waiting').getByRole('listitem')).toHaveCount(3);
  await page.keyboard.press('Escape');

  await context.setOffline(false);
  await expect(indicator(page)).toHaveCount(0, { timeout: 20_000 });

  const visits = await admin.get<{ data: Array<{ notes: string }> }>(
    `/api/visits?filter=${encodeURIComponent(JSON.stringify({ site_id: site.id }))}&per_page=100`,
  );
  expect(visits.data.map((visit) => visit.notes).sort()).toEqual([`Gate talk ${stamp}`, `Lunch break ${stamp}`]);
  const notes = await admin.get<{ data: Array<{ body: string }> }>(
    `/api/notes?filter=${encodeURIComponent(JSON.stringify({ notable_type: 'site', notable_id: site.id }))}&per_page=100`,
  );
  expect(notes.data.map((note) => note.body)).toEqual([`Foreman asked us to leave ${stamp}`]);

  // On the site page: the visits in its history.
  await openInApp(page, `/sites/${site.id}/show?tab=visits`);
  await expect(page.getByTestId('visit-history-item')).toHaveCount(2);
});

test('a site changed by someone else meanwhile is offered for resolution, and the choice is saved once', async ({
  page,
  context,
}) => {
  await readyForOffline(page, [`/sites/${site.id}/show`, `/sites/${site.id}`]);
  await goOffline(context, page);
  const name = page.getByRole('textbox', { name: 'Name', exact: true });
  await expect(name).toHaveValue(site.name);
  await name.fill(`Offline Yard North ${stamp}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(indicator(page)).toHaveText(/offline, 1 waiting/i);

  // Meanwhile someone else renames the site.
  const current = await admin.get<{ data: { updated_at: string } }>(`/api/sites/${site.id}`);
  await admin.post(`/api/sites/${site.id}`, {
    name: `Offline Yard South ${stamp}`,
    city: 'Nampa',
    updated_at: current.data.updated_at,
  });

  await context.setOffline(false);
  await expect(indicator(page)).toHaveText(/1 to resolve/i, { timeout: 20_000 });
  await indicator(page).click();
  await page.getByRole('button', { name: 'Resolve' }).click();
  const dialog = page.getByTestId('conflict-dialog');
  await expect(dialog.getByRole('heading', { name: 'Someone else changed this record' })).toBeVisible();
  const row = dialog.getByTestId('conflict-field');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`Offline Yard North ${stamp}`);
  await expect(row).toContainText(`Offline Yard South ${stamp}`);
  await dialog.getByRole('button', { name: 'Keep mine' }).click();
  await expect(indicator(page)).toHaveCount(0, { timeout: 20_000 });

  // Mine is saved once, over theirs; their other change stays.
  const saved = await admin.get<{ data: { name: string; city: string } }>(`/api/sites/${site.id}`);
  expect(saved.data).toMatchObject({ name: `Offline Yard North ${stamp}`, city: 'Nampa' });
  const history = await admin.get<{ data: Array<{ action: string; changes: Record<string, unknown> }> }>(
    `/api/revisions?type=site&revisionable_id=${site.id}&per_page=100`,
  );
  expect(
    history.data.filter(
      (revision) => revision.action === 'updated' && JSON.stringify(revision.changes).includes('Offline Yard North'),
    ),
  ).toHaveLength(1);
});
