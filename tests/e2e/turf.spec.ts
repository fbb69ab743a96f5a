/**
 * Turf on a phone (issue 17): an administrator draws a turf on the map, sees how many sites it holds before saving,
 * and assigns it to an organizer whose role reads sites by turf (`site:read:turf`); that organizer then sees only the
 * sites inside it, on the map and in the list. The role, the organizer and the sites are set up through the API.
 */
import { expect, type Page, test } from '@playwright/test';
import { Api, signIn, USER_PASSWORD } from './support';

let api: Api;
// A worker started again after a failure runs this file anew: the stamp keeps its records apart.
const stamp = Date.now().toString().slice(-6);
// Bozeman (inside the turf) and Belgrade, Montana (outside it): places no other test writes sites to.
const INSIDE = { lat: 45.677, lng: -111.043 };
const OUTSIDE = { lat: 45.776, lng: -111.177 };
const THEIRS = { lat: 45.78, lng: -111.18 };
const names = {
  inside: `Bozeman Depot ${stamp}`,
  outside: `Belgrade Mill ${stamp}`,
  // Outside the turf too, but with a task assigned to the organizer: their own work, kept with a note.
  theirs: `Belgrade Yard ${stamp}`,
  turf: `Bozeman turf ${stamp}`,
  role: `turf-e2e-${stamp}`,
};
const organizer = { id: 0, email: `turf-organizer-${stamp}@example.com`, name: `Tara Turf${stamp}` };
// A leader (the seeded role reads every site): a turf does not scope them.
const unscoped = { email: `turf-unscoped-${stamp}@example.com`, name: `Nico Wide${stamp}`, role: '' };

test.use({ viewport: { width: 390, height: 844 } });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  api = await Api.signIn();
  // An organizer as seeded, whose reading of sites is limited to a turf.
  const roles = await api.get<{ data: Array<{ id: number; slug: string; name: string; permissions: string[] }> }>(
    '/api/roles?per_page=-1',
  );
  const seeded = roles.data.find((r) => r.slug === 'user')!.permissions.filter((p) => !p.startsWith('site:read'));
  const role = await api.post<{ data: { id: number } }>('/api/roles', {
    slug: names.role,
    name: `Turf organizer ${stamp}`,
    permissions: [...seeded, 'site:read:turf', 'map:read'],
  });
  organizer.id = (
    await api.post<{ data: { id: number } }>('/api/users', {
      first_name: 'Tara',
      last_name: `Turf${stamp}`,
      email: organizer.email,
      password: USER_PASSWORD,
      role_id: role.data.id,
    })
  ).data.id;
  await api.post('/api/users', {
    first_name: 'Nico',
    last_name: `Wide${stamp}`,
    email: unscoped.email,
    password: USER_PASSWORD,
    role_id: roles.data.find((r) => r.slug === 'leader')!.id,
  });
  unscoped.role = roles.data.find((r) => r.slug === 'leader')!.name;
  for (const [name, at] of [
    [names.inside, INSIDE],
    [names.outside, OUTSIDE],
    [names.theirs, THEIRS],
  ] as const) {
    const site = await api.post<{ data: { id: number } }>('/api/sites', {
      name,
      type: 'union',
      city: 'Gallatin',
      state: 'MT',
      latitude: at.lat,
      longitude: at.lng,
    });
    if (name === names.theirs)
      await api.post('/api/tasks', {
        title: `Call the Belgrade steward ${stamp}`,
        type: 'call',
        taskable_type: 'site',
        taskable_id: site.data.id,
        assignee_id: organizer.id,
      });
  }
});

test.afterAll(async () => {
  await api.dispose();
});

/** Picks a person in the dialog's "Assigned to people" field. */
async function assign(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name: 'Save this turf' });
  await dialog.getByLabel('Assigned to people').fill(name);
  await page.getByRole('option', { name }).click();
}

/** Taps the map at offsets (in pixels) from its centre. */
async function tapMap(page: Page, points: Array<[number, number]>) {
  const box = (await page.locator('.leaflet-container').boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  for (const [dx, dy] of points) {
    await page.mouse.click(cx + dx, cy + dy);
    await page.waitForTimeout(150);
  }
}

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  test('the dialog says whom a turf scopes and how many sites each will see, then is discarded', async ({ page }) => {
    await signIn(page, { at: `/map?lat=${INSIDE.lat}&lng=${INSIDE.lng}&z=14` });
    await expect(page.locator('.leaflet-container')).toBeVisible();
    await page.getByTestId('draw-turf').click();
    await expect(page.getByText('Tap the map to add corners')).toBeVisible();
    await tapMap(page, [
      [-150, -150],
      [150, -150],
      [150, 150],
      [-150, 150],
      [-150, -150],
    ]);
    const dialog = page.getByRole('dialog', { name: 'Save this turf' });
    await expect(dialog.getByTestId('turf-count')).toHaveText('1 site inside');
    await assign(page, organizer.name);
    await assign(page, unscoped.name);
    await expect(dialog.getByTestId('turf-outlook-person')).toHaveCount(2);
    await expect(dialog.getByTestId('turf-outlook-person').filter({ hasText: organizer.name })).toContainText(
      'will see 2 sites (now 1)',
    );
    await expect(dialog.getByTestId('turf-outlook-person').filter({ hasText: unscoped.name })).toContainText(
      'Not scoped',
    );
    await page.screenshot({ path: test.info().outputPath('turf-outlook-1280.png') });
    await dialog.getByRole('button', { name: 'Discard' }).click();
    await expect(dialog).toBeHidden();
  });
});

