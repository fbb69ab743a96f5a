import { type Kysely, sql } from 'kysely';
import { limitedToTurf, permittedCategories } from '../../common/permissions.js';
import type { AuthUser } from '../auth/auth-user.js';
import { countMatches, type ListQuery, pageInParts } from '../records/list-query.js';
import { turfRegionIds } from './turf.js';

/** The site list's orders that `site_regions` keeps each region's sites in (migration 030), by the list's field. */
const ORDERS: Record<string, string> = { created_at: 't.site_created_at', name: 't.site_name_key' };

/**
 * A page of the site list of a person whose turf is one region, sorted newest first or by name (either way), filtered
 * on the site type or not, without a search: its ids in order, read from that region's part of an index of
 * `site_regions` (migration 030), and its total counted from that index alone, as the list of every site reads the
 * sites' own sort indexes. Without it such a page read each of the turf's sites (a turf is no range of the sites'
 * indexes: docs/benchmarks.md "Turf"). Null for anything else (several regions, another order or filter, a search,
 * deleted sites, every row at once): the list then reads the turf in one pass (records/list-query.ts readPage).
 * The caller reads the rows by id with every rule of the person applied again.
 */
export async function turfSitePage(
  db: Kysely<any>,
  user: AuthUser,
  query: ListQuery,
): Promise<{ total: number; estimated: boolean; ids: number[] } | null> {
  const key = ORDERS[query.sort.field];
  if (!key || !limitedToTurf(user) || query.search || query.trashed !== 'without' || query.perPage === -1) return null;
  let types: string[] | null = null;
  for (const filter of query.filters) {
    if (filter.field !== 'type' || !(filter.operator === 'eq' || filter.operator === 'in')) return null;
    const values = (Array.isArray(filter.value) ? filter.value : [filter.value]).map(String);
    types = types ? types.filter((type) => values.includes(type)) : values;
  }
  const allowed = permittedCategories(user, 'site', 'read');
  if (allowed !== 'all') types = types ? types.filter((type) => allowed.includes(type)) : allowed;
  const regions = (await sql<{ id: number }>`${turfRegionIds(user)}`.execute(db)).rows;
  if (regions.length !== 1) return null;

  // `site_live` as it is written in the indexes' condition, not a parameter: a plan made for any value of it (the
  // embedded database prepares its statements) could not use them.
  let base = db
    .selectFrom('site_regions as t')
    .where('t.region_id', '=', regions[0].id)
    .where(sql<boolean>`t.site_live`);
  if (types) base = types.length ? base.where('t.site_type', 'in', types) : base.where(sql<boolean>`false`);
  const { total, estimated } = await countMatches(db, base, query.estimateTotal);
  const sort = { key: sql.ref(key), order: query.sort.order };
  const rows = await pageInParts(base, sort, query.perPage, (query.page - 1) * query.perPage, 't.site_id');
  return { total, estimated, ids: rows.map((row) => Number(row.site_id)) };
}
