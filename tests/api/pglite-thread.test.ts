import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteDialect } from '../../src/server/db/pglite-dialect';
import { WAL_CHECK_EVERY_MS } from '../../src/server/db/pglite-session';
import { PGliteThread } from '../../src/server/db/pglite-thread';
import { testDatabaseUrl } from '../support/test-app.js';

/**
 * The embedded database runs on a thread of its own (db/pglite-thread.ts): this thread keeps running while a
 * statement runs there, statements sent together all come back in order, and a transaction has the one connection
 * to itself until it ends. An integration test (a database on a thread): it runs in the API suite's PGlite pass.
 */
describe.skipIf(Boolean(testDatabaseUrl()))('the embedded database on its own thread', () => {
  let folder: string;
  let thread: PGliteThread;
  let db: Kysely<Record<string, never>>;
  beforeAll(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'om-pglite-thread-'));
    thread = await PGliteThread.start(folder);
    db = new Kysely<Record<string, never>>({ dialect: new PGliteDialect(thread) });
    await sql`create table counted (n int)`.execute(db);
  }, 120_000);
  afterAll(async () => {
    await thread?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('this thread runs its timers and its own work while a long statement runs', async () => {
    const started = performance.now();
    let fired = Infinity;
    setTimeout(() => (fired = performance.now() - started), 0);
    const statement = sql`select pg_sleep(0.8)`.execute(db);
    // On one thread the sleep would run when this thread next waits, and the timer fire only after it.
    while (performance.now() - started < 300);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fired).toBeLessThan(700);
    await statement;
  }, 30_000);

  it('answers statements sent together, each with its own rows', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => sql<{ n: number }>`select ${i}::int * 2 as n`.execute(db)),
    );
    expect(answers.map((answer) => answer.rows[0].n)).toEqual(Array.from({ length: 60 }, (_, i) => i * 2));
  });

  it('keeps other statements out of a transaction until it ends, and none of its writes after a rollback', async () => {
    let outside: number | undefined;
    let read: Promise<unknown> = Promise.resolve();
    const transaction = db.transaction().execute(async (trx) => {
      await sql`insert into counted values (1)`.execute(trx);
      // Sent while the transaction holds the connection: it must neither see the uncommitted row nor run inside it.
      read = sql<{ n: number }>`select count(*)::int as n from counted`
        .execute(db)
        .then((answer) => (outside = answer.rows[0].n));
      await sql`select pg_sleep(0.2)`.execute(trx);
      expect(outside).toBeUndefined();
      await sql`insert into counted values (2)`.execute(trx);
      throw new Error('roll back');
    });
    await expect(transaction).rejects.toThrow('roll back');
    await read;
    expect(outside).toBe(0);
    expect((await sql<{ n: number }>`select count(*)::int as n from counted`.execute(db)).rows[0].n).toBe(0);
  });

  it("keeps PostgreSQL's error fields across the threads", async () => {
    await sql`create table keyed (id int primary key)`.execute(db);
    await sql`insert into keyed values (${1})`.execute(db);
    const error = await sql`insert into keyed values (${1})`.execute(db).catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'keyed_pkey', table: 'keyed' });
    expect(String(error.query)).toContain('insert into keyed');
  });

  it('checkpoints after a commit that leaves a large WAL behind, so pg_wal does not grow without end', async () => {
    const redo = async () =>
      (await sql<{ redo: string }>`select redo_lsn::text as redo from pg_control_checkpoint()`.execute(db)).rows[0]
        .redo;
    const before = await redo();
    // The WAL is looked at after a commit at most this often: let the last look be that old.
    await new Promise((resolve) => setTimeout(resolve, WAL_CHECK_EVERY_MS + 100));
    await db.transaction().execute(async (trx) => {
      await sql`create table wal_filler (body text)`.execute(trx);
      // About 60 MB of incompressible rows.
      await sql`insert into wal_filler select (select string_agg(md5(random()::text || g || s), '') from generate_series(1, 60) s) from generate_series(1, 30000) g`.execute(
        trx,
      );
    });
    expect(await redo()).not.toBe(before);
  }, 120_000);
});