test('an administrator draws a turf around one site, sees the count, and assigns it to an organizer', async ({
  page,
}) => {
  await signIn(page, { at: `/map?lat=${INSIDE.lat}&lng=${INSIDE.lng}&z=14` });
  await expect(page.locator('.leaflet-container')).toBeVisible();
  await page.getByTestId('draw-turf').click();
  await expect(page.getByText('Tap the map to add corners')).toBeVisible();
  // A square about 240 px across around the site at the centre, closed by tapping the first corner again.
  await tapMap(page, [
    [-120, -120],
    [120, -120],
    [120, 120],
    [-120, 120],
    [-120, -120],
  ]);
  const dialog = page.getByRole('dialog', { name: 'Save this turf' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('turf-count')).toHaveText('1 site inside');
  await dialog.getByLabel('Name').fill(names.turf);
  await assign(page, organizer.name);
  // The dialog says whom the turf scopes and how many sites they will see: the organizer, the one site inside and
  // the site their task hangs on; the organizer of a role reading every site is not scoped, and is told where to change it.
  const scoped = dialog.getByTestId('turf-outlook-person').filter({ hasText: organizer.name });
  await expect(scoped).toContainText('Scoped by their turf: will see 2 sites (now 1).');
  await assign(page, unscoped.name);
  const wide = dialog.getByTestId('turf-outlook-person').filter({ hasText: unscoped.name });
  await expect(wide).toContainText('Not scoped: their role reads sites whatever their turf');
  await expect(wide.getByRole('link', { name: `Set the ${unscoped.role} role to “their turf”` })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('turf-outlook-390.png') });
  await dialog.locator('.MuiChip-root', { hasText: unscoped.name }).locator('.MuiChip-deleteIcon').click();
  await expect(dialog.getByTestId('turf-outlook-person')).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Save turf' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${names.turf} saved: 1 site inside.`)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('turf-drawn-390.png') });
});

test('the organizer sees the sites of their turf and their own work outside it with its note, on the map and in the list', async ({
  page,
}) => {
  await signIn(page, { user: { email: organizer.email, password: USER_PASSWORD } });
  await expect(page.getByTestId('your-turf')).toHaveText(`Your turf: ${names.turf}`);
  const sites = await page.evaluate(async () =>
    (await (await fetch('/api/sites?per_page=100&search=Depot')).json()).data.map((s: any) => s.name),
  );
  expect(sites).toContain(names.inside);

  await page.goto(`/map?lat=${(INSIDE.lat + OUTSIDE.lat) / 2}&lng=${(INSIDE.lng + OUTSIDE.lng) / 2}&z=11`);
  await expect(page.getByTestId('map-page')).toBeVisible();
  const inside = await page.evaluate(
    async (name) => (await (await fetch(`/api/sites?search=${encodeURIComponent(name)}`)).json()).data[0]?.id,
    names.inside,
  );
  await expect(page.locator(`[data-testid=map-site][data-id="${inside}"]`)).toBeVisible({ timeout: 20_000 });
  // The turf's site and the one their task hangs on; never the other site outside the turf.
  await expect(page.locator('[data-testid=map-site]')).toHaveCount(2);
  await page.screenshot({ path: test.info().outputPath('turf-organizer-map-390.png') });

  await page.goto('/sites');
  await expect(page.getByText(names.inside).first()).toBeVisible();
  const theirs = page.getByRole('link').filter({ hasText: names.theirs });
  await expect(theirs.getByTestId('outside-turf')).toHaveText('outside your turf');
  await expect(page.getByRole('link').filter({ hasText: names.inside }).getByTestId('outside-turf')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('turf-organizer-list-390.png') });
  await expect(page.getByText(names.outside)).toHaveCount(0);

  // On a desktop the list is a grid whose Name column is narrower than the name and its note: the note goes under the
  // name, whole and inside the cell, and the name keeps the cell's width.
  await page.setViewportSize({ width: 1280, height: 800 });
  const cell = page.locator('.MuiDataGrid-cell').filter({ hasText: names.theirs });
  const note = cell.getByTestId('outside-turf');
  await expect(note).toBeVisible();
  const noteBox = (await note.boundingBox())!;
  const cellBox = (await cell.boundingBox())!;
  const nameBox = (await cell.getByText(names.theirs).boundingBox())!;
  expect(noteBox.x + noteBox.width).toBeLessThanOrEqual(cellBox.x + cellBox.width);
  expect(noteBox.y + noteBox.height).toBeLessThanOrEqual(cellBox.y + cellBox.height);
  expect(nameBox.width).toBeGreaterThan(noteBox.width);
  await page.screenshot({ path: test.info().outputPath('turf-organizer-list-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });

  await theirs.click();
  await expect(page.getByTestId('page-heading')).toHaveText(names.theirs);
  await expect(page.getByTestId('outside-turf')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('turf-organizer-own-site-390.png') });
  // A site outside the turf that is not theirs answers in the rule's words, not "may have been deleted".
  const stranger = await api.get<{ data: Array<{ id: number }> }>(
    `/api/sites?search=${encodeURIComponent(names.outside)}`,
  );
  await page.goto(`/sites/${stranger.data[0]!.id}/show`);
  await expect(page.getByText('This site is outside your turf.')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('turf-organizer-refused-390.png') });
});
