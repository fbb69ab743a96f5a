import { type RawBuilder, sql } from 'kysely';
import { dynamicTables } from '../db/dynamic-tables.js';
import type { KeptTotals } from './kept-totals.js';
import {
  type ChoiceRanking,
  type countMatches,
  EXACT_TOTAL_UP_TO,
  type PartRead,
  pageInParts,
  type readPage,
  totalFromCount,
} from './list-query.js';

/** One key of a list's order: its SQL (list-query.ts sortExpression) and direction. */
export interface SortKey {
  key: RawBuilder<unknown>;
  order: 'asc' | 'desc';
  /** A choice's sort: `key` is the rank of a stored value (list-query.ts choiceRanking). */
  ranked?: ChoiceRanking;
}

type Base = Parameters<typeof countMatches>[1];
type Page = Awaited<ReturnType<typeof readPage>>;

/**
 * The total and one page of `base` (the rows a list may show, as `t`) ordered by several sorts (`sort=type,-bid_date`),
 * each with missing values last, `id` breaking ties in the last sort's direction. No index follows several keys, so
 * the matches are sorted (a top-N sort that keeps only the page's rows); a list with one sort reads its index instead
 * (list-query.ts readPage). Sorting reads every match anyway, so one statement reads them once (their ids and keys):
 * it counts them, exactly, and picks the page's ids, whose rows are then read by id. Counting them in a statement of
 * its own read every match twice (docs/benchmarks.md "Views"). A first sort by a choice is read by its runs instead
 * (pageByRanks).
 */
export async function readSortedPage(
  db: Parameters<typeof countMatches>[0],
  table: string,
  base: Base,
  keys: readonly SortKey[],
  page: { page: number; perPage: number; estimateTotal?: boolean; keptTotals?: KeptTotals | null },
): Promise<Page> {
  const tieOrder = keys.at(-1)?.order ?? 'asc';
  if (page.perPage === -1) {
    let ordered = base.selectAll('t');
    for (const { key, order } of keys) ordered = ordered.orderBy(sql`${key} ${sql.raw(order)} nulls last`);
    const rows = await ordered.orderBy('t.id', tieOrder).execute();
    return { total: rows.length, estimated: false, rows };
  }
  const [first, ...rest] = keys;
  if (first?.ranked && rest.length) {
    const byRanks = await pageByRanks(db, table, base, first.ranked, first.order, rest, page);
    if (byRanks) return byRanks;
  }
  const matches = base.select([sql`t.id`.as('id'), ...keys.map(({ key }, index) => sql`${key}`.as(`k${index}`))]);
  const order = sql.join(
    [
      ...keys.map(({ order }, index) => sql`${sql.ref(`k${index}`)} ${sql.raw(order)} nulls last`),
      sql`id ${sql.raw(tieOrder)}`,
    ],
    sql`, `,
  );
  const picked = await sql<{ total: number | string; ids: number[] }>`
    with m as (${matches})
    select (select count(*) from m) as total,
      array(select id from m order by ${order} limit ${page.perPage} offset ${(page.page - 1) * page.perPage}) as ids`.execute(
    db,
  );
  const total = Number(picked.rows[0]?.total ?? 0);
  const ids = picked.rows[0]?.ids ?? [];
  if (!ids.length) return { total, estimated: false, rows: [] };
  const found = await dynamicTables(db).selectFrom(`${table} as t`).selectAll('t').where('t.id', 'in', ids).execute();
  // Keyed as text: a bigint id may come back as text in the array and as a number in the row.
  const byId = new Map(found.map((row) => [String(row.id), row]));
  return { total, estimated: false, rows: ids.map((id) => byId.get(String(id))).filter((row) => row !== undefined) };
}

/** The matches of one rank of a choice: its stored values (two choices may share a rank) and how many there are. */
interface Run {
  rank: number | null;
  values: unknown[];
  count: number;
}

/**
 * A page whose first sort is a choice (`sort=type,-estimated_value`): the matches come in runs of one rank, in the
 * choices' order. One statement counts the matches of each stored value with its rank (from an index alone when one
 * holds the filtered fields); the page's rows are then read from the run or two it falls in, in the order of the other
 * sorts: with one, as a list with that sort alone reads its page (list-query.ts pageInParts), which an index of the
 * choice and that field serves without sorting. Sorting every match by every key cost most of such a list
 * (docs/benchmarks.md "Views"). With `estimateTotal`, as for one sort (list-query.ts readPage), counting stops at
 * EXACT_TOTAL_UP_TO + 1 matches; past that, each offered choice's matches are counted only as far as the page's end
 * (countedTo), which places the page, and the total is the planner's estimate. The counts are kept with the list's
 * total (`keptTotals`). Null when the page reaches the matches with no rank (no choice, or one no longer offered):
 * readSortedPage then sorts them all.
 */
