import { type RawBuilder, sql } from 'kysely';
import { CATEGORY_PERMISSIONS } from '../../common/permissions.js';
import { compileFilter, type FilterScope } from '../filters/compile-filter.js';
import { fromListFilters } from '../filters/filter-tree.js';
import { ValidationError } from '../http/errors.js';
import { withChoiceKeys } from '../records/choice-keys.js';
import { escapeLike, parseListQuery, resolveField } from '../records/list-query.js';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';

/**
 * The map's filters use the list conventions of the API (`filter[field]=value`, `filter={"field": value}`,
 * `_gte`/`_lte` suffixes for date ranges, lists for several values), so any field of the site record type,
 * built-in or an administrator's dropdown, filters the map as it filters the list. A few filters are the
 * map's own because they look through other tables:
 *
 * - `category`: site categories (`union`, `non-union`, `pla`, ...), matched on the site type.
 * - `trade_id`: the site lists that trade (site_trades).
 * - `contractor_type`: a contractor of that type (union, non-union, general, none) works on the site
 *   (site_contractors or the general contractor).
 * - `contractor_id`: that contractor works on the site.
 * - `region_id`: the site lies in that region (site_regions).
 * - `q` / `search`: name or address contains the text.
 */
export interface MapFilter {
  field: string;
  operator: string;
  value: unknown;
}

export interface MapFilters {
  filters: MapFilter[];
  search: string | null;
}

const CONTRACTOR_TYPES = ['general', 'non-union', 'none', 'union'];
const SPECIAL = new Set([
  'category',
  'trade_id',
  'trade_ids',
  'contractor_type',
  'contractor_id',
  'contractor_ids',
  'region_id',
  'region_ids',
]);
const SEARCH_COLUMNS = ['name', 'street', 'city', 'postal_code'];

/** The site fields each of the map's own filters reads: a role hiding one of them may not use the filter. */
const SPECIAL_READS: Readonly<Record<string, readonly string[]>> = {
  category: ['type'],
  trade_id: ['trade_ids'],
  region_id: ['region_ids'],
  contractor_id: ['contractors', 'general_contractor_id'],
  contractor_type: ['contractors', 'general_contractor_id'],
};

/** The map's own filters a person may not use: those reading a site field their role hides (`hiddenSite`). */
export function refusedSpecialFilters(hiddenSite: ReadonlySet<string>, contractorTypeHidden: boolean): Set<string> {
  const refused = new Set(
    Object.entries(SPECIAL_READS)
      .filter(([, fields]) => fields.some((field) => hiddenSite.has(field)))
      .map(([filter]) => filter),
  );
  if (contractorTypeHidden) refused.add('contractor_type');
  return refused;
}

const asList = (value: unknown): unknown[] =>
  (Array.isArray(value) ? value : String(value).split(',')).filter((v) => v !== '' && v !== null && v !== undefined);

function ids(field: string, value: unknown): number[] {
  const list = asList(value).map(Number);
  if (list.some((n) => !Number.isInteger(n) || n < 1))
    throw new ValidationError({
      [`filter.${field}`]: [`The ${field.replace(/_/g, ' ')} filter must be ids (whole numbers).`],
    });
  return [...new Set(list)].sort((a, b) => a - b);
}

/**
 * Reads the filters from the query string; unknown fields are refused (422) exactly as lists refuse them. `fields`:
 * the site fields the person may see; `refused`: the map's own filters reading a field their role hides
 * (`refusedSpecialFilters`), refused likewise.
 */
export function parseMapFilters(
  raw: Record<string, unknown>,
  def: ResourceDefinition,
  fields: Record<string, FieldSpec>,
  refused: ReadonlySet<string> = new Set(),
): MapFilters {
  const { filters: parsed, search } = parseListQuery(
    {
      filter: raw.filter,
      search: raw.search ?? raw.q,
      ...Object.fromEntries(Object.entries(raw).filter(([key]) => key.startsWith('filter['))),
    },
    { ...def, fields },
  );
  const filters: MapFilter[] = [];
  for (const filter of parsed) {
    const { field, operator } = filter;
    let value = filter.value;
    if (SPECIAL.has(field)) {
      if (operator !== 'eq' && operator !== 'in')
        throw new ValidationError({
          [`filter.${field}`]: [`The ${field.replace(/_/g, ' ')} filter takes a value or a list of values.`],
        });
      const name = field.replace(/_ids$/, '_id');
      if (refused.has(name))
        throw new ValidationError({ [`filter.${field}`]: [`You may not filter by ${name.replace(/_/g, ' ')}.`] });
      if (name === 'category') {
        const allowed = CATEGORY_PERMISSIONS.site;
        const list = [...new Set(asList(value).map(String))].sort();
        if (list.some((c) => !allowed.includes(c)))
          throw new ValidationError({ 'filter.category': [`Each category must be one of: ${allowed.join(', ')}.`] });
        value = list;
      } else if (name === 'contractor_type') {
        const list = [...new Set(asList(value).map(String))].sort();
        if (list.some((c) => !CONTRACTOR_TYPES.includes(c)))
          throw new ValidationError({
            'filter.contractor_type': [`Each contractor type must be one of: ${CONTRACTOR_TYPES.join(', ')}.`],
          });
        value = list;
      } else {
        value = ids(name, value);
      }
      filters.push({ field: name, operator: 'in', value });
      continue;
    }
    resolveField(field, fields, 'filter'); // 422 for a field the record type does not have
    if (Array.isArray(value)) value = [...new Set(value.map(String))].sort();
    filters.push({ field, operator, value });
  }
  filters.sort((a, b) =>
    a.field + a.operator < b.field + b.operator ? -1 : a.field + a.operator > b.field + b.operator ? 1 : 0,
  );
  return { filters, search: search ? search.toLowerCase() : null };
}

