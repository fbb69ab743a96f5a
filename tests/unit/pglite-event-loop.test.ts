import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteDialect, WAL_CHECK_EVERY_MS } from '../../src/server/db/pglite-dialect';

/**
 * The embedded database answers on the server's own thread: a long run of queries (an import chunk) must still let
 * the event loop serve files and websockets in between, or the app stalls for the whole run.
 */
describe('the embedded database on the server thread', () => {
  let pglite: PGlite;
  let db: Kysely<any>;
  beforeAll(async () => {
    pglite = new PGlite();
    db = new Kysely<any>({ dialect: new PGliteDialect(pglite) });
    await sql`select 1`.execute(db);
  }, 60_000);
  afterAll(async () => {
    await db.destroy();
    await pglite.close();
  });

  it('a timer due during a long transaction fires before the transaction ends', async () => {
    let fired = Infinity;
    const started = performance.now();
    setTimeout(() => (fired = performance.now() - started), 0);
    let ran = 0;
    await db.transaction().execute(async (trx) => {
      while (performance.now() - started < 600) {
        await sql`select generate_series(1, 200)`.execute(trx);
        ran++;
      }
    });
    expect(ran).toBeGreaterThan(1);
    expect(fired).toBeLessThan(300);
  }, 30_000);

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
