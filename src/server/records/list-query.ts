import { createHash } from 'node:crypto';
import { CompiledQuery, type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Sql, SqlFragment } from '../../common/field-types/define.js';
import {
  ARRAY_KINDS,
  choiceRank,
  escapeLike,
  FilterValueError,
  offeredChoices,
  ranksChoices,
  STANDARD_SORT,
  valueExpression,
} from '../../common/field-types/sql.js';
import { moduleOfSpec } from '../../common/field-types.js';
import { dynamicTables } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import { type FilterGroup, parseFilterTree } from '../filters/filter-tree.js';
import { ValidationError } from '../http/errors.js';
import type { KeptTotals, ListTotal } from './kept-totals.js';
import type { FieldSpec, ResourceDefinition } from './resource.js';

export interface ListQuery {
  page: number;
  perPage: number; // -1 = all
  sort: { field: string; order: 'asc' | 'desc' };
  /** The sorts after the first (`sort=type,-bid_date`): each decides among rows the ones before it hold equal. */
  thenBy: Array<{ field: string; order: 'asc' | 'desc' }>;
  search: string | null;
  filters: Array<{ field: string; operator: FilterOperator; value: unknown }>;
  /** `filters=`: the view filters' AND/OR groups (filters/filter-tree.ts), applied besides `filters`. */
  where: FilterGroup | null;
  trashed: 'without' | 'with' | 'only';
  /** `total=estimate`: past EXACT_TOTAL_UP_TO matches the total may be an estimate (the generated lists ask so). */
  estimateTotal: boolean;
  /** `cursor=`: the previous page's `meta.next_cursor` (pageCursor), so this page is sought rather than counted to. */
  cursor: string | null;
}

export type FilterOperator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'null' | 'in' | (string & {});
const SUFFIXES: Array<[string, FilterOperator]> = [
  ['_gte', 'gte'],
  ['_lte', 'lte'],
  ['_gt', 'gt'],
  ['_lt', 'lt'],
  ['_neq', 'neq'],
  ['_like', 'like'],
  ['_null', 'null'],
];
const MAX_PER_PAGE = 1_000;
/** Sorts of one list, at most (a saved view keeps as many). */
export const MAX_SORTS = 5;
const COMMON_COLUMNS: Record<string, FieldSpec> = {
  id: { kind: 'integer' },
  created_at: { kind: 'datetime' },
  updated_at: { kind: 'datetime' },
  deleted_at: { kind: 'datetime' },
};

/** Every resource's table has id, created_at and updated_at; deleted_at only where records are soft deleted. */
const hasCommonColumn = (def: ResourceDefinition, name: string) => name !== 'deleted_at' || def.softDelete;

/**
 * Reads Laravel/react-admin style list parameters: page, per_page, sort, order, search or q,
 * filter[field]=value or filter={"field": value}, field suffixes _gte _lte _gt _lt _neq _like _null,
 * with_trashed / only_trashed; `filters=` the view filters' AND/OR groups (filters/filter-tree.ts).
 */