/** The same filters always give the same text: part of the marker index key. */
export function canonicalFilters(filters: MapFilters): string {
  return JSON.stringify([filters.filters.map((f) => [f.field, f.operator, f.value]), filters.search]);
}

/**
 * SQL conditions on the sites alias `t` for the filters: a site field's filter through the one filter compiler (as the
 * list's `filter[field]=value`), the map's own filters here. Filters that look at contractors only see the
 * contractors the person may read (`readableContractor`, the access policy's rule on the contractors alias `c`), so a
 * filter cannot reveal which sites have a contractor hidden from them.
 */
export async function siteFilterConditions(
  filters: MapFilters,
  scope: FilterScope,
  readableContractor: RawBuilder<boolean> = sql<boolean>`true`,
): Promise<RawBuilder<boolean>[]> {
  const out: RawBuilder<boolean>[] = [];
  const ofFields = filters.filters.filter((filter) => !SPECIAL.has(filter.field));
  if (ofFields.length)
    out.push(
      await compileFilter(fromListFilters(await withChoiceKeys(scope.db, ofFields as any, scope.fields)), {
        ...scope,
        errorKey: 'filter',
      }),
    );
  for (const filter of filters.filters) {
    const list = filter.value as any[];
    switch (filter.field) {
      case 'category':
        out.push(list.length ? sql<boolean>`t.type in (${sql.join(list)})` : sql<boolean>`false`);
        break;
      case 'trade_id':
        out.push(
          sql<boolean>`exists (select 1 from site_trades st where st.site_id = t.id and st.trade_id in (${sql.join(list)}))`,
        );
        break;
      case 'region_id':
        out.push(
          sql<boolean>`exists (select 1 from site_regions sr join regions r on r.id = sr.region_id where sr.site_id = t.id and r.deleted_at is null and sr.region_id in (${sql.join(list)}))`,
        );
        break;
      case 'contractor_id':
        out.push(sql<boolean>`exists (
          select 1 from contractors c
          where c.deleted_at is null and c.id in (${sql.join(list)}) and ${readableContractor}
            and (c.id = t.general_contractor_id or c.id in (select sc.contractor_id from site_contractors sc where sc.site_id = t.id))
        )`);
        break;
      case 'contractor_type':
        out.push(sql<boolean>`exists (
          select 1 from contractors c
          where c.deleted_at is null and c.type in (${sql.join(list)}) and ${readableContractor}
            and (c.id = t.general_contractor_id or c.id in (select sc.contractor_id from site_contractors sc where sc.site_id = t.id))
        )`);
        break;
    }
  }
  if (filters.search)
    out.push(searchCondition(filters.search, new Set(SEARCH_COLUMNS.filter((c) => !scope.fields[c]))));
  return out;
}

/** The search text in the name or address columns the person may see (none: the search is not applied, as lists do). */
function searchCondition(search: string, hidden: ReadonlySet<string>): RawBuilder<boolean> {
  const columns = SEARCH_COLUMNS.filter((c) => !hidden.has(c));
  if (!columns.length) return sql<boolean>`true`;
  const pattern = `%${escapeLike(search)}%`;
  return sql<boolean>`(${sql.join(
    columns.map((c) => sql`${sql.ref(`t.${c}`)} ilike ${pattern}`),
    sql` or `,
  )})`;
}

/**
 * The contractors layer follows the filters that make sense for a contractor: contractor type, trade
 * (contractor_trades) and contractor id; the search text matches the contractor's name or address.
 */
export function contractorFilterConditions(
  filters: MapFilters,
  hidden: ReadonlySet<string> = new Set(),
): RawBuilder<boolean>[] {
  const out: RawBuilder<boolean>[] = [];
  for (const filter of filters.filters) {
    const list = filter.value as any[];
    if (filter.field === 'contractor_type') out.push(sql<boolean>`t.type in (${sql.join(list)})`);
    if (filter.field === 'trade_id')
      out.push(
        sql<boolean>`exists (select 1 from contractor_trades ct where ct.contractor_id = t.id and ct.trade_id in (${sql.join(list)}))`,
      );
    if (filter.field === 'contractor_id') out.push(sql<boolean>`t.id in (${sql.join(list)})`);
  }
  if (filters.search) out.push(searchCondition(filters.search, hidden));
  return out;
}
