import { createHash, createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type Pusher from 'pusher-js';
import type { Channel } from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHubServer } from '../../src/server/realtime/standalone.js';
import { hubBrowser, next } from '../support/pusher-events.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

/**
 * `npm run hub`: the realtime hub as a process of its own. The app publishes to it over the Pusher HTTP API (its
 * PUSHER_* settings), browsers connect to it and are authorised by the app with the shared secret.
 */
const APP_ID = 'hub-test';
const KEY = 'hub-test-key';
const SECRET = 'hub-test-secret-0123456789';

let hub: Awaited<ReturnType<typeof startHubServer>>;
let hubPort: number;
let t: TestApp;
const clients: Pusher[] = [];
beforeAll(async () => {
  hub = await startHubServer({
    appId: APP_ID,
    key: KEY,
    secret: SECRET,
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
  });
  hubPort = (hub.app.server.address() as AddressInfo).port;
  t = await startTestApp({
    PUSHER_APP_ID: APP_ID,
    PUSHER_APP_KEY: KEY,
    PUSHER_APP_SECRET: SECRET,
    PUSHER_HOST: '127.0.0.1',
    PUSHER_PORT: String(hubPort),
    PUSHER_SCHEME: 'http',
  });
});
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await t?.close();
  await hub?.app.close();
});

/** A browser of `person`: connected to the hub, its private subscriptions signed by the app. */
function browser(person: TestClient): Pusher {
  const client = hubBrowser(KEY, hubPort, (body) => person.post('/broadcasting/auth', body));
  clients.push(client);
  return client;
}

describe('the standalone hub', () => {
  it('tells the browser to connect to the hub', async () => {
    const config = (await t.client().get('/api/system/config')).body;
    expect(config.realtime).toMatchObject({
      key: KEY,
      host: '127.0.0.1',
      port: hubPort,
      scheme: 'http',
      force_tls: false,
    });
  });

  it('delivers a record created through the app to a browser connected to the hub, on its role channel', async () => {
    const admin = await t.admin();
    const me = (await admin.get('/api/auth/check')).body.data;
    const channel: Channel = browser(admin).subscribe(`private-App.Models.Role.${me.role_id}`);
    await next(channel, 'pusher:subscription_succeeded');
    const created = next<{ type: string; id: number; data: { name: string } }>(channel, 'App.Events.ModelCreated');
    const site = await admin.post('/api/sites', { name: 'Hub Tower', type: 'union' });
    expect(site.status).toBe(201);
    expect(await created).toMatchObject({ type: 'site', id: site.body.data.id, data: { name: 'Hub Tower' } });
  });

  it('refuses a private subscription the app did not sign, and a publish not signed with the secret', async () => {
    const stranger = browser(t.client());
    const refused = next(stranger.subscribe('private-App.Models.Role.1'), 'pusher:subscription_error');
    expect(await refused).toBeDefined();

    const body = JSON.stringify({ name: 'App.Events.Forged', channels: ['sites'], data: '{}' });
    const query = `auth_key=${KEY}&auth_timestamp=${Math.floor(Date.now() / 1000)}&auth_version=1.0&body_md5=${createHash('md5').update(body).digest('hex')}`;
    const sign = (secret: string) =>
      createHmac('sha256', secret).update(`POST\n/apps/${APP_ID}/events\n${query}`).digest('hex');
    const post = (secret: string) =>
      fetch(`http://127.0.0.1:${hubPort}/apps/${APP_ID}/events?${query}&auth_signature=${sign(secret)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expect((await post('not-the-secret-at-all')).status).toBe(401);
    expect((await post(SECRET)).status).toBe(200);
    const stale = `auth_key=${KEY}&auth_timestamp=${Math.floor(Date.now() / 1000) - 3600}&auth_version=1.0&body_md5=${createHash('md5').update(body).digest('hex')}`;
    const staleSig = createHmac('sha256', SECRET).update(`POST\n/apps/${APP_ID}/events\n${stale}`).digest('hex');
    expect(
      (
        await fetch(`http://127.0.0.1:${hubPort}/apps/${APP_ID}/events?${stale}&auth_signature=${staleSig}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
      ).status,
    ).toBe(401);
  });

  it('shows two people on one record through the one hub', async () => {
    const admin = await t.admin();
    const site = (await admin.post('/api/sites', { name: 'Presence Tower', type: 'union' })).body.data;
    const leader = await t.createUser({ role: 'leader', email: 'hub-leader@example.com' });
    const second = await t.signIn(leader.email);
    const first = browser(admin).subscribe(`presence-record.site.${site.id}`);
    await next(first, 'pusher:subscription_succeeded');
    const joined = next<{ id: string }>(first, 'pusher:member_added');
    const other = browser(second).subscribe(`presence-record.site.${site.id}`);
    const members = await next<{ count: number }>(other, 'pusher:subscription_succeeded');
    expect(members.count).toBe(2);
    expect(String((await joined).id)).toBe(String(leader.id));
  });
});
