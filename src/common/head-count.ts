/**
 * A head count (the `head-count` field type): one row per contractor seen on a site, with the trades its workers
 * were in, how many workers were counted, how many of them union and non-union, and the conversations had. The
 * server validates every row by `headCountProblem` (schemas/field-specs.ts); the visit form checks the same rule
 * as people type.
 */

/** The counts of a row, in the order forms show them. */
export const HEAD_COUNT_NUMBERS = [
  'workers',
  'union_workers',
  'non_union_workers',
  'talked_to',
  'cards_signed',
  'contacts_made',
  'recruits_signed',
] as const;
export type HeadCountNumber = (typeof HEAD_COUNT_NUMBERS)[number];

export const HEAD_COUNT_LABELS: Readonly<Record<HeadCountNumber, string>> = {
  workers: 'Workers counted',
  union_workers: 'Union',
  non_union_workers: 'Non-union',
  talked_to: 'Talked to',
  cards_signed: 'Cards signed',
  contacts_made: 'Contacts made',
  recruits_signed: 'Recruits signed up',
};

export interface HeadCountRow extends Record<HeadCountNumber, number> {
  contractor_id: number;
  trade_ids: number[];
}

/** The most of any count in one row: no job site has more workers. */
export const HEAD_COUNT_MAX = 100_000;

/** What is wrong with one row's counts (`label` names the row in the message), or null. */
export function headCountProblem(row: Partial<Record<HeadCountNumber, unknown>>, label: string): string | null {
  for (const key of HEAD_COUNT_NUMBERS) {
    const value = row[key] ?? 0;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
      return `${label}: ${HEAD_COUNT_LABELS[key].toLowerCase()} must be a whole number, 0 or more.`;
    if (value > HEAD_COUNT_MAX)
      return `${label}: ${HEAD_COUNT_LABELS[key].toLowerCase()} may not be more than ${HEAD_COUNT_MAX.toLocaleString('en-US')}.`;
  }
  const workers = Number(row.workers ?? 0);
  const known = Number(row.union_workers ?? 0) + Number(row.non_union_workers ?? 0);
  if (known > workers)
    return `${label}: union and non-union workers (${known}) are more than the workers counted (${workers}).`;
  return null;
}

/** The sums of some rows' counts (a whole head count, or one trade's rows). */
export function headCountTotals(rows: readonly Partial<HeadCountRow>[]): Record<HeadCountNumber, number> {
  const totals = Object.fromEntries(HEAD_COUNT_NUMBERS.map((key) => [key, 0])) as Record<HeadCountNumber, number>;
  for (const row of rows) for (const key of HEAD_COUNT_NUMBERS) totals[key] += Number(row[key] ?? 0);
  return totals;
}

/** A head count by trade: a row with two trades counts in each; rows with none under `null`. */
export function headCountByTrade(
  rows: readonly HeadCountRow[],
): Array<{ trade_id: number | null; totals: Record<HeadCountNumber, number> }> {
  const groups = new Map<number | null, HeadCountRow[]>();
  for (const row of rows) {
    const trades = row.trade_ids?.length ? row.trade_ids : [null];
    for (const trade of trades) groups.set(trade, [...(groups.get(trade) ?? []), row]);
  }
  return [...groups]
    .map(([trade_id, list]) => ({ trade_id, totals: headCountTotals(list) }))
    .sort((a, b) => b.totals.workers - a.totals.workers);
}
