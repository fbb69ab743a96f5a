/**
 * A webhook receiver that gives no answer (down, its name not found, the time passing) costs a delivery job one
 * round of messages in flight, not a wait for each of its messages: the others of the batch are put off to their next
 * attempt's time, still pending and not counted as failures, so the worker goes on to the jobs behind them.
 */
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok } from '../support/api-answers.js';
import { startTestApp, type TestApp, type TestClient } from '../support/test-app.js';

let t: TestApp;
let admin: TestClient;
let silent: net.Server;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  t = await startTestApp({
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
    WEBHOOK_TIMEOUT_SECONDS: '1',
    WEBHOOK_RETRY_SECONDS: '60',
    WEBHOOK_PAUSE_AFTER: '50',
  });
  admin = await t.admin();
  // Takes each connection and never answers.
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent?.close(() => resolve()));
  await t?.close();
});

it('sends a receiver that gave no answer none of its other messages this time, and puts them off', async () => {
  const { port } = silent.address() as net.AddressInfo;
  const hook = ok(
    await admin.post('/api/webhooks', {
      name: 'Silent hall',
      url: `http://127.0.0.1:${port}/hook`,
      record_type: 'site',
      events: ['created'],
    }),
    201,
  );
  for (let i = 0; i < 20; i++) ok(await admin.post('/api/sites', { name: `Unanswered ${i}`, type: 'union' }), 201);
  // The record changes become 20 messages in two delivery jobs; the worker's next claim takes both.
  while (
    Number((await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries`.execute(t.ctx.db)).rows[0]!.n) <
    20
  )
    expect(await t.app.jobs.runOne()).toBe(true);
  expect(await t.app.jobs.runOne()).toBe(true);

  const rows = (
    await sql<{ status: string; attempts: number; error: string | null; due_in_s: number }>`
      select status, attempts, error, extract(epoch from next_attempt_at - now())::float as due_in_s
      from webhook_deliveries where webhook_id = ${hook.id} order by id`.execute(t.ctx.db)
  ).rows;
  expect(rows).toHaveLength(20);
  // Four in flight at a time: the first four waited out their second; the other sixteen were not sent.
  const tried = rows.filter((row) => row.attempts === 1);
  const putOff = rows.filter((row) => row.attempts === 0);
  expect(tried).toHaveLength(4);
  expect(putOff).toHaveLength(16);
  for (const row of [...tried, ...putOff]) {
    expect(row.status).toBe('pending');
    expect(row.due_in_s).toBeGreaterThan(30);
  }
  for (const row of putOff)
    expect(row.error).toMatch(/^Not sent yet: the receiver did not answer the message before it/);
  // Only the four sent count towards pausing the webhook; the put-off ones are queued again.
  const webhook = (
    await sql<{ failures: number }>`select failures from webhooks where id = ${hook.id}`.execute(t.ctx.db)
  ).rows[0]!;
  expect(Number(webhook.failures)).toBe(4);
  const queued = (
    await sql<{ ids: number }>`select coalesce(sum(jsonb_array_length(payload->'delivery_ids')), 0)::int as ids
      from jobs where type = 'webhook-delivery' and status = 'queued'`.execute(t.ctx.db)
  ).rows[0]!;
  expect(Number(queued.ids)).toBe(20);
});
