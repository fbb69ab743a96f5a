import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, testDatabaseUrl } from '../support/test-app.js';

/**
 * The embedded database runs each statement with parameters as a prepared statement, prepared once per text
 * (db/pglite-session.ts, on the database thread): a schema change, a rollback and the bound on how many stay prepared must never make one
 * fail or answer with the columns of before.
 */
const onPglite = !testDatabaseUrl();
let t: TestApp;
beforeAll(async () => {
  if (onPglite) t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const prepared = async () =>
  Number((await sql<{ n: string }>`select count(*) as n from pg_prepared_statements`.execute(t.ctx.db)).rows[0].n);

describe.skipIf(!onPglite)('prepared statements on the embedded database', () => {
  it('a statement prepared before a schema change answers with the new columns, in a transaction too', async () => {
    const db = t.ctx.db;
    const { id } = (
      await sql<{
        id: number;
      }>`insert into teams (name, created_at, updated_at) values (${'Prepared'}, now(), now()) returning id`.execute(db)
    ).rows[0];
    const read = (on: typeof db) => sql<Record<string, unknown>>`select * from teams where id = ${id}`.execute(on);
    for (let i = 0; i < 7; i++) expect((await read(db)).rows[0]).not.toHaveProperty('prepared_probe');
    expect(await prepared()).toBeGreaterThan(0);

    await sql`alter table teams add column prepared_probe integer default 7`.execute(db);
    const inside = await db.transaction().execute((trx) => read(trx));
    expect(inside.rows[0]).toMatchObject({ id, prepared_probe: 7 });
    expect((await read(db)).rows[0]).toMatchObject({ prepared_probe: 7 });

    await db.transaction().execute(async (trx) => {
      await sql`alter table teams drop column prepared_probe`.execute(trx);
      expect((await read(trx)).rows[0]).not.toHaveProperty('prepared_probe');
    });
    expect((await read(db)).rows[0]).not.toHaveProperty('prepared_probe');
  });

  it("keeps PostgreSQL's errors as they were: code, message and the statement", async () => {
    const db = t.ctx.db;
    const error =
      await sql`insert into roles (id, slug, name, permissions) select id, slug, name, permissions from roles where id = ${1}`
        .execute(db)
        .catch((e) => e);
    expect(error).toMatchObject({ code: '23505' });
    expect(String(error.query)).toContain('insert into roles');
    // The connection answers at once after the error, outside a transaction and after a failed one.
    expect((await sql<{ one: number }>`select ${1}::int as one`.execute(db)).rows[0].one).toBe(1);
    await expect(db.transaction().execute(async (trx) => sql`select ${'x'}::int`.execute(trx))).rejects.toMatchObject({
      code: '22P02',
    });
    expect((await sql<{ two: number }>`select ${2}::int as two`.execute(db)).rows[0].two).toBe(2);
  });

  it("reads a prepared statement's answer on the server's thread as PGlite would: each type's value, nulls, counts", async () => {
    const db = t.ctx.db;
    const typed = sql<
      Record<string, unknown>
    >`select ${7}::int8 as big, ${'12.50'}::numeric as money, ${'2026-03-04'}::date as day,
      ${'2026-03-04T05:06:07Z'}::timestamptz as at, ${'{"a":[1,"two"]}'}::jsonb as doc, array[${1}::int, 2] as ints,
      array[${'x'}::text, null] as texts, ${true}::boolean as yes, ${null}::text as nothing, ${'é ✓'}::text as words`;
    // The same values without parameters: run by PGlite's own `exec`, which reads the answer itself.
    const literal = sql<
      Record<string, unknown>
    >`select 7::int8 as big, '12.50'::numeric as money, '2026-03-04'::date as day,
      '2026-03-04T05:06:07Z'::timestamptz as at, '{"a":[1,"two"]}'::jsonb as doc, array[1::int, 2] as ints,
      array['x'::text, null] as texts, true::boolean as yes, null::text as nothing, 'é ✓'::text as words`;
    const unprepared = (await literal.execute(db)).rows[0];
    for (let i = 0; i < 3; i++) {
      const row = (await typed.execute(db)).rows[0];
      expect(row).toEqual({
        big: 7,
        money: 12.5,
        day: '2026-03-04',
        at: new Date('2026-03-04T05:06:07Z'),
        doc: { a: [1, 'two'] },
        ints: [1, 2],
        texts: ['x', null],
        yes: true,
        nothing: null,
        words: 'é ✓',
      });
      expect(row).toEqual(unprepared);
    }
    const written = await sql`update teams set updated_at = now() where id > ${0}`.execute(db);
    const teams = Number(
      (await sql<{ n: number }>`select count(*) as n from teams where id > ${0}`.execute(db)).rows[0].n,
    );
    expect(Number(written.numAffectedRows)).toBe(teams);
  });

  it('keeps at most 500 prepared, closing the least recently used, and every text still runs', async () => {
    const db = t.ctx.db;
    for (let i = 0; i < 620; i++)
      expect((await sql<{ n: number }>`select ${i}::int + ${sql.raw(String(i))} as n`.execute(db)).rows[0].n).toBe(
        2 * i,
      );
    expect(await prepared()).toBeLessThanOrEqual(500);
    expect((await sql<{ n: number }>`select ${3}::int + ${sql.raw('3')} as n`.execute(db)).rows[0].n).toBe(6);
  });

  it('plans a filter on a custom field or a turf for its value each time, and other statements once', async () => {
    const db = t.ctx.db;
    const byCustom = (value: string) =>
      sql`select count(*) from sites t where (${sql.ref('t.custom')} ->> 'priority') = ${value}`.execute(db);
    const byType = (value: string) =>
      sql`select count(*) from sites t where t.type = ${value} and t.id > ${0}`.execute(db);
    const byTurf = (region: number) =>
      sql`select count(*) from sites t where ${sql.ref('t.in_region_ids')} && array[${region}]::int[]`.execute(db);
    for (let i = 0; i < 8; i++) {
      await byCustom(i % 2 ? 'high' : 'low');
      await byTurf(i);
      await byType(i % 2 ? 'union' : 'pla');
    }
    // Runs of the named statements: a custom-field filter runs as the unnamed statement, planned at each run.
    const runs = async (pattern: string) =>
      Number(
        (
          await sql<{
            n: string;
          }>`select coalesce(sum(generic_plans + custom_plans), 0) as n from pg_prepared_statements where statement like ${pattern}`.execute(
            db,
          )
        ).rows[0].n,
      );
    expect(await runs("%->> 'priority'%")).toBe(0);
    expect(await runs('%"in_region_ids" && array%')).toBe(0);
    expect(await runs('%t.type = $1 and t.id%')).toBe(8);
  });
});
