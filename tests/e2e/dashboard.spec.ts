import { expect, test } from '@playwright/test';
import { Api, signIn } from './support';

/** The dashboard's figures and their links, and the activity feed updating live after a change made elsewhere. */
let api: Api;
let me: { id: number };
test.beforeAll(async () => {
  api = await Api.signIn();
  me = (await api.get<{ data: { id: number } }>('/api/auth/check')).data;
});
test.afterAll(async () => {
  await api.dispose();
});

test.describe('dashboard', () => {
  test('shows the figures under the greeting, each opening the list it counts', async ({ page }) => {
    const stamp = Date.now();
    const day = 86_400_000;
    const before = (
      await api.get<{ data: { tasks_open: number; tasks_overdue: number; calls: number } }>('/api/dashboard/statistics')
    ).data;
    await api.post('/api/tasks', {
      title: `Overdue call ${stamp}`,
      type: 'call',
      assignee_id: me.id,
      due_at: new Date(Date.now() - 2 * day).toISOString(),
    });
    await api.post('/api/tasks', {
      title: `Next visit ${stamp}`,
      type: 'visit',
      assignee_id: me.id,
      due_at: new Date(Date.now() + 5 * day).toISOString(),
    });
    await api.post('/api/tasks', {
      title: `Done call ${stamp}`,
      type: 'call',
      assignee_id: me.id,
      completed_at: new Date().toISOString(),
    });

    await signIn(page);
    await expect(page.getByTestId('greeting')).toBeVisible();
    await expect(page.getByTestId('figure-tasks_open')).toHaveText(String(before.tasks_open + 2));
    await expect(page.getByTestId('figure-tasks_overdue')).toHaveText(String(before.tasks_overdue + 1));
    await expect(page.getByTestId('figure-calls')).toHaveText(String(before.calls + 1));

    // The open-tasks figure opens the tasks list filtered to exactly those tasks.
    await page.getByTestId('figure-link-tasks_open').click();
    await expect(page).toHaveURL(/\/tasks\?filter=/);
    const filter = JSON.parse(new URL(page.url()).searchParams.get('filter')!);
    expect(filter).toEqual({ assignee_id: me.id, completed_at_null: true });
    // The tasks list screen is another part's work; where it exists, it shows exactly the counted tasks.
    const placeholder = page.getByTestId('placeholder-page');
    await expect(placeholder.or(page.getByText(`Overdue call ${stamp}`))).toBeVisible();
    if (!(await placeholder.isVisible())) {
      await expect(page.getByText(`Next visit ${stamp}`)).toBeVisible();
      await expect(page.getByText(`Done call ${stamp}`)).toHaveCount(0);
    }
    const list = await api.get<{ meta: { total: number } }>(
      `/api/tasks?filter=${encodeURIComponent(JSON.stringify(filter))}`,
    );
    expect(list.meta.total).toBe(before.tasks_open + 2);
  });

  test('is readable on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    await expect(page.getByTestId('greeting')).toBeVisible();
    await expect(page.getByTestId('figure-tasks_open')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
  });
});

test.describe('start-up', () => {
  test('a signed-in cold load asks one start request, not the session, config, features and schemas apart', async ({
    page,
  }) => {
    await signIn(page);
    await expect(page.getByTestId('greeting')).toBeVisible();
    const asked: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/')) asked.push(pathname);
    });
    await page.reload();
    await expect(page.getByTestId('greeting')).toBeVisible();
    // The sidebar's entries come after the first paint, in the sidebar's place.
    await expect(page.getByTestId('sidebar').getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(page.getByTestId('figure-tasks_open')).toBeVisible();
    expect(asked.filter((path) => path === '/api/bootstrap')).toHaveLength(1);
    expect(
      asked.filter((path) => ['/api/auth/check', '/api/system/config', '/api/features', '/api/schemas'].includes(path)),
    ).toEqual([]);
  });

  test('signed out, the start request sends the visitor to the sign-in page with no error', async ({ page }) => {
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/') && response.status() >= 400)
        failures.push(`${response.status()} ${response.url()}`);
    });
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(failures).toEqual([]);
  });
});

test.describe('activity', () => {
  test('the feed shows a change made elsewhere without a reload', async ({ page }) => {
    const stamp = Date.now();
    await signIn(page, { at: '/actions' });
    await expect(page.getByTestId('activity-feed')).toBeAttached();
    let navigations = 0;
    page.on('framenavigated', () => (navigations += 1));

    // Another session (the API client) creates and renames a team.
    const team = await api.post<{ data: { id: number } }>('/api/teams', { name: `Live Team ${stamp}` });
    const entry = page.getByTestId('feed-entry').filter({ hasText: `Live Team ${stamp}` });
    await expect(entry.first()).toBeVisible({ timeout: 15_000 });
    await expect(entry.first()).toContainText('created');
    await api.post(`/api/teams/${team.data.id}`, { description: 'Renamed elsewhere' });
    await expect(page.getByTestId('feed-entry').first()).toContainText(
      `changed description of team Live Team ${stamp}`,
      { timeout: 15_000 },
    );
    expect(navigations).toBe(0);

    // Each entry links to its record.
    await entry.first().getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`/teams/${team.data.id}/show`));
  });

  test('filters by record type, kept in the URL', async ({ page }) => {
    await signIn(page, { at: '/actions?type=team' });
    await expect(page.getByTestId('feed-entry').first()).toBeVisible();
    const texts = await page.getByTestId('feed-entry').allTextContents();
    expect(texts.every((text) => / team /.test(text))).toBe(true);
  });
});
