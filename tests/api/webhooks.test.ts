/**
 * Outgoing webhooks (docs/webhooks.md): the secret shown once, messages signed per Standard Webhooks (checked with
 * the `standardwebhooks` package), retried against a receiver on loopback that fails on purpose, paused after
 * repeated failures with a notice to the owner, payloads masked by the owner's field rules, and private addresses
 * refused unless WEBHOOK_ALLOW_NETWORKS lets them through (here: loopback).
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';
import { startReceiver } from '../support/webhook-receiver.js';

let t: TestApp;
let admin: TestClient;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  t = await startTestApp({
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
    WEBHOOK_RETRY_SECONDS: '0',
    WEBHOOK_PAUSE_AFTER: '4',
  });
  admin = await t.admin();
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

async function makeWebhook(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.post('/api/webhooks', {
    name: 'Sites to the hall',
    url: receiver.url,
    record_type: 'site',
    events: ['created', 'updated'],
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; secret: string };
}

const deliveries = async (id: number) => (await admin.get(`/api/webhooks/${id}/deliveries`)).body;

describe('webhooks', () => {
  it('shows the secret once and signs each message per Standard Webhooks', async () => {
    receiver.answer([200]);
    const hook = await makeWebhook(admin);
    expect(hook.secret).toMatch(/^whsec_/);
    const shown = await admin.get(`/api/webhooks/${hook.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data.secret).toBeUndefined();
    expect(JSON.stringify((await admin.get('/api/webhooks')).body)).not.toContain(hook.secret);

    const site = (await admin.post('/api/sites', { name: 'Signed site', type: 'union' })).body.data;
    await t.app.jobs.drain();
    const message = receiver.received.at(-1)!;
    const verified = new Webhook(hook.secret).verify(message.body, message.headers as Record<string, string>);
    expect(verified).toMatchObject({ type: 'site.created', data: { id: site.id, name: 'Signed site' } });
    expect(() =>
      new Webhook(hook.secret).verify(`${message.body} `, message.headers as Record<string, string>),
    ).toThrow();
    const log = await deliveries(hook.id);
    expect(log.data[0]).toMatchObject({
      event: 'site.created',
      status: 'delivered',
      attempts: 1,
      response_status: 200,
    });
    expect(log.data[0].response_ms).toBeGreaterThanOrEqual(0);
    await admin.delete(`/api/webhooks/${hook.id}`);
  });

  it('retries a failed message with the same webhook-id until the receiver takes it', async () => {
    const hook = await makeWebhook(admin, { events: ['updated'] });
    const site = (await admin.post('/api/sites', { name: 'Retried site', type: 'union' })).body.data;
    receiver.answer([500, 503, 200]);
    const before = receiver.received.length;
    await admin.put(`/api/sites/${site.id}`, { name: 'Retried site, renamed' });
    await t.app.jobs.drain();
    const attempts = receiver.received.slice(before);
    expect(attempts.map((m) => m.headers['webhook-id'])).toEqual(Array(3).fill(attempts[0]!.headers['webhook-id']));
    const [entry] = (await deliveries(hook.id)).data;
    expect(entry).toMatchObject({ event: 'site.updated', status: 'delivered', attempts: 3, response_status: 200 });
    await admin.delete(`/api/webhooks/${hook.id}`);
  });

  it('pauses a webhook after repeated failures and tells its owner; resuming sends what was held', async () => {
    const hook = await makeWebhook(admin, { events: ['created'] });
    receiver.answer([500]);
    await admin.post('/api/sites', { name: 'Refused site', type: 'union' });
    await t.app.jobs.drain();
    const shown = (await admin.get(`/api/webhooks/${hook.id}`)).body.data;
    expect(shown.paused_at).not.toBeNull();
    expect(shown.failures).toBe(4);
    expect((await deliveries(hook.id)).data[0]).toMatchObject({ status: 'paused', attempts: 4, response_status: 500 });
    const notices = (await admin.get('/api/notifications?sort=-id')).body.data;
    // Its link opens the webhooks screen, where the paused one is resumed (there is no page per webhook).
    expect(notices[0]).toMatchObject({ title: 'Webhook "Sites to the hall" paused', link: '/webhooks' });
    // Paused: a new event makes no message.
    await admin.post('/api/sites', { name: 'While paused', type: 'union' });
    await t.app.jobs.drain();
    expect((await deliveries(hook.id)).meta.total).toBe(1);

    receiver.answer([200]);
    expect((await admin.post(`/api/webhooks/${hook.id}/resume`)).status).toBe(200);
    await t.app.jobs.drain();
    expect((await deliveries(hook.id)).data[0]).toMatchObject({ status: 'delivered', attempts: 5 });
    await admin.delete(`/api/webhooks/${hook.id}`);
  });

  it("masks the payload by the owner's field rules and sends nothing the owner may not read", async () => {
    await admin.post('/api/roles', {
      slug: 'hook-maker',
      name: 'Hook maker',
      permissions: ['webhook:create', 'webhook:read', 'webhook:delete', 'site:read:union'],
      policy: { site: { fields: { estimated_value: 'hidden' } } },
    });
    await t.createUser({ role: 'hook-maker', email: 'hook-maker@example.com' });
    const maker = await t.signIn('hook-maker@example.com');
    receiver.answer([200]);
    const hook = await makeWebhook(maker, { events: ['created'] });
    const before = receiver.received.length;
    await admin.post('/api/sites', { name: 'Valued union site', type: 'union', estimated_value: 5_000_000 });
    await admin.post('/api/sites', { name: 'Open shop site', type: 'non-union', estimated_value: 1_000 });
    await t.app.jobs.drain();
    const sent = receiver.received.slice(before).map((m) => JSON.parse(m.body) as { data: Record<string, unknown> });
    expect(sent.map((m) => m.data.name)).toEqual(['Valued union site']);
    expect(sent[0].data).not.toHaveProperty('estimated_value');
    await maker.delete(`/api/webhooks/${hook.id}`).then((res) => expect(res.status).toBe(200));
  });

  it('refuses addresses on this machine or private networks unless allowed, and checks its permission', async () => {
    const strict = await admin.post('/api/webhooks', {
      name: 'Metadata',
      url: 'http://169.254.169.254/latest',
      record_type: 'site',
      events: ['created'],
    });
    expect(strict.status).toBe(422);
    expect(strict.body.errors.url[0]).toMatch(/private network/);
    const bad = await admin.post('/api/webhooks', {
      name: 'x',
      url: 'ftp://example.org',
      record_type: 'nope',
      events: [],
    });
    expect(bad.status).toBe(422);
    await t.createUser({ role: 'user', email: 'hook-organizer@example.com' });
    const organizer = await t.signIn('hook-organizer@example.com');
    expect((await organizer.get('/api/webhooks')).status).toBe(403);
  });
});