async function pageByRanks(
  db: Parameters<typeof countMatches>[0],
  table: string,
  base: Base,
  ranked: ChoiceRanking,
  order: 'asc' | 'desc',
  rest: readonly SortKey[],
  page: { page: number; perPage: number; estimateTotal?: boolean; keptTotals?: KeptTotals | null },
): Promise<Page | null> {
  const from = (page.page - 1) * page.perPage;
  const to = from + page.perPage;
  const kept = page.keptTotals ?? null;
  let counted = await countsByValue(db, base, ranked, page.estimateTotal ? EXACT_TOTAL_UP_TO + 1 : null, kept);
  let total = counted.reduce((sum, row) => sum + Number(row.count), 0);
  let estimated = false;
  if (page.estimateTotal && total > EXACT_TOTAL_UP_TO) {
    ({ counted, total, estimated } = await countsPastExact(db, base, ranked, countedTo(to, kept), total, kept));
  }
  const rows: Record<string, any>[] = [];
  let start = 0;
  for (const run of runsInOrder(counted, order)) {
    const end = start + run.count;
    if (end > from && start < to) {
      if (run.rank === null) return null;
      const inRun = base.where(sql<boolean>`${ranked.value} in (${sql.join(run.values)})`);
      const offset = Math.max(0, from - start);
      const limit = Math.min(to, end) - Math.max(from, start);
      rows.push(...(await pageOfRun(inRun, rest, limit, offset, { db, name: table })));
    }
    start = end;
  }
  // Counted only as far as the page's end, every offered choice's matches end before it: the page is the list's last,
  // when no match is left without a rank (those come last, and readSortedPage sorts them with the rest).
  if (estimated && start < to) {
    const unranked = await base
      .select(sql`1`.as('one'))
      // A missing value has no rank either.
      .where(sql<boolean>`${ranked.rankOf(ranked.value)} is null`)
      .limit(1)
      .execute();
    return unranked.length ? null : { total: start, estimated: false, rows };
  }
  return { total, estimated, rows };
}

interface ValueCount {
  value: unknown;
  rank: number | string | null;
  count: number | string;
}

/**
 * The matches of each stored value, with its rank (ranked once per value, not per match); of the first `cap` only.
 * Kept as a list's total is (`kept`): the next page of the same list reads them from memory.
 */
async function countsByValue(
  db: Parameters<typeof countMatches>[0],
  base: Base,
  ranked: ChoiceRanking,
  cap: number | null,
  kept: KeptTotals | null,
): Promise<ValueCount[]> {
  const values = base.select(sql`${ranked.value}`.as('value'));
  const statement = sql<ValueCount>`
    select g.value, ${ranked.rankOf(sql.ref('g.value'))} as rank, g.count
    from (select m.value, count(*) as count from (${cap === null ? values : values.limit(cap)}) m group by m.value) g`.compile(
    db,
  );
  const count = async () => (await db.executeQuery(statement)).rows;
  return kept ? kept.of(db, statement, count) : count();
}

/**
 * Past an exact total: the matches of each offered value up to `upTo` (at or past the page's end), exact for every run
 * that ends before the page, which is all a page's place needs, and read from the index of the choice where there is
 * one; and the total the planner estimates. Kept as the counts of countsByValue are.
 */
async function countsPastExact(
  db: Parameters<typeof countMatches>[0],
  base: Base,
  ranked: ChoiceRanking,
  upTo: number,
  reached: number,
  kept: KeptTotals | null,
): Promise<{ counted: ValueCount[]; total: number; estimated: boolean }> {
  const ofValue = base.select(sql`1`.as('one')).where(sql<boolean>`${ranked.value} = o.value`).limit(upTo);
  const statement = sql<ValueCount>`
    select o.value, ${ranked.rankOf(sql.ref('o.value'))} as rank, (select count(*) from (${ofValue}) x) as count
    from (${ranked.offered}) o`.compile(db);
  const count = async () => ({
    counted: (await db.executeQuery(statement)).rows.filter((row) => Number(row.count) > 0),
    // The planner's estimate of the total, never less than the exact count reached.
    ...(await totalFromCount(db, base, reached, true)),
  });
  return kept ? kept.of(db, statement, count) : count();
}

/**
 * How far each choice's matches are counted past an exact total: to the page's end; with kept counts, to the next of
 * 250, 1,000, 4,000, ... at or past it, so that the next pages place themselves from the counts the first one made.
 */
function countedTo(to: number, kept: KeptTotals | null): number {
  if (!kept) return to;
  let upTo = 250;
  while (upTo < to) upTo *= 4;
  return upTo;
}

/** The values' matches as runs of one rank, in the sort's order, those with no rank last. */
function runsInOrder(counted: ValueCount[], order: 'asc' | 'desc'): Run[] {
  const runs = new Map<number | null, Run>();
  for (const row of counted) {
    const rank = row.rank === null ? null : Number(row.rank);
    const run = runs.get(rank) ?? { rank, values: [], count: 0 };
    run.values.push(row.value);
    run.count += Number(row.count);
    runs.set(rank, run);
  }
  return [...runs.values()].sort((a, b) => {
    if (a.rank === null || b.rank === null) return a.rank === null ? (b.rank === null ? 0 : 1) : -1;
    return order === 'asc' ? a.rank - b.rank : b.rank - a.rank;
  });
}

/** Rows of one run in the order of the other sorts, `id` breaking ties in the last one's direction. */
async function pageOfRun(
  inRun: Base,
  rest: readonly SortKey[],
  limit: number,
  offset: number,
  table: PartRead['table'],
) {
  if (rest.length === 1) return (await pageInParts(inRun, rest[0], limit, offset, { table })).rows;
  let ordered = inRun.selectAll('t');
  for (const { key, order } of rest) ordered = ordered.orderBy(sql`${key} ${sql.raw(order)} nulls last`);
  return ordered
    .orderBy('t.id', rest.at(-1)?.order ?? 'asc')
    .limit(limit)
    .offset(offset)
    .execute();
}
