import { type Kysely, sql } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import { countMatches, countOf, type ListQuery, pageInParts, totalFromCount } from '../records/list-query.js';
import type { RecordService } from '../records/record-service.js';
import type { OrderedPage, ResourceDefinition } from '../records/resource.js';

/** The site list's orders that `site_regions` keeps each region's sites in (migration 030), by the list's field. */
const ORDERS: Record<string, { region: string; site: string }> = {
  created_at: { region: 't.site_created_at', site: 't.created_at' },
  name: { region: 't.site_name_key', site: 't.name_key' },
};

/** Own sites outside the turf beyond this many: the list reads the rule in one pass instead. */
const MOST_OWN_OUTSIDE = 2_000;

/**
 * A page of the site list of a person whose site rule is their turf (with their own sites, and maybe site categories)
 * and whose turf is one region, sorted newest first or by name (either way), filtered on the site type or not,
 * without a search: its ids in order, read from that region's part of an index of `site_regions` (migration 030), and
 * its total counted from that index alone, as the list of every site reads the sites' own sort indexes. Their own
 * sites outside the turf (few: a site their task hangs on) are merged in by the same key. Without it such a page read
 * each of the turf's sites (a turf is no range of the sites' indexes: docs/benchmarks.md "Turf"). Null for anything
 * else (several regions, another order or filter, a search, deleted sites, every row at once): the list then reads
 * the rule in one pass (records/list-query.ts readPage). The caller reads the rows by id with every rule applied again.
 */
export async function turfSitePage(
  db: Kysely<DB>,
  user: AuthUser,
  query: ListQuery,
  def: ResourceDefinition,
  records: RecordService,
  shape: { categories: 'all' | string[]; own: boolean } | null,
): Promise<OrderedPage | null> {
  const order = ORDERS[query.sort.field];
  if (!shape || !order || query.search || query.trashed !== 'without' || query.perPage === -1) return null;
  let types: string[] | null = null;
  for (const filter of query.filters) {
    if (filter.field !== 'type' || !(filter.operator === 'eq' || filter.operator === 'in')) return null;
    const values = (Array.isArray(filter.value) ? filter.value : [filter.value]).map(String);
    types = types ? types.filter((type) => values.includes(type)) : values;
  }
  const { categories } = shape;
  if (categories !== 'all') types = types ? types.filter((type) => categories.includes(type)) : categories;
  const regions = await records.access.turfIds(db, user);
  if (regions.length !== 1) return null;

  // `site_live` as it is written in the indexes' condition, not a parameter: a plan made for any value of it (the
  // embedded database prepares its statements) could not use them.
  let base = db.selectFrom('site_regions as t').where('t.region_id', '=', regions[0]).where(sql<boolean>`t.site_live`);
  if (types) base = types.length ? base.where('t.site_type', 'in', types) : base.where(sql<boolean>`false`);

  // Their own sites outside the turf: their rule without the turf (categories and all), and the list's type filter.
  let outside = shape.own ? await records.access.rowsOutsideTurf(db, def, user) : null;
  if (outside && types) outside = types.length ? outside.where('t.type', 'in', types) : null;

  const offset = (query.page - 1) * query.perPage;
  if (!outside) {
    const { total, estimated } = await countMatches(db, base, query.estimateTotal, records.keptTotals);
    const sort = { key: sql.ref(order.region), order: query.sort.order };
    const { rows } = await pageInParts(base, sort, query.perPage, offset, {
      table: { db, name: 'site_regions' },
      id: 't.site_id',
      idsOnly: true,
    });
    return { total, estimated, ids: rows.map((row) => Number(row.site_id)), outsideTurf: [] };
  }
  const direction = sql.raw(query.sort.order);
  const inRegion = base
    .select([sql<number>`t.site_id`.as('id'), sql`${sql.ref(order.region)}`.as('k')])
    .orderBy(sql`${sql.ref(order.region)} ${direction}`)
    .orderBy('t.site_id', query.sort.order)
    .limit(offset + query.perPage);
  const counted = countOf(base, query.estimateTotal);
  // One statement: the region's sites counted (from its index), their own sites outside the turf counted, and merged
  // by the same key with the region's first offset + perPage sites in order; then the page.
  const theirs = outside
    .select([sql<number>`t.id`.as('id'), sql`${sql.ref(order.site)}`.as('k')])
    .limit(MOST_OWN_OUTSIDE + 1);
  const merged = await sql<{ own: number[]; counted: number; ids: number[] }>`
    with o as (${theirs})
    select array(select o.id from o) as own, ${counted} as counted,
      array(select m.id from ((${inRegion}) union all (select o.id, o.k from o)) m
        order by m.k ${direction} nulls last, m.id ${direction} limit ${query.perPage} offset ${offset}) as ids`.execute(
    db,
  );
  const own = new Set((merged.rows[0]?.own ?? []).map(Number));
  if (own.size > MOST_OWN_OUTSIDE) return null;
  const inTurf = Number(merged.rows[0]?.counted ?? 0);
  const { total, estimated } = await totalFromCount(db, base, inTurf, query.estimateTotal);
  const ids = (merged.rows[0]?.ids ?? []).map(Number);
  return { total: total + own.size, estimated, ids, outsideTurf: ids.filter((id) => own.has(id)) };
}
