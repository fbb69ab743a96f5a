import { type RawBuilder, sql } from 'kysely';
import type { Labour } from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { storedLabourFacts } from './labour.js';
import { canRead, resourceDef } from './scope.js';

/**
 * The market share of all sites by region and by trade, counted ahead by the database (migration
 * 009_market_share_counts): what the report by region or trade gives, with no filter, to a person who may read every
 * site and both contractor types. Anything else is counted from the sites on each request (market-share.ts).
 */

export type CountedGrouping = 'region' | 'trade' | 'all';

/** The filters that narrow the sites; the counts are of all of them. */
const FILTERS = [
  'from',
  'to',
  'region_id',
  'team_id',
  'user_id',
  'trade_id',
  'building_type_id',
  'site_status_id',
  'site_type',
] as const;

/** Do the counts stand for what this person asks: every site, every contractor's labour, by region or trade? */
export async function answeredByCounts(
  ctx: AppContext,
  user: AuthUser,
  params: { group_by: string } & Partial<Record<(typeof FILTERS)[number], unknown>>,
): Promise<boolean> {
  if (params.group_by !== 'region' && params.group_by !== 'trade') return false;
  if (FILTERS.some((name) => params[name] !== undefined && !(Array.isArray(params[name]) && params[name].length === 0)))
    return false;
  const sites = resourceDef(ctx, 'sites');
  // The counts are of the rows of `sites` that are not soft-deleted.
  if (sites.table !== 'sites' || !sites.softDelete) return false;
  if (!canRead(user, sites) || (await ctx.records.access.onlyCategories(user, sites)) !== 'all') return false;
  const labour = await storedLabourFacts(ctx, user);
  // biome-ignore lint/complexity/useOptionalChain: the answer is a boolean; an optional chain would make it undefined.
  return labour !== null && labour.union && labour.nonUnion;
}

export interface CountedRow {
  key: string | null;
  label: string | null;
  labour: Labour;
  sites: number;
  value: number;
  hours: number;
}

// Changes to the counts are added as rows; past this many the reader folds them (one row per count is ~100).
const COMPACT_AFTER = 2_000;

/**
 * The counts of one grouping, the key as text; `labelJoin` / `label` name the group of each row `x` (as the
 * report's own grouping does).
 */
export async function readCounts(
  ctx: AppContext,
  grouping: CountedGrouping,
  labelJoin: RawBuilder<unknown> = sql``,
  label: RawBuilder<unknown> = sql`null`,
): Promise<CountedRow[]> {
  const { rows } = await sql<CountedRow & { changes: number }>`
    select x.key::text as key, ${label} as label, x.labour, x.sites, x.value, x.hours, sum(x.changes) over ()::int as changes
    from (
      select c.key, c.labour, sum(c.sites)::int as sites, sum(c.value) as value, sum(c.hours) as hours, count(*) as changes
      from market_share_counts c where c.grouping = ${grouping}
      group by c.key, c.labour
      having sum(c.sites) <> 0
    ) x ${labelJoin}`.execute(ctx.db);
  if ((rows[0]?.changes ?? 0) > COMPACT_AFTER) await sql`select market_share_compact(${grouping})`.execute(ctx.db);
  return rows.map(({ changes: _changes, ...row }) => row);
}
