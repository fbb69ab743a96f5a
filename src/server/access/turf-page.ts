import { type Kysely, sql } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import { countMatches, countOf, type ListQuery, pageInParts, totalFromCount } from '../records/list-query.js';
import type { RecordService } from '../records/record-service.js';
import type { OrderedPage, ResourceDefinition } from '../records/resource.js';
import { holderRanges } from './holders.js';
import { type Who, whoIs } from './who.js';

/**
 * The site list's orders that `site_regions` keeps each region's sites in (migration 030), by the list's field, and
 * the copies of their keys `record_holders` keeps (access/holders.ts).
 */
const ORDERS: Record<string, { region: string; held: string }> = {
  created_at: { region: 't.site_created_at', held: 'h.created_at' },
  name: { region: 't.site_name_key', held: 'h.name_key' },
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
  if (shape.own && (!def.keepsHolders || def.scope)) return null;
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

  const offset = (query.page - 1) * query.perPage;
  if (!shape.own || types?.length === 0) {
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
  const theirs = ownOutside(def, whoIs(user), regions[0], order.held, types);
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

/**
 * Their own live sites (of `types`, or any) outside the turf's one region, each once with the list's key: read from
 * the covering index of `record_holders` by person (the "own" rule's, access/compile.ts) and the region's entries of
 * `site_regions`, without reading a site's row (it was about a third of the turf page's statement on PostgreSQL:
 * docs/benchmarks.md "Access scope").
 */
function ownOutside(def: ResourceDefinition, who: Who, region: number, key: string, types: string[] | null) {
  const [own] = holderRanges({ people: who.id });
  const ofTypes = types ? sql` and h.category in (${sql.join(types)})` : sql``;
  return sql`select distinct h.record_id as id, ${sql.ref(key)} as k from record_holders h
    where h.record_type = ${def.type} and h.live and ${own}${ofTypes}
      and not exists (select 1 from site_regions sr where sr.site_id = h.record_id and sr.region_id = ${region})
    limit ${MOST_OWN_OUTSIDE + 1}`;
}
