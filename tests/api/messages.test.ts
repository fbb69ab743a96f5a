import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMS_STOP_LINE } from '../../src/server/messages/message-service.js';
import { signatureOf } from '../../src/server/messages/sms-provider.js';
import { recordQueries } from '../support/query-counter.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';
import { startReceiver } from '../support/webhook-receiver.js';

/**
 * Texts and emails to the people of a list (docs/messages.md), through a fake Twilio-compatible provider on loopback
 * and the test mailer: merge fields, an opt-out honoured on a later send (a STOP reply, an unsubscribe link), quiet
 * hours, the rate, replies on the timeline, and nothing lost without a provider.
 */
let t: TestApp;
let admin: TestClient;
let organizer: TestClient;
let provider: Awaited<ReturnType<typeof startReceiver>>;
const people: Record<string, number> = {};
const AUTH_TOKEN = 'fake-provider-auth-token';
type TimelineEntry = { kind: string; record: Record<string, unknown> };
type Send = { id: number; counts: Record<string, number>; total: number };

const sendTo = async (values: Record<string, unknown>) => {
  const res = await admin.post('/api/message-sends', {
    channel: 'sms',
    person_type: 'contact',
    query: { filter: { q: 'Textable' } },
    body: 'Hi {{first_name}}, the meeting is Thursday at 6.',
    ...values,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Send;
};
const show = async (id: number) => (await admin.get(`/api/message-sends/${id}`)).body.data as Send;
const copies = async (id: number) =>
  (await admin.get(`/api/message-sends/${id}/messages`)).body.data as Array<Record<string, unknown> & { id: number }>;
const formOf = (body: string) => Object.fromEntries(new URLSearchParams(body));

/** A text received at the provider, posted to the reply webhook as the provider posts it. */
const reply = (from: string, body: string, signed = true) => {
  const params = { From: from, To: '+15550001111', Body: body, MessageSid: `SM${Date.now()}` };
  const signature = signatureOf(AUTH_TOKEN, `${t.config.appUrl}/api/messages/sms/inbound`, params);
  return t.client().post('/api/messages/sms/inbound', undefined, {
    csrf: false,
    raw: new URLSearchParams(params).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(signed ? { 'x-twilio-signature': signature } : {}),
    },
  });
};

beforeAll(async () => {
  provider = await startReceiver([200]);
  t = await startTestApp({
    SMS_API_URL: provider.url.replace(/\/hook$/, ''),
    SMS_ACCOUNT_SID: 'AC0001',
    SMS_AUTH_TOKEN: AUTH_TOKEN,
    SMS_FROM: '+15550001111',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    QUIET_HOURS: '',
    MESSAGES_PER_MINUTE: '1000',
  });
  admin = await t.admin();
  const user = await t.createUser({ role: 'user', first_name: 'Olga', last_name: 'Organizer' });
  organizer = await t.signIn(user.email);
  for (const [first, phone, email] of [
    ['Ana', '(555) 010-0001', 'ana@example.org'],
    ['Bo', '555-010-0002', 'bo@example.org'],
    ['Cy', null, null],
  ] as const) {
    const res = await admin.post('/api/contacts', { first_name: first, last_name: 'Textable', phone, email });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    people[first] = res.body.data.id;
  }
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

describe('texting a list', () => {
  it('sends each person their own copy, merge fields filled, with how to stop, and says who has no phone', async () => {
    const { result: send, queries } = await recordQueries(() => sendTo({}));
    expect(send).toMatchObject({ total: 3, counts: { queued: 2, no_address: 1 } });
    // The people are read once, with only what the message needs (their phone and the merge fields).
    const reads = queries.filter((query) => /^select .* from "contacts" as "t"/.test(query.sql));
    expect(reads).toHaveLength(1);
    expect(reads[0]!.sql).not.toContain('"t".*');
    expect(reads[0]!.sql).toContain('as "phone"');
    expect(reads[0]!.sql).toContain('as "first_name"');
    expect(reads[0]!.sql).not.toContain('as "email"');
    await t.app.jobs.drain();
    const bodies = provider.received.map((message) => formOf(message.body));
    expect(bodies).toEqual(
      expect.arrayContaining([
        { To: '+15550100001', From: '+15550001111', Body: `Hi Ana, the meeting is Thursday at 6.\n${SMS_STOP_LINE}` },
        { To: '+15550100002', From: '+15550001111', Body: `Hi Bo, the meeting is Thursday at 6.\n${SMS_STOP_LINE}` },
      ]),
    );
    expect(provider.received[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from(`AC0001:${AUTH_TOKEN}`).toString('base64')}`,
    );
    expect((await show(send.id)).counts).toEqual({ sent: 2, no_address: 1 });
  });

  it('refuses an unknown merge field, naming it, and a message without text', async () => {
    const res = await admin.post('/api/message-sends', {
      channel: 'sms',
      person_type: 'contact',
      query: { filter: { q: 'Textable' } },
      body: 'Hi {{frist_name}}',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.body[0]).toContain('{{frist_name}}');
    const empty = await admin.post('/api/message-sends', { channel: 'email', person_type: 'contact', body: ' ' });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors).sort()).toEqual(['body', 'subject']);
  });

  it('is only for those who may text lists', async () => {
    const res = await organizer.post('/api/message-sends', {
      channel: 'sms',
      person_type: 'contact',
      query: { filter: { q: 'Textable' } },
      body: 'Hello',
    });
    expect(res.status).toBe(403);
    expect((await organizer.get('/api/message-sends')).status).toBe(403);
  });

  it('keeps a reply on the person’s timeline, and a STOP reply stops every later text to that number', async () => {
    expect((await reply('+15550100001', 'Yes, I will be there', false)).status).toBe(401);
    expect((await reply('+15550100001', 'Yes, I will be there')).status).toBe(204);
    expect((await reply('+15550100001', 'STOP')).status).toBe(204);
    const timeline = await admin.get(`/api/contacts/${people.Ana}/timeline`);
    const replies = timeline.body.data.filter(
      (entry: TimelineEntry) => entry.kind === 'message' && entry.record.direction === 'in',
    );
    expect(replies.map((entry: TimelineEntry) => entry.record.body)).toEqual(['STOP', 'Yes, I will be there']);

    provider.received.length = 0;
    const later = await sendTo({ body: 'Reminder, {{first_name}}: Thursday at 6.' });
    expect(later.counts).toEqual({ queued: 1, opted_out: 1, no_address: 1 });
    await t.app.jobs.drain();
    expect(provider.received.map((message) => formOf(message.body).To)).toEqual(['+15550100002']);
  });

  it('holds texts during quiet hours until they end, in the recipient’s time zone', async () => {
    const minute = Number(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: t.config.timeZone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .format(new Date())
        .replace(/(\d+):(\d+)/, (_, h, m) => String(Number(h) * 60 + Number(m))),
    );
    // Quiet from an hour ago to an hour from now (wrapping midnight as needed).
    t.config.messages.quietHours = { start: (minute + 1380) % 1440, end: (minute + 60) % 1440 };
    try {
      provider.received.length = 0;
      const send = await sendTo({ query: { filter: { q: 'Bo Textable' } } });
      await t.app.jobs.drain();
      expect(provider.received).toEqual([]);
      const [copy] = await copies(send.id);
      expect(copy).toMatchObject({ status: 'queued' });
      const held = await t.ctx.db
        .selectFrom('messages')
        .select('send_after')
        .where('id', '=', copy!.id)
        .executeTakeFirstOrThrow();
      const waitMinutes = (new Date(held.send_after).getTime() - Date.now()) / 60_000;
      expect(waitMinutes).toBeGreaterThan(55);
      expect(waitMinutes).toBeLessThan(62);
    } finally {
      t.config.messages.quietHours = null;
      await t.ctx.db.updateTable('messages').set({ status: 'failed' }).where('status', '=', 'queued').execute();
    }
  });

  it('sends no more than the rate a minute, and the rest after', async () => {
    t.config.messages.perMinute = 1;
    try {
      await t.ctx.db
        .updateTable('messages')
        .set({ attempted_at: new Date(Date.now() - 120_000) })
        .execute();
      provider.received.length = 0;
      const send = await sendTo({
        channel: 'sms',
        query: { filter: { q: 'Textable' } },
        body: 'Two of you {{last_name}}',
      });
      expect(send.counts.queued).toBe(1);
      const other = await sendTo({ query: { filter: { q: 'Bo Textable' } }, body: 'And again' });
      await t.app.jobs.drain();
      expect(provider.received).toHaveLength(1);
      expect((await show(other.id)).counts.queued ?? 0).toBe(1);
      const next = await t.ctx.db
        .selectFrom('jobs')
        .select('run_at')
        .where('type', '=', 'messages-send')
        .where('status', '=', 'queued')
        .executeTakeFirst();
      expect(next, 'the sender queued itself for when the rate allows').toBeDefined();
    } finally {
      t.config.messages.perMinute = 1000;
      await t.ctx.db.updateTable('messages').set({ status: 'failed' }).where('status', '=', 'queued').execute();
    }
  });

  it('keeps every text as not sent when no provider is configured, and sends them once one is', async () => {
    const sms = t.config.messages.sms;
    t.config.messages.sms = null;
    try {
      const send = await sendTo({ query: { filter: { q: 'Bo Textable' } }, body: 'Kept for later' });
      expect(send.counts).toEqual({ not_sent: 1 });
      const [copy] = await copies(send.id);
      expect(copy!.detail).toContain('no SMS provider');
      const refused = await admin.post(`/api/message-sends/${send.id}/send-unsent`);
      expect(refused.status).toBe(422);
      t.config.messages.sms = sms;
      provider.received.length = 0;
      const again = await admin.post(`/api/message-sends/${send.id}/send-unsent`);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      await t.app.jobs.drain();
      expect(provider.received.map((message) => formOf(message.body).Body)).toEqual([
        `Kept for later\n${SMS_STOP_LINE}`,
      ]);
      expect((await show(send.id)).counts).toEqual({ sent: 1 });
    } finally {
      t.config.messages.sms = sms;
    }
  });
});

describe('emailing a list', () => {
  it('sends with an unsubscribe link, and the link stops every later email to that address', async () => {
    t.mails.length = 0;
    const send = await sendTo({ channel: 'email', subject: 'Meeting, {{first_name}}', body: 'See you Thursday.' });
    expect(send.counts).toEqual({ queued: 2, no_address: 1 });
    await t.app.jobs.drain();
    const ana = t.mails.find((mail) => mail.to === 'ana@example.org')!;
    expect(ana.subject).toBe('Meeting, Ana');
    const link = /\/api\/messages\/unsubscribe\?token=([\w.-]+)/.exec(ana.text);
    expect(link, ana.text).not.toBeNull();

    expect(
      (await t.client().post('/api/messages/unsubscribe', { token: `${link![1]}x` }, { csrf: false })).status,
    ).toBe(422);
    const done = await t.client().post('/api/messages/unsubscribe', { token: link![1] }, { csrf: false });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.message).toContain('ana@example.org');

    const later = await sendTo({ channel: 'email', subject: 'Again', body: 'Once more.' });
    expect(later.counts).toEqual({ queued: 1, opted_out: 1, no_address: 1 });
  });
});
