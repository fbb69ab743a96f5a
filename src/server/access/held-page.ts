import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import { type ListQuery, TURF_ONE_PASS_MATCHES } from '../records/list-query.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';
import { holderRanges } from './holders.js';
import { isTeamPerson, whoIs } from './who.js';

/** The list orders whose keys `record_holders` keeps a copy of, by the list's field. */
const ORDERS: Record<string, string> = { created_at: 'h.created_at', name: 'h.name_key' };

/**
 * A page of the list of a person whose read rule of a type that keeps its holders (access/holders.ts) is their own,
 * their team's, or either (maybe with categories), sorted newest first or by name, filtered on the category or not,
 * without a search: its ids in order and its total, read from `record_holders` alone (each part of the rule one range
 * of its covering indexes, the parts merged without repeats) instead of reading each matching record from its table to
 * count and order them (docs/benchmarks.md "Access scope"). Null for anything else, or past TURF_ONE_PASS_MATCHES
 * matches: the list then reads the rule in one pass. The caller reads the rows by id with every rule applied again.
 */
export async function heldPage(
  db: Kysely<DB>,
  user: AuthUser,
  query: ListQuery,
  def: ResourceDefinition,
  records: RecordService,
): Promise<{ total: number; estimated: boolean; ids: number[] } | null> {
  const key = ORDERS[query.sort.field];
  if (!key || (key === 'h.name_key' && !def.storedSortKeys?.name)) return null;
  if (query.search || query.trashed !== 'without' || query.perPage === -1) return null;
  const shape = await records.access.heldShape(user, def);
  if (!shape) return null;
  let categories: string[] | null = shape.categories === 'all' ? null : shape.categories;
  for (const filter of query.filters) {
    if (filter.field !== def.categoryColumn || !(filter.operator === 'eq' || filter.operator === 'in')) return null;
    const values = (Array.isArray(filter.value) ? filter.value : [filter.value]).map(String);
    categories = categories ? categories.filter((value) => values.includes(value)) : values;
  }
  if (categories && !categories.length) return { total: 0, estimated: false, ids: [] };
  const who = whoIs(user);
  const range = (holders: RawBuilder<boolean>) =>
    sql`select h.record_id as id, ${sql.raw(key)} as k from record_holders h where h.record_type = ${def.type} and h.live and ${holders}${
      categories ? sql` and h.category in (${sql.join(categories)})` : sql``
    }`;
  const teams = shape.team && who.hasTeams;
  const parts = holderRanges({
    ...(shape.own ? { people: who.id } : {}),
    ...(teams ? { teams: who.teamIds, fieldPeople: (person: RawBuilder<number>) => isTeamPerson(who, person) } : {}),
  }).map(range);
  if (!parts.length) return { total: 0, estimated: false, ids: [] };
  const direction = sql.raw(query.sort.order);
  const offset = (query.page - 1) * query.perPage;
  // A person holds a record once for each way they hold it (named in a field, work of theirs on it, a team's): the
  // ranges are merged without repeats, within one as between them.
  const found = await sql<{ total: number; ids: number[] }>`
    with m as (select distinct * from (${sql.join(parts, sql` union all `)}) u limit ${TURF_ONE_PASS_MATCHES + 1})
    select (select count(*) from m)::int as total,
      array(select id from m order by k ${direction} nulls last, id ${direction} limit ${query.perPage} offset ${offset}) as ids`.execute(
    db,
  );
  const total = Number(found.rows[0]?.total ?? 0);
  if (total > TURF_ONE_PASS_MATCHES) return null;
  return { total, estimated: false, ids: (found.rows[0]?.ids ?? []).map(Number) };
}
