import { expect, test } from '@playwright/test';
import { Api, signIn } from './support';

let api: Api;
test.beforeAll(async () => {
  api = await Api.signIn();
});
test.afterAll(async () => {
  await api.dispose();
});

test.describe('live updates', () => {
  test('a record created and renamed through the API appears on an open list without reload', async ({ page }) => {
    const stamp = Date.now();
    await api.post('/api/teams', { name: `North ${stamp}` });
    await signIn(page, { at: '/teams' });
    await expect(page.getByText(`North ${stamp}`)).toBeVisible();
    let navigations = 0;
    page.on('framenavigated', () => (navigations += 1));

    const created = await api.post<{ data: { id: number } }>('/api/teams', { name: `South ${stamp}` });
    await expect(page.getByText(`South ${stamp}`)).toBeVisible();
    await api.post(`/api/teams/${created.data.id}`, { name: `South-East ${stamp}` });
    await expect(page.getByText(`South-East ${stamp}`)).toBeVisible();
    expect(navigations).toBe(0);
  });

  test("saving the person's own user refreshes their profile; a feature switched off leaves the menu", async ({
    page,
  }) => {
    const person = await api.createUser('user', 'Rita', 'Realtime');
    // An event sent before the person's own channel is subscribed is not heard (the session is read once, at the
    // start): the change below waits for that subscription.
    let ownChannel = false;
    await page.routeWebSocket(/\/app\//, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => server.send(message));
      server.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { event?: string; channel?: string };
        if (
          frame.event === 'pusher_internal:subscription_succeeded' &&
          frame.channel === `private-App.Models.User.${person.id}`
        )
          ownChannel = true;
        ws.send(message);
      });
    });
    await signIn(page, { user: person });
    await expect(page.getByTestId('user-avatar')).toHaveText('RR');
    await expect(page.getByTestId('sidebar').locator('[data-menu-key=map]')).toBeVisible();
    await expect.poll(() => ownChannel, { timeout: 20_000 }).toBe(true);

    await api.post(`/api/users/${person.id}`, { first_name: 'Sandra' });
    await expect(page.getByTestId('user-avatar')).toHaveText('SR');
    await expect(page.getByTestId('greeting')).toHaveText(/Sandra$/);

    const features = await api.get<{ data: Array<{ id: number; slug: string }> }>('/api/features?per_page=-1');
    const map = features.data.find((feature) => feature.slug === 'map')!;
    await api.post(`/api/features/${map.id}`, { enabled: false });
    try {
      await expect(page.getByTestId('sidebar').locator('[data-menu-key=map]')).toHaveCount(0);
    } finally {
      await api.post(`/api/features/${map.id}`, { enabled: true });
    }
    await expect(page.getByTestId('sidebar').locator('[data-menu-key=map]')).toBeVisible();
  });

  test('a system-updated event shows the full-screen overlay', async ({ page }) => {
    // Forward the real websocket and add one SystemUpdated frame on the public system channel.
    let inject: ((frame: string) => void) | undefined;
    let systemSubscribed = false;
    await page.routeWebSocket(/\/app\//, (ws) => {
      const server = ws.connectToServer();
      inject = (frame) => ws.send(frame);
      ws.onMessage((message) => server.send(message));
      server.onMessage((message) => {
        const frame = JSON.parse(String(message)) as { event?: string; channel?: string };
        if (frame.event === 'pusher_internal:subscription_succeeded' && frame.channel === 'system')
          systemSubscribed = true;
        ws.send(message);
      });
    });
    await signIn(page);
    await expect(page.getByTestId('greeting')).toBeVisible();
    // A frame on a channel the client has not subscribed to yet would be dropped.
    await expect.poll(() => inject !== undefined && systemSubscribed, { timeout: 20_000 }).toBe(true);
    inject!(
      JSON.stringify({
        event: 'App.Events.SystemUpdated',
        channel: 'system',
        data: JSON.stringify({ version: 'next' }),
      }),
    );
    const overlay = page.getByTestId('system-updated');
    await expect(overlay).toBeVisible();
    await expect(overlay).toContainText('Organizing Map has updated. Please refresh your page.');
    await expect(overlay.getByRole('button', { name: 'Refresh' })).toBeVisible();
  });
});