export function parseListQuery(raw: Record<string, unknown>, def: ResourceDefinition): ListQuery {
  const errors: Record<string, string[]> = {};
  const page = toInt(raw.page, 1);
  const perPage = toInt(raw.per_page ?? raw.perPage, 25);
  if (!Number.isInteger(page) || page < 1) errors.page = ['The page must be 1 or more.'];
  if (perPage !== -1 && !(perPage >= 1 && perPage <= MAX_PER_PAGE))
    errors.per_page = [`The per page must be between 1 and ${MAX_PER_PAGE}, or -1 for all.`];

  // `sort=type,-bid_date` (several sorts, the first deciding first); `order` the first's order, or one per sort.
  const orders = String(raw.order ?? '')
    .toLowerCase()
    .split(',');
  const firstOrder = orders[0] || (def.defaultSort?.order ?? 'asc');
  const sorts = String(raw.sort ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item, index) => {
      const descending = item.startsWith('-');
      const order = descending ? 'desc' : index === 0 ? firstOrder : orders[index] || 'asc';
      return { field: descending ? item.slice(1) : item, order };
    });
  if (!sorts.length)
    sorts.push({
      field: def.defaultSort?.field ?? 'id',
      order: firstOrder,
    });
  if (sorts.length > MAX_SORTS) errors.sort = [`A list sorts by at most ${MAX_SORTS} fields.`];
  if (sorts.some((sort) => sort.order !== 'asc' && sort.order !== 'desc'))
    errors.order = ['The order must be asc or desc.'];
  const [{ field: sortField, order }] = sorts;

  const filterInput: Record<string, unknown> = {};
  if (typeof raw.filter === 'string' && raw.filter.trim().startsWith('{')) {
    try {
      Object.assign(filterInput, JSON.parse(raw.filter));
    } catch {
      errors.filter = ['The filter must be a JSON object.'];
    }
  } else if (raw.filter && typeof raw.filter === 'object') {
    Object.assign(filterInput, raw.filter);
  }
  for (const [key, value] of Object.entries(raw)) {
    const match = /^filter\[([^\]]+)\](\[\])?$/.exec(key);
    if (match) filterInput[match[1]] = match[2] && !Array.isArray(value) ? [value] : value;
  }
  let search = typeof raw.search === 'string' ? raw.search : null;
  if (typeof filterInput.q === 'string') search = filterInput.q;
  delete filterInput.q;
  if (search && search.length > 200) errors.search = ['The search may not be longer than 200 characters.'];

  const filters: ListQuery['filters'] = [];
  for (const [key, value] of Object.entries(filterInput)) {
    if (value === undefined || value === '') continue;
    let field = key;
    let operator: FilterOperator = Array.isArray(value) ? 'in' : 'eq';
    for (const [suffix, op] of SUFFIXES) {
      if (key.endsWith(suffix) && !(key in def.fields)) {
        field = key.slice(0, -suffix.length);
        operator = op;
        break;
      }
    }
    filters.push({ field, operator, value });
  }
  // A common column the resource's table lacks (deleted_at without soft delete) is refused by name, never sent to SQL.
  const lacks = (name: string) => name in COMMON_COLUMNS && !(name in def.fields) && !hasCommonColumn(def, name);
  for (const filter of filters)
    if (lacks(filter.field)) (errors.filter ??= []).push(`You cannot filter by "${filter.field}".`);
  for (const sort of sorts) if (lacks(sort.field)) errors.sort = [`You cannot sort by "${sort.field}".`];

  let where: FilterGroup | null = null;
  if (raw.filters !== undefined && raw.filters !== '') {
    try {
      where = parseFilterTree(raw.filters);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      Object.assign(errors, error.errors);
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const trashed = truthy(raw.only_trashed) ? 'only' : truthy(raw.with_trashed) ? 'with' : 'without';
  return {
    page,
    perPage,
    sort: { field: sortField, order: order as 'asc' | 'desc' },
    thenBy: sorts.slice(1) as ListQuery['thenBy'],
    search: search?.trim() || null,
    filters,
    where,
    trashed,
    estimateTotal: raw.total === 'estimate',
    cursor: typeof raw.cursor === 'string' && raw.cursor.length <= 200 ? raw.cursor : null,
  };
}

/** Where the previous page ended: its last row's id, and whether that row was among those without a sort value. */
export interface PageEnd {
  id: number;
  missing: boolean;
}

/**
 * What a page's `next_cursor` stands for: the list it belongs to (its sort, filters, search and page size, hashed),
 * the page it leads to, and where the page before it ended. Opaque to clients.
 */
const listSignature = (query: ListQuery) =>
  createHash('sha1')
    .update(
      JSON.stringify([
        query.sort,
        query.thenBy,
        query.filters,
        query.where,
        query.search,
        query.trashed,
        query.perPage,
      ]),
    )
    .digest('base64url')
    .slice(0, 12);

export function pageCursor(query: ListQuery, end: PageEnd): string {
  const body = { h: listSignature(query), p: query.page + 1, i: end.id, m: end.missing ? 1 : 0 };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/**
 * Where the page a cursor leads to starts, or null when the cursor is not for this list and page (another sort,
 * filter or page size, an edited link): the page is then found by its offset, as without a cursor.
 */
export function cursorStart(query: ListQuery): PageEnd | null {
  if (!query.cursor || query.perPage === -1) return null;
  try {
    const body = JSON.parse(Buffer.from(query.cursor, 'base64url').toString('utf8'));
    if (body?.h !== listSignature(query) || body.p !== query.page || !Number.isSafeInteger(body.i)) return null;
    return { id: body.i, missing: body.m === 1 };
  } catch {
    return null;
  }
}

function toInt(value: unknown, fallback: number) {
  if (value === undefined || value === null || value === '') return fallback;
  const n = Number(value);
  return Number.isInteger(n) ? n : Number.NaN;
}
const truthy = (v: unknown) => v === '1' || v === 'true' || v === true;

/** The `sql` tag the field-type modules write their SQL with (common/field-types/define.ts `Sql`). */
const SQL = sql as unknown as Sql;
const raw = (fragment: SqlFragment | null) => fragment as unknown as RawBuilder<unknown>;

/**
 * How to reach a field in SQL: a column of `t`, or a key of `t.custom`. The key is written as a literal (never a
 * parameter) so the expression indexes made for custom fields (`customIndexExpression`) match it.
 */
export function fieldExpression(field: string, spec: FieldSpec, alias: string | null = 't'): RawBuilder<unknown> {
  return raw(valueExpression(SQL, field, spec, alias));
}

/** What a list sorts by for a field: its type's sort key (common/field-types/sql.ts sortKey for most). */
export function sortExpression(field: string, spec: FieldSpec, alias: string | null = 't'): RawBuilder<unknown> {
  const key = moduleOfSpec(spec).sort?.key({ sql: SQL, field, spec, alias: alias ?? '' });
  return key ? raw(key) : fieldExpression(field, spec, alias);
}

/**
 * A sort by this field as the rank of its stored value (a choice, a list's slug: sql.ts ranksChoices): that value, and
 * the rank of any value; undefined when its sort is no rank.
 */
export function choiceRanking(field: string, spec: FieldSpec, alias: string | null = 't'): ChoiceRanking | undefined {
  if (moduleOfSpec(spec).sort?.key !== STANDARD_SORT.key || !ranksChoices(spec)) return undefined;
  return {
    value: fieldExpression(field, spec, alias),
    rankOf: (value) => raw(choiceRank(SQL, spec, value as unknown as SqlFragment)),
    offered: raw(offeredChoices(SQL, spec)),
  };
}

export interface ChoiceRanking {
  value: RawBuilder<unknown>;
  rankOf(value: RawBuilder<unknown>): RawBuilder<unknown>;
  /** The values offered, as a query of one column, `value`. */
  offered: RawBuilder<unknown>;
}

/**
 * Whether a filter holds the sort's key to one value (`priority = high`, sorted by priority): every match then has
 * the same key, and the list is in `id` order, which needs no sort of the matches and no index on the key.
 */
export function sortKeyPinned(field: string, spec: FieldSpec, filters: ListQuery['filters']): boolean {
  if (typeof spec.storage === 'object' || ARRAY_KINDS.has(spec.kind)) return false;
  return filters.some(
    (filter) =>
      filter.field === field &&
      (filter.operator === 'eq' ||
        (filter.operator === 'in' && Array.isArray(filter.value) && filter.value.length === 1)),
  );
}

/**
 * The key of the index a list's sort by this field needs (`sortExpression` without the table's alias), or null when
 * no plain index can serve it (its type's sort says: common/field-types/sql.ts STANDARD_SORT for most).
 */
export function sortIndexExpression(field: string, spec: FieldSpec): RawBuilder<unknown> | null {
  const index = moduleOfSpec(spec).sort?.index({ sql: SQL, field, spec });
  return index ? raw(index) : null;
}

/** The expression to index for a custom field so its filters (and sorts) use the index (its type's `filterIndex`). */
export function customIndexExpression(field: string, spec: FieldSpec): RawBuilder<unknown> | null {
  const index = moduleOfSpec(spec).filterIndex({ sql: SQL, field, spec });
  return index ? raw(index) : null;
}

/**
 * The condition of `search` / `q`: the type's search columns as one text (one trigram index serves it), or a
 * custom field marked searchable (each its own trigram index; the planner ORs the indexes).
 */
export function searchCondition(
  columns: readonly string[],
  fields: Record<string, FieldSpec>,
  pattern: string,
): RawBuilder<boolean> {
  const custom = Object.entries(fields).filter(([, spec]) => spec.searchable && spec.storage === 'custom');
  const parts = [
    sql<boolean>`${searchExpression(columns)} ilike ${pattern}`,
    ...custom.map(([field, spec]) => sql<boolean>`${fieldExpression(field, spec)} ilike ${pattern}`),
  ];
  return parts.length === 1 ? parts[0] : sql<boolean>`(${sql.join(parts, sql` or `)})`;
}

/** What `search` / `q` matches: the search columns as one text, so one trigram index serves it (docs/records.md). */
export function searchExpression(columns: readonly string[], alias: string | null = 't'): RawBuilder<string> {
  const parts = columns.map(
    (column) => sql`coalesce(${sql.ref(alias ? `${alias}.${column}` : column)}::text, ${sql.lit('')})`,
  );
  return sql<string>`(${sql.join(parts, sql` || ${sql.lit(' ')} || `)})`;
}

export function resolveField(field: string, fields: Record<string, FieldSpec>, what: 'filter' | 'sort'): FieldSpec {
  const spec = fields[field] ?? COMMON_COLUMNS[field];
  const allowed =
    spec &&
    (what === 'filter' ? spec.filterable !== false : spec.sortable !== false && typeof spec.storage !== 'object');
  if (!allowed) throw new ValidationError({ [what]: [`You cannot ${what} by "${field}".`] });
  return spec;
}

/**
 * The sort a list runs for `sort`: by a formula that moves with one date (FieldSpec movesWith: days to or from
 * TODAY(), which no index holds), by that date instead, whose index serves it, turned round when the formula falls as
 * the date rises. A missing value is missing in both, so it stays last. The date must be one the reader sees.
 */
export function sortRun(sort: ListQuery['sort'], fields: Record<string, FieldSpec>): ListQuery['sort'] {
  const moves = fields[sort.field]?.movesWith;
  if (!moves || !fields[moves.field]) return sort;
  return { field: moves.field, order: moves.rising === (sort.order === 'asc') ? 'asc' : 'desc' };
}

/**
 * The SQL condition of one filter: the operator of the field's type (common/field-types/, `filters`); values are
 * always bound parameters. An operator the type has not, or a value it cannot compare, is refused (422 on `filter`).
 */
export function filterCondition(
  filter: ListQuery['filters'][number],
  spec: FieldSpec,
  userId?: number | null,
): RawBuilder<unknown> {
  const operator = moduleOfSpec(spec).filters[filter.operator];
  if (!operator) throw new ValidationError({ filter: [`You cannot filter ${filter.field} by ${filter.operator}.`] });
  try {
    return raw(operator.sql({ sql: SQL, field: filter.field, spec, value: filter.value, alias: 't', userId }));
  } catch (error) {
    if (error instanceof FilterValueError) throw new ValidationError({ filter: [error.message] });
    throw error;
  }
}

export { escapeLike };

/** A search with up to this many matches is counted and put in order in one pass (readPage). */
export const ONE_PASS_MATCHES = 10_000;

/**
 * A list limited to a person's turf with up to this many matches is counted and put in order in one pass (readPage):
 * the turf is a part of the table no sort index follows, so walking the sort's index may read many rows outside it
 * before a page is full (docs/benchmarks.md "Turf"); its rows are found by their index instead, and read once.
 */
export const TURF_ONE_PASS_MATCHES = 20_000;

/**
 * Lists count their matches exactly up to this many; past it the total is the planner's estimate (at least this
 * many and one), flagged `total_estimated` in the answer, and the list says "about" (readPage).
 */
export const EXACT_TOTAL_UP_TO = 10_000;

/**
 * The exact total and the rows of one page of `base` (the rows a list may show, its filters and search applied, as
 * `t`), in `sort` order with `id` breaking ties.
 * - With `onePass` (a search: ONE_PASS_MATCHES; a turf: TURF_ONE_PASS_MATCHES), one query reads up to that many
 *   matches once, counts them and picks the page's ids; the page's rows are then read by id. The key is read from
 *   `storedKey` when the row keeps it (ResourceDefinition.storedSortKeys), not computed per match. A trigram index only
 *   points at candidate rows, so counting a search reads every match anyway: picking the page in the same pass costs
 *   little and saves scanning the index a second time.
 * - Otherwise, or past `onePass` matches (the first query stops there): `count(*)`, then the page in order, which the
 *   sort's index serves without reading every match (pageInParts; docs/records.md "Indexes and speed").
 * - `perPage` -1: every match in order, counted as they come.
 * With `estimateTotal`, counting stops at EXACT_TOTAL_UP_TO + 1 matches: a total past it is estimated (`estimated`,
 * see countMatches).
 * `after`: where the page before ended (a `cursor=`, cursorStart): the page is sought from there in the sort's index
 * (pageAfter) rather than read past `offset` rows, so page 100 costs what page 1 does. `end`, where a full page read
 * this way or by pageInParts ends, makes the next page's cursor (pageCursor).
 */
export async function readPage(
  db: Kysely<DB>,
  table: string,
  base: SelectQueryBuilder<any, any, any>,
  sort: { key: RawBuilder<unknown>; order: 'asc' | 'desc'; storedKey?: RawBuilder<unknown> },
  page: {
    page: number;
    perPage: number;
    onePass: number;
    estimateTotal?: boolean;
    after?: PageEnd | null;
    keptTotals?: KeptTotals | null;
  },
): Promise<{ total: number; estimated: boolean; rows: Record<string, any>[]; end?: PageEnd }> {
  const order = sql.raw(sort.order);
  const inOrder = () => base.selectAll('t').orderBy(sql`${sort.key} ${order} nulls last`).orderBy('t.id', sort.order);
  if (page.perPage === -1) {
    const rows = await inOrder().execute();
    return { total: rows.length, estimated: false, rows };
  }
  const offset = (page.page - 1) * page.perPage;
  if (page.onePass) {
    const matches = base
      .select([sql`t.id`.as('id'), sql`${sort.storedKey ?? sort.key}`.as('k')])
      .limit(page.onePass + 1);
    const first = await sql<{ total: number; ids: number[] }>`
      with m as (${matches})
      select (select count(*) from m) as total,
        array(select id from m order by k ${order} nulls last, id ${order} limit ${page.perPage} offset ${offset}) as ids`.execute(
      db,
    );
    const { total, ids } = first.rows[0];
    if (total <= page.onePass) {
      if (!ids.length) return { total, estimated: false, rows: [] };
      const found = await dynamicTables(db)
        .selectFrom(`${table} as t`)
        .selectAll('t')
        .where('t.id', 'in', ids)
        .execute();
      // Keyed as text: a bigint id may come back as text in the array and as a number in the row.
      const byId = new Map(found.map((row) => [String(row.id), row]));
      return {
        total,
        estimated: false,
        rows: ids.map((id) => byId.get(String(id))).filter((row) => row !== undefined),
      };
    }
  }
  const { total, estimated } = await countMatches(db, base, page.estimateTotal ?? false, page.keptTotals);
  const sought = page.after ? await pageAfter(db, table, base, sort, page.perPage, page.after) : null;
  const { rows, end } = sought ?? (await pageInParts(base, sort, page.perPage, offset, { table: { db, name: table } }));
  return { total, estimated, rows, ...(end ? { end } : {}) };
}

/**
 * How many rows `base` finds, exactly; or, when the list may take an estimate (`estimate`), counted up to
 * EXACT_TOTAL_UP_TO + 1 (the count stops there instead of reading every match), past that the planner's estimate of
 * the rows, never less than what was counted.
 */
export async function countMatches(
  db: Kysely<DB>,
  base: SelectQueryBuilder<any, any, any>,
  estimate: boolean,
  kept: KeptTotals | null = null,
): Promise<ListTotal> {
  const statement = sql<{ count: number }>`select ${countOf(base, estimate)} as count`.compile(db);
  const count = async () => {
    const counted = await db.executeQuery(statement);
    return totalFromCount(db, base, Number(counted.rows[0]?.count ?? 0), estimate);
  };
  return kept ? kept.of(db, statement, count) : count();
}

/**
 * The count of `countMatches` as a subquery, for a statement that asks it along with something else (a page): every
 * row, or with `estimate` up to EXACT_TOTAL_UP_TO + 1. `totalFromCount` then makes the total of it.
 */
export function countOf(base: SelectQueryBuilder<any, any, any>, estimate: boolean): RawBuilder<number> {
  if (!estimate) return sql<number>`(select count(*) from (${base.select(sql`1`.as('one'))}) m)`;
  return sql<number>`(select count(*) from (${base.select(sql`1`.as('one')).limit(EXACT_TOTAL_UP_TO + 1)}) m)`;
}

/** The total of a count made by `countOf`: itself, or past EXACT_TOTAL_UP_TO (with `estimate`) the planner's estimate. */
export async function totalFromCount(
  db: Kysely<DB>,
  base: SelectQueryBuilder<any, any, any>,
  counted: number,
  estimate: boolean,
): Promise<{ total: number; estimated: boolean }> {
  if (!estimate || counted <= EXACT_TOTAL_UP_TO) return { total: counted, estimated: false };
  const compiled = base.select(sql`1`.as('one')).compile();
  const plan = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
  );
  const raw = Object.values(plan.rows[0] ?? {})[0];
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as
    | Array<{ Plan?: { 'Plan Rows'?: number } }>
    | undefined;
  const rows = Number(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
  return { total: Math.max(counted, Math.round(rows)), estimated: true };
}

/**
 * How pageInParts reads a part: `table`, the table `base` reads as `t`, whose rows a page past others is read from by
 * id; `id`, the column that breaks ties, when `base` reads another table's index of the rows (access/turf-page.ts);
 * `idsOnly`, only that column.
 */
export interface PartRead {
  table: { db: Kysely<DB>; name: string };
  id?: string;
  idsOnly?: boolean;
}

/**
 * One page in `sort` order with missing values last, in two parts: the rows with a value ordered `key, id` the way
 * asked, then the rows without one. Each part's order is that of the sort's index `(key, id)` read forwards (asc,
 * where missing values come last) or backwards (desc, where they would come first), so one index per column serves
 * both orders and each query stops at the page's end instead of sorting every match (schemas/indexes.ts
 * ensureSortIndexes). The second part is read only by the page where the values run out or after it.
 */
export async function pageInParts(
  base: SelectQueryBuilder<any, any, any>,
  sort: { key: RawBuilder<unknown>; order: 'asc' | 'desc' },
  perPage: number,
  offset: number,
  read: PartRead,
) {
  const { id = 't.id', idsOnly = false, table } = read;
  const order = sql.raw(sort.order);
  const column = id.slice(id.indexOf('.') + 1);
  const inOrder = (query: SelectQueryBuilder<any, any, any>) =>
    query.orderBy(sql`${sort.key} ${order}`).orderBy(id, sort.order);
  const part = (missing: boolean, limit: number, skip: number): Promise<Record<string, any>[]> => {
    const ordered = inOrder(base.where(sql<boolean>`${sort.key} is ${sql.raw(missing ? 'null' : 'not null')}`))
      .limit(limit)
      .offset(skip);
    if (idsOnly) return ordered.select(sql.ref(id).as(column)).execute();
    if (skip === 0) return ordered.selectAll('t').execute();
    // Past other rows, the page's ids are picked first and then their rows read by id, in one statement: the rows
    // passed over are then walked in an index alone where one holds what the list filters (migration 090), not each
    // read from the table (docs/benchmarks.md "Views"). The ids met every filter and rule already: the rows are not
    // filtered again (a search's again would be a second search).
    const rows = dynamicTables(table.db)
      .selectFrom(`${table.name} as t`)
      .selectAll('t')
      .where('t.id', 'in', ordered.select(sql.ref(id).as(column)));
    return inOrder(rows).execute();
  };
  const valued = await part(false, perPage, offset);
  if (valued.length === perPage) return { rows: valued, end: pageEnd(valued, false, id) };
  // How many rows have a value: this page shows the last of them, or (a page past them) they are counted.
  const withValue =
    valued.length || offset === 0
      ? offset + valued.length
      : Number(
          (
            await base
              .where(sql<boolean>`${sort.key} is not null`)
              .select(sql<number>`count(*)`.as('count'))
              .executeTakeFirst()
          )?.count ?? 0,
        );
  const missing = await part(true, perPage - valued.length, Math.max(0, offset - withValue));
  const rows = [...valued, ...missing];
  return { rows, end: rows.length === perPage ? pageEnd(rows, missing.length > 0, id) : undefined };
}

/** Where a full page ends: its last row, and whether that row had no sort value. */
function pageEnd(rows: Record<string, any>[], missing: boolean, id: string): PageEnd | undefined {
  const last = Number(rows.at(-1)?.[id.slice(id.indexOf('.') + 1)]);
  return Number.isSafeInteger(last) ? { id: last, missing } : undefined;
}

/**
 * The page after `after` (where the page before it ended), sought in the sort's index as pageInParts reads it: the
 * rows with a value past the last row's `(key, id)`, its key read from that row (compared as the list computes it,
 * never a copy that lost precision), then the rows without a value, past its id when it was one of them. Null when
 * that row is gone (deleted for good): the caller reads the page by its offset instead.
 */
async function pageAfter(
  db: Kysely<DB>,
  table: string,
  base: SelectQueryBuilder<any, any, any>,
  sort: { key: RawBuilder<unknown>; order: 'asc' | 'desc' },
  perPage: number,
  after: PageEnd,
): Promise<{ rows: Record<string, any>[]; end?: PageEnd } | null> {
  const order = sql.raw(sort.order);
  const past = sort.order === 'asc' ? '>' : '<';
  const part = (missing: boolean) =>
    base
      .selectAll('t')
      .where(sql<boolean>`${sort.key} is ${sql.raw(missing ? 'null' : 'not null')}`)
      .orderBy(sql`${sort.key} ${order}`)
      .orderBy('t.id', sort.order);
  let valued: Record<string, any>[] = [];
  if (!after.missing) {
    const lastKey = sql`(select ${sort.key} from ${sql.table(table)} as t where t.id = ${after.id})`;
    valued = await part(false)
      .where(sql<boolean>`(${sort.key}, t.id) ${sql.raw(past)} (${lastKey}, ${after.id})`)
      .limit(perPage)
      .execute();
    if (valued.length === perPage) return { rows: valued, end: pageEnd(valued, false, 't.id') };
    const still = await dynamicTables(db)
      .selectFrom(`${table} as t`)
      .select('t.id')
      .where('t.id', '=', after.id)
      .executeTakeFirst();
    if (!still) return null;
  }
  let rest = part(true).limit(perPage - valued.length);
  if (after.missing) rest = rest.where('t.id', past, after.id);
  const missing = await rest.execute();
  const rows = [...valued, ...missing];
  return { rows, end: rows.length === perPage ? pageEnd(rows, missing.length > 0, 't.id') : undefined };
}
