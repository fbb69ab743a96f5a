import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPostgresDatabase,
  startTestApp,
  type TestApp,
  type TestClient,
  testDatabaseUrl,
} from '../support/test-app.js';
import { startReceiver } from '../support/webhook-receiver.js';

/**
 * The texting rate (MESSAGES_PER_MINUTE, docs/messages.md) across a restart: the minute's count is read from the
 * database, counting each text from when the provider answered (never before it reached the provider, so a slow
 * provider cannot make two minutes' texts land in one) and every text still out, including one a stopped process
 * left mid-send.
 */
const cleanups: Array<() => Promise<unknown> | unknown> = [];
let provider: Awaited<ReturnType<typeof startReceiver>>;
let location: { DATA_DIR: string; DATABASE_URL?: string };
const SLOW_PROVIDER_MS = 300;

/** A database kept across the two processes: a PGlite folder, or a database on the PostgreSQL test server. */
async function keptLocation(): Promise<{ DATA_DIR: string; DATABASE_URL?: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'om-messages-rate-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const serverUrl = testDatabaseUrl();
  if (!serverUrl) return { DATA_DIR: dir };
  const created = await createPostgresDatabase(serverUrl);
  cleanups.push(() => created.drop());
  return { DATA_DIR: dir, DATABASE_URL: created.url };
}

const start = (perMinute: number) =>
  startTestApp({
    ...location,
    SMS_API_URL: provider.url.replace(/\/hook$/, ''),
    SMS_ACCOUNT_SID: 'AC0002',
    SMS_AUTH_TOKEN: 'rate-test-token',
    SMS_FROM: '+15550002222',
    QUIET_HOURS: '',
    MESSAGES_PER_MINUTE: String(perMinute),
  });

async function textTo(admin: TestClient, search: string) {
  const res = await admin.post('/api/message-sends', {
    channel: 'sms',
    person_type: 'contact',
    query: { filter: { q: search } },
    body: 'Hi {{first_name}}',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number };
}

beforeAll(async () => {
  provider = await startReceiver([200], { answerAfterMs: SLOW_PROVIDER_MS });
  cleanups.push(() => provider.close());
  location = await keptLocation();
}, 60_000);

afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('the texting rate', () => {
  let first: TestApp | undefined;
  let second: TestApp | undefined;
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('counts a text from when the provider answered, never from before it reached the provider', async () => {
    first = await start(1000);
    const admin = await first.admin();
    for (const [name, phone] of [
      ['Ida', '555-020-0001'],
      ['Jo', '555-020-0002'],
      ['Kim', '555-020-0003'],
      ['Lu', '555-020-0004'],
    ])
      expect((await admin.post('/api/contacts', { first_name: name, last_name: 'Ratelimited', phone })).status).toBe(
        201,
      );
    const send = await textTo(admin, 'Ida Ratelimited');
    const send2 = await textTo(admin, 'Jo Ratelimited');
    await first.app.jobs.drain();
    expect(provider.received).toHaveLength(2);
    const copies = await first.ctx.db
      .selectFrom('messages')
      .select(['status', 'attempted_at'])
      .where('send_id', 'in', [send.id, send2.id])
      .orderBy('id')
      .execute();
    expect(copies.map((copy) => copy.status)).toEqual(['sent', 'sent']);
    copies.forEach((copy, i) => {
      const arrived = provider.received[i]!.at;
      expect(new Date(copy.attempted_at!).getTime()).toBeGreaterThanOrEqual(arrived + SLOW_PROVIDER_MS - 50);
    });
  }, 180_000);

  it('holds across a restart: what the stopped process sent and left out counts in the new one', async () => {
    const admin = await first!.admin();
    // A copy out when the process stopped: taken two minutes ago, its provider's answer never recorded.
    const left = await textTo(admin, 'Kim Ratelimited');
    await first!.ctx.db
      .updateTable('messages')
      .set({ status: 'sending', attempted_at: new Date(Date.now() - 120_000), attempts: 1 })
      .where('send_id', '=', left.id)
      .execute();
    await first!.ctx.db.deleteFrom('jobs').where('type', '=', 'messages-send').execute();
    await first!.close();
    first = undefined;

    // Four a minute: two sent within it and one out leave room for one.
    second = await start(4);
    const again = await textTo(await second.admin(), 'Ratelimited');
    provider.received.length = 0;
    await second.app.jobs.drain();
    expect(provider.received, 'texts sent beyond the minute’s rate').toHaveLength(1);
    const waiting = await second.ctx.db
      .selectFrom('messages')
      .select('status')
      .where('send_id', '=', again.id)
      .where('status', '=', 'queued')
      .execute();
    expect(waiting).toHaveLength(3);
  }, 180_000);
});
