import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { OutboxPublisher } from '../../src/server/realtime/outbox.js';
import type { RelayMessage } from '../../src/server/realtime/process-relay.js';
import { createPostgresDatabase, testDatabaseUrl } from '../support/test-app.js';

/**
 * The outbox of events for an outside hub (realtime/outbox.ts) on a real database: what the hub does not take is kept
 * and sent, in order, once it answers; a second process keeps its events behind the first's.
 */
const log = pino({ level: 'silent' });
let database: Database;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const serverUrl = testDatabaseUrl();
  if (serverUrl) {
    const made = await createPostgresDatabase(serverUrl);
    database = await openDatabase({ databaseUrl: made.url, dataDir: '' });
    cleanup = made.drop;
  } else {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'om-outbox-'));
    database = await openDatabase({ databaseUrl: undefined, dataDir });
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
  await migrate(database.db);
  // A fresh embedded database migrated from nothing: on a machine busy with other test runs, over a minute.
}, 180_000);

afterAll(async () => {
  await database?.close();
  await cleanup?.();
});

/** A hub that takes events while `up`, fails like a stopped server otherwise, and refuses what `refuse` names. */
function fakeHub() {
  const hub = {
    up: true,
    refuse: '' as string,
    heard: [] as string[],
    async publish(message: RelayMessage) {
      if (!hub.up) throw Object.assign(new Error('Request failed with an error'), { error: { code: 'ECONNREFUSED' } });
      if (message.event === hub.refuse) throw Object.assign(new Error('Unexpected status code 413'), { status: 413 });
      hub.heard.push(message.event);
    },
    reachable: async () => hub.up,
  };
  return hub;
}

const event = (name: string): RelayMessage => ({ channels: ['private-App.Models.Role.1'], event: name, data: '{}' });

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${check}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the realtime outbox', () => {
  it('keeps what the hub does not take and sends it, in order, when it answers again', async () => {
    const hub = fakeHub();
    const outbox = new OutboxPublisher(hub, database, log);
    await outbox.start();
    try {
      await waitFor(() => !outbox.keeping);
      await outbox.publish(event('first'));
      expect(hub.heard).toEqual(['first']);

      hub.up = false;
      await outbox.publish(event('second'));
      await outbox.publish(event('third'));
      expect(await outbox.waiting()).toBe(2);
      expect(outbox.keeping).toBe(true);
      expect(await outbox.hubUp()).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 500)); // tries meanwhile fail; nothing is lost
      expect(hub.heard).toEqual(['first']);

      hub.up = true;
      await waitFor(() => hub.heard.length === 3);
      expect(hub.heard).toEqual(['first', 'second', 'third']);
      await waitFor(async () => (await outbox.waiting()) === 0 && !outbox.keeping && (await outbox.hubUp()));
      await outbox.publish(event('fourth'));
      expect(hub.heard.at(-1)).toBe('fourth');
    } finally {
      await outbox.close();
    }
  });

  it('refuses at once an event the hub refuses (a 4xx): keeping it would not help', async () => {
    const hub = fakeHub();
    hub.refuse = 'too-large';
    const outbox = new OutboxPublisher(hub, database, log);
    await outbox.start();
    try {
      await waitFor(() => !outbox.keeping);
      await expect(outbox.publish(event('too-large'))).rejects.toThrow(/413/);
      expect(await outbox.waiting()).toBe(0);
    } finally {
      await outbox.close();
    }
  });

  it('of two processes: once one keeps, the other keeps its events behind, and all leave in the order kept', async () => {
    const hub = fakeHub();
    // Two publishers on one database, as two app processes (their notices reach each other through it).
    const a = new OutboxPublisher(hub, database, log);
    const b = new OutboxPublisher(hub, database, log);
    await a.start();
    await b.start();
    try {
      await waitFor(() => !a.keeping && !b.keeping);
      hub.up = false;
      await a.publish(event('a1'));
      // b has not failed itself: it heard that a keeps, so its own event goes behind a's rather than ahead.
      await waitFor(() => b.keeping);
      await b.publish(event('b1'));
      await a.publish(event('a2'));
      expect(await a.waiting()).toBe(3);
      hub.up = true;
      await waitFor(() => hub.heard.length === 3);
      expect(hub.heard).toEqual(['a1', 'b1', 'a2']);
      await waitFor(() => !a.keeping && !b.keeping);
      await b.publish(event('b2'));
      expect(hub.heard).toEqual(['a1', 'b1', 'a2', 'b2']);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
