import { type RawBuilder, sql } from 'kysely';
import { dynamicTables } from '../db/dynamic-tables.js';
import type { countMatches, readPage } from './list-query.js';

/** One key of a list's order: its SQL (list-query.ts sortExpression) and direction. */
export interface SortKey {
  key: RawBuilder<unknown>;
  order: 'asc' | 'desc';
}

/**
 * The total and one page of `base` (the rows a list may show, as `t`) ordered by several sorts (`sort=type,-bid_date`),
 * each with missing values last, `id` breaking ties in the first sort's direction. No index follows several keys, so
 * the matches are sorted (a top-N sort that keeps only the page's rows); a list with one sort reads its index instead
 * (list-query.ts readPage). Sorting reads every match anyway, so one statement reads them once (their ids and keys):
 * it counts them, exactly, and picks the page's ids, whose rows are then read by id. Counting them in a statement of
 * its own read every match twice (docs/benchmarks.md "Views").
 */
export async function readSortedPage(
  db: Parameters<typeof countMatches>[0],
  table: string,
  base: Parameters<typeof countMatches>[1],
  keys: readonly SortKey[],
  page: { page: number; perPage: number },
): ReturnType<typeof readPage> {
  const tieOrder = keys[0]?.order ?? 'asc';
  if (page.perPage === -1) {
    let ordered = base.selectAll('t');
    for (const { key, order } of keys) ordered = ordered.orderBy(sql`${key} ${sql.raw(order)} nulls last`);
    const rows = await ordered.orderBy('t.id', tieOrder).execute();
    return { total: rows.length, estimated: false, rows };
  }
  const matches = base.select([sql`t.id`.as('id'), ...keys.map(({ key }, index) => sql`${key}`.as(`k${index}`))]);
  const order = sql.join(
    [
      ...keys.map(({ order }, index) => sql`${sql.ref(`k${index}`)} ${sql.raw(order)} nulls last`),
      sql`id ${sql.raw(tieOrder)}`,
    ],
    sql`, `,
  );
  const first = await sql<{ total: number | string; ids: number[] }>`
    with m as (${matches})
    select (select count(*) from m) as total,
      array(select id from m order by ${order} limit ${page.perPage} offset ${(page.page - 1) * page.perPage}) as ids`.execute(
    db,
  );
  const total = Number(first.rows[0]?.total ?? 0);
  const ids = first.rows[0]?.ids ?? [];
  if (!ids.length) return { total, estimated: false, rows: [] };
  const found = await dynamicTables(db).selectFrom(`${table} as t`).selectAll('t').where('t.id', 'in', ids).execute();
  // Keyed as text: a bigint id may come back as text in the array and as a number in the row.
  const byId = new Map(found.map((row) => [String(row.id), row]));
  return { total, estimated: false, rows: ids.map((id) => byId.get(String(id))).filter((row) => row !== undefined) };
}
