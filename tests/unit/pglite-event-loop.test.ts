import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteDialect } from '../../src/server/db/pglite-dialect';

/**
 * The embedded database answers on the server's own thread: a long run of queries (an import chunk) must still let
 * the event loop serve files and websockets in between, or the app stalls for the whole run.
 */
describe('the embedded database shares the event loop', () => {
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
});
