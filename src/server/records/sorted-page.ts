import { type RawBuilder, sql } from 'kysely';
import { countMatches, type readPage } from './list-query.js';

/** One key of a list's order: its SQL (list-query.ts sortExpression) and direction. */
export interface SortKey {
  key: RawBuilder<unknown>;
  order: 'asc' | 'desc';
}

/**
 * The total and one page of `base` (the rows a list may show, as `t`) ordered by several sorts (`sort=type,-bid_date`),
 * each with missing values last, `id` breaking ties in the first sort's direction. No index follows several keys, so
 * the matches are sorted (a top-N sort that keeps only the page's rows); a list with one sort reads its index instead
 * (list-query.ts readPage).
 */
export async function readSortedPage(
  db: Parameters<typeof countMatches>[0],
  base: Parameters<typeof countMatches>[1],
  keys: readonly SortKey[],
  page: { page: number; perPage: number; estimateTotal?: boolean },
): ReturnType<typeof readPage> {
  let ordered = base.selectAll('t');
  for (const { key, order } of keys) ordered = ordered.orderBy(sql`${key} ${sql.raw(order)} nulls last`);
  ordered = ordered.orderBy('t.id', keys[0]?.order ?? 'asc');
  if (page.perPage === -1) {
    const rows = await ordered.execute();
    return { total: rows.length, estimated: false, rows };
  }
  const { total, estimated } = await countMatches(db, base, page.estimateTotal ?? false);
  const rows = await ordered
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .execute();
  return { total, estimated, rows };
}
