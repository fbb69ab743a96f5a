import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PGliteDialect } from '../../src/server/db/pglite-dialect';
import { PGliteThread } from '../../src/server/db/pglite-thread';
import { testDatabaseUrl } from '../support/test-app.js';

/**
 * A hold on the embedded database (db/pglite-dialect.ts `hold`): a background job's statements and transactions run
 * in one piece, people's statements after; it never keeps them out longer than its time, and a statement of its work
 * never runs inside its own open transaction.
 */
describe.skipIf(Boolean(testDatabaseUrl()))('a hold on the embedded database', () => {
  let folder: string;
  let thread: PGliteThread;
  let dialect: PGliteDialect;
  let db: Kysely<Record<string, never>>;
  beforeAll(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'om-pglite-hold-'));
    thread = await PGliteThread.start(folder);
    dialect = new PGliteDialect(thread);
    db = new Kysely<Record<string, never>>({ dialect });
    await sql`create table written (seq serial primary key, what text)`.execute(db);
  }, 120_000);
  afterAll(async () => {
    await thread?.close();
    rmSync(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await sql`truncate written`.execute(db);
  });

  const write = (what: string) => sql`insert into written (what) values (${what})`.execute(db);
  /**
   * A person's request writing `what` once `arrive` is called: its statement is made outside the hold's work (a promise
   * callback runs in the context where it was registered), whoever calls `arrive`.
   */
  const request = (what: string) => {
    let arrive!: () => void;
    const done = new Promise<void>((resolve) => (arrive = resolve)).then(() => write(what));
    return { arrive, done };
  };
  const order = async () =>
    (await sql<{ what: string }>`select what from written order by seq`.execute(db)).rows.map((row) => row.what);

  it("runs its work's statements and transactions in one piece, a request's statement after them", async () => {
    const person = request('request');
    await dialect.hold(async () => {
      await write('job 1');
      // A person's statement arrives while the job works between its statements.
      person.arrive();
      await sleep(30);
      await db.transaction().execute(async (trx) => {
        await sql`insert into written (what) values ('job 2')`.execute(trx);
        await sleep(10);
        await sql`insert into written (what) values ('job 3')`.execute(trx);
      });
      await write('job 4');
    }, 5_000);
    await person.done;
    expect(await order()).toEqual(['job 1', 'job 2', 'job 3', 'job 4', 'request']);
  });

  it('lets requests in once its time is up, even when its work waits for one of them', async () => {
    const started = performance.now();
    const person = request('request');
    await dialect.hold(async () => {
      await write('job');
      // Work that waits for a statement from outside the hold (a cache another request is filling): without the time
      // limit, neither would ever end.
      person.arrive();
      await person.done;
      await write('job again');
    }, 100);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(await order()).toEqual(['job', 'request', 'job again']);
  });

  it("keeps its work's other statements out of its open transaction", async () => {
    let aside: Promise<unknown> = Promise.resolve();
    await dialect.hold(async () => {
      await db
        .transaction()
        .execute(async (trx) => {
          await sql`insert into written (what) values ('rolled back')`.execute(trx);
          // A listener of the job's work writing while its transaction is open: it must not be part of it.
          aside = write('aside');
          await sleep(20);
          throw new Error('roll back');
        })
        .catch(() => {});
      await aside;
    }, 5_000);
    expect(await order()).toEqual(['aside']);
  });

  it('is let go when its work fails, and transactions outside it take their turn as before', async () => {
    await expect(
      dialect.hold(async () => {
        await write('job');
        throw new Error('the job failed');
      }, 5_000),
    ).rejects.toThrow('the job failed');
    await db.transaction().execute(async (trx) => {
      await sql`insert into written (what) values ('after')`.execute(trx);
    });
    expect(await order()).toEqual(['job', 'after']);
    expect(dialect.transactionsQueued).toBe(0);
  });
});
