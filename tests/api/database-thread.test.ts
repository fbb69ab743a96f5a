import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { startTestApp, testDatabaseUrl } from '../support/test-app.js';

/**
 * The embedded database runs on a thread of its own (db/pglite-thread.ts). When that thread stops (its WebAssembly
 * aborted, out of memory, killed), the server notices, starts it again on the same data folder and goes on serving:
 * the committed writes are there, the uncommitted transaction is not, and nothing kept from before is served. While it
 * starts again the database is taken for down (/api/ready answers 503).
 */
describe.skipIf(Boolean(testDatabaseUrl()))("the embedded database's thread", () => {
  it('is started again after it stops, with the committed writes and without the open transaction', async () => {
    const t = await startTestApp();
    try {
      await stopAndRecover(t);
    } finally {
      await t.close();
    }
  }, 120_000);
});

async function stopAndRecover(t: Awaited<ReturnType<typeof startTestApp>>) {
  const admin = await t.admin();
  const team = await admin.post('/api/teams', { name: 'Before the stop' });
  expect(team.status).toBe(201);
  // Kept by the read cache: must not be served once the database has started again.
  expect((await admin.get(`/api/teams/${team.body.data.id}`)).body.data.name).toBe('Before the stop');

  const db = t.ctx.db;
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const open = db.transaction().execute(async (trx) => {
    await sql`update teams set name = ${'Never committed'} where id = ${team.body.data.id}`.execute(trx);
    entered();
    await sql`select pg_sleep(2)`.execute(trx);
    await sql`update teams set name = ${'Still never committed'} where id = ${team.body.data.id}`.execute(trx);
  });
  await inside;
  // Sent while the transaction holds the database, so waiting in this thread when the database stops.
  const waiting = sql<{ n: number }>`select count(*)::int as n from teams where name = ${'Before the stop'}`.execute(
    db,
  );
  const generation = t.database.writes.data;
  const health: boolean[] = [];
  t.database.health.onChange((up) => health.push(up));
  await t.database.thread!.kill();
  // Taken for down at once (/api/ready answers 503, the job worker pauses) until the thread has started again.
  expect(t.database.health.up).toBe(false);

  await expect(open).rejects.toThrow(/stopped unexpectedly|restarted during this transaction/);
  expect((await waiting).rows[0].n).toBe(1);
  // Writes in flight may have committed before the stop: the caches' generation moved.
  expect(t.database.writes.data).toBeGreaterThan(generation);
  expect(health).toEqual([false, true]);
  expect((await admin.get('/api/ready')).status).toBe(200);
  const after = await admin.get(`/api/teams/${team.body.data.id}`);
  expect(after.status).toBe(200);
  expect(after.body.data.name).toBe('Before the stop');

  // Writes and transactions work again, and the thread stays up.
  const renamed = await admin.put(`/api/teams/${team.body.data.id}`, { name: 'After the stop' });
  expect(renamed.status).toBe(200);
  expect((await admin.get(`/api/teams/${team.body.data.id}`)).body.data.name).toBe('After the stop');
  expect((await admin.get('/api/health')).status).toBe(200);
}
