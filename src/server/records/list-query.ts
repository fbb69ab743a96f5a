import { CompiledQuery, type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { ValidationError } from '../http/errors.js';
import type { FieldSpec, ResourceDefinition } from './resource.js';

export interface ListQuery {
  page: number;
  perPage: number; // -1 = all
  sort: { field: string; order: 'asc' | 'desc' };
  search: string | null;
  filters: Array<{ field: string; operator: FilterOperator; value: unknown }>;
  trashed: 'without' | 'with' | 'only';
  /** `total=estimate`: past EXACT_TOTAL_UP_TO matches the total may be an estimate (the generated lists ask so). */
  estimateTotal: boolean;
}

export type FilterOperator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'null' | 'in';
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
 * with_trashed / only_trashed.
 */
export function parseListQuery(raw: Record<string, unknown>, def: ResourceDefinition): ListQuery {
  const errors: Record<string, string[]> = {};
  const page = toInt(raw.page, 1);
  const perPage = toInt(raw.per_page ?? raw.perPage, 25);
  if (!Number.isInteger(page) || page < 1) errors.page = ['The page must be 1 or more.'];
  if (perPage !== -1 && !(perPage >= 1 && perPage <= MAX_PER_PAGE))
    errors.per_page = [`The per page must be between 1 and ${MAX_PER_PAGE}, or -1 for all.`];

  let sortField = String(raw.sort ?? def.defaultSort?.field ?? 'id');
  let order = String(raw.order ?? def.defaultSort?.order ?? 'asc').toLowerCase();
  if (sortField.startsWith('-')) {
    sortField = sortField.slice(1);
    order = 'desc';
  }
  if (order !== 'asc' && order !== 'desc') errors.order = ['The order must be asc or desc.'];

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
  if (lacks(sortField)) errors.sort = [`You cannot sort by "${sortField}".`];

  if (Object.keys(errors).length) throw new ValidationError(errors);
  const trashed = truthy(raw.only_trashed) ? 'only' : truthy(raw.with_trashed) ? 'with' : 'without';
  return {
    page,
    perPage,
    sort: { field: sortField, order: order as 'asc' | 'desc' },
    search: search?.trim() || null,
    filters,
    trashed,
    estimateTotal: raw.total === 'estimate',
  };
}

function toInt(value: unknown, fallback: number) {
  if (value === undefined || value === null || value === '') return fallback;
  const n = Number(value);
  return Number.isInteger(n) ? n : Number.NaN;
}
const truthy = (v: unknown) => v === '1' || v === 'true' || v === true;

const ARRAY_KINDS = new Set(['enum[]', 'integer[]', 'json']);

/**
 * How to reach a field in SQL: a column of `t`, or a key of `t.custom`. The key is written as a literal (never a
 * parameter) so the expression indexes made for custom fields (`customIndexExpression`) match it.
 */
export function fieldExpression(field: string, spec: FieldSpec, alias: string | null = 't'): RawBuilder<unknown> {
  if (spec.storage === 'custom') {
    const custom = sql.ref(alias ? `${alias}.custom` : 'custom');
    if (ARRAY_KINDS.has(spec.kind)) return sql`(${custom} -> ${sql.lit(field)})`;
    const text = sql`(${custom} ->> ${sql.lit(field)})`;
    if (spec.kind === 'number' || spec.kind === 'integer') return sql`(${text})::numeric`;
    if (spec.kind === 'boolean') return sql`(${text})::boolean`;
    return text;
  }
  return sql.ref(alias ? `${alias}.${field}` : field);
}

/** Text kinds sort and filter without case (`lower`), as people read them. */
const CASELESS_KINDS = new Set(['text', 'email']);

/**
 * What a list sorts by for a field: what people see, not how it is stored. Text without case (the expression the
 * custom fields' indexes and the name sort index hold), choices in the order the field gives them, a slug of a
 * list administrators extend (site type) in that list's order; other kinds by their value.
 */
export function sortExpression(field: string, spec: FieldSpec, alias: string | null = 't'): RawBuilder<unknown> {
  const value = fieldExpression(field, spec, alias);
  if (spec.kind === 'enum' && spec.options?.length) {
    // The choices as literals, not parameters: the query's expression must be the rank index's (sortIndexExpression).
    const ranks = spec.options.map((option, rank) => sql` when ${sql.lit(option)} then ${sql.lit(rank)}`);
    return sql`(case ${value}${sql.join(ranks, sql``)} end)`;
  }
  if (spec.slugOf)
    return sql`(select l.position from ${sql.table(spec.slugOf)} l where l.slug = ${value} and l.deleted_at is null)`;
  if (CASELESS_KINDS.has(spec.kind) && typeof spec.storage !== 'object') return sql`lower((${value})::text)`;
  return value;
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

/** Longest text (characters) a sort index holds: a btree entry takes at most about 2,700 bytes. */
const LONGEST_SORTED_TEXT = 500;

/**
 * The key of the index a list's sort by this field needs (`sortExpression` without the table's alias), or null when
 * no plain index can serve it: list slugs sort by their rank in another table, lists of ids and JSON do not sort,
 * long text does not fit an index entry. Choices sort by their rank, a `case` over the choices: its index is made
 * again when the choices change (schemas/indexes.ts sortKeyVersion).
 */
export function sortIndexExpression(field: string, spec: FieldSpec): RawBuilder<unknown> | null {
  if (typeof spec.storage === 'object' || spec.storage === 'virtual' || spec.sortable === false) return null;
  if (spec.slugOf || ARRAY_KINDS.has(spec.kind) || (spec.kind === 'enum' && !spec.options?.length)) return null;
  if (CASELESS_KINDS.has(spec.kind) && !(spec.max !== undefined && spec.max <= LONGEST_SORTED_TEXT)) return null;
  return sortExpression(field, spec, null);
}

/** The expression to index for a custom field so its filters (and sorts) use the index; see fieldExpression. */
export function customIndexExpression(field: string, spec: FieldSpec): RawBuilder<unknown> | null {
  if (spec.storage !== 'custom' || ARRAY_KINDS.has(spec.kind)) return null; // arrays: the GIN index on custom
  const expression = fieldExpression(field, spec, null);
  // Text and e-mail filters compare lower-cased (filterCondition 'eq').
  return CASELESS_KINDS.has(spec.kind) ? sql`lower((${expression})::text)` : expression;
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

/** Builds the SQL condition for one filter; values are always bound parameters. */
export function filterCondition(filter: ListQuery['filters'][number], spec: FieldSpec): RawBuilder<unknown> {
  const { field, operator, value } = filter;
  if (typeof spec.storage === 'object') {
    const ids = (Array.isArray(value) ? value : [value]).map(Number).filter(Number.isInteger);
    const pivot = spec.storage;
    const constants = Object.entries(pivot.where ?? {}).map(
      ([column, constant]) => sql` and p.${sql.ref(column)} = ${constant}`,
    );
    return sql`exists (select 1 from ${sql.table(pivot.pivot)} p where p.${sql.ref(pivot.ownKey)} = t.id${sql.join(constants, sql``)} and p.${sql.ref(pivot.otherKey)} in (${sql.join(ids.length ? ids : [-1])}))`;
  }
  if (spec.storage === 'custom' && (spec.kind === 'enum[]' || spec.kind === 'integer[]') && operator !== 'null') {
    // {"slug": [value]} containment: served by the GIN index on `custom`.
    const list = (Array.isArray(value) ? value : [value]).map((v) =>
      castValue(v, { ...spec, kind: spec.kind === 'integer[]' ? 'integer' : 'text' }),
    );
    const contains = list.map((v) => sql`t.custom @> ${JSON.stringify({ [field]: [v] })}::jsonb`);
    const any = contains.length ? sql`(${sql.join(contains, sql` or `)})` : sql`false`;
    return operator === 'neq' ? sql`not ${any}` : any;
  }
  const column = fieldExpression(field, spec);
  const cast = (v: unknown) => castValue(v, spec);
  switch (operator) {
    case 'in': {
      const list = (value as unknown[]).map(cast);
      return list.length ? sql`${column} in (${sql.join(list)})` : sql`false`;
    }
    case 'eq':
      // The keys of a list (slugOf) are compared exactly, so the column's index serves the filter: the value was
      // made the stored key before (choice-keys.ts withChoiceKeys).
      if ((spec.kind === 'text' || spec.kind === 'email') && !spec.slugOf)
        return sql`lower(${column}::text) = lower(${String(value)})`;
      if (spec.kind === 'enum[]') return sql`${column} @> ${JSON.stringify([value])}::jsonb`;
      return sql`${column} = ${cast(value)}`;
    case 'neq':
      return sql`${column} is distinct from ${cast(value)}`;
    case 'gt':
      return sql`${column} > ${cast(value)}`;
    case 'gte':
      return sql`${column} >= ${cast(value)}`;
    case 'lt':
      return sql`${column} < ${cast(value)}`;
    case 'lte':
      return sql`${column} <= ${cast(value)}`;
    case 'like':
      return sql`${column}::text ilike ${'%' + escapeLike(String(value)) + '%'}`;
    case 'null':
      return truthy(value) ? sql`${column} is null` : sql`${column} is not null`;
  }
}

function castValue(value: unknown, spec: FieldSpec): unknown {
  switch (spec.kind) {
    case 'integer':
    case 'number': {
      const n = Number(value);
      if (!Number.isFinite(n))
        throw new ValidationError({ filter: [`The filter value "${String(value)}" must be a number.`] });
      return n;
    }
    case 'boolean':
      return truthy(value);
    case 'date':
    case 'datetime':
      if (Number.isNaN(Date.parse(String(value))))
        throw new ValidationError({ filter: [`The filter value "${String(value)}" must be a date.`] });
      return String(value);
    default:
      return String(value);
  }
}

export function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => '\\' + c);
}

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
 */
export async function readPage(
  db: Kysely<any>,
  table: string,
  base: SelectQueryBuilder<any, any, any>,
  sort: { key: RawBuilder<unknown>; order: 'asc' | 'desc'; storedKey?: RawBuilder<unknown> },
  page: { page: number; perPage: number; onePass: number; estimateTotal?: boolean },
): Promise<{ total: number; estimated: boolean; rows: Record<string, any>[] }> {
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
      const found = await db.selectFrom(`${table} as t`).selectAll('t').where('t.id', 'in', ids).execute();
      // Keyed as text: a bigint id may come back as text in the array and as a number in the row.
      const byId = new Map(found.map((row) => [String(row.id), row]));
      return {
        total,
        estimated: false,
        rows: ids.map((id) => byId.get(String(id))).filter((row) => row !== undefined),
      };
    }
  }
  const { total, estimated } = await countMatches(db, base, page.estimateTotal ?? false);
  const rows = await pageInParts(base, sort, page.perPage, offset);
  return { total, estimated, rows };
}

/**
 * How many rows `base` finds, exactly; or, when the list may take an estimate (`estimate`), counted up to
 * EXACT_TOTAL_UP_TO + 1 (the count stops there instead of reading every match), past that the planner's estimate of
 * the rows, never less than what was counted.
 */
export async function countMatches(
  db: Kysely<any>,
  base: SelectQueryBuilder<any, any, any>,
  estimate: boolean,
): Promise<{ total: number; estimated: boolean }> {
  if (!estimate) {
    const counted = await base.select(sql<number>`count(*)`.as('count')).executeTakeFirst();
    return { total: Number(counted?.count ?? 0), estimated: false };
  }
  const limited = base.select(sql`1`.as('one')).limit(EXACT_TOTAL_UP_TO + 1);
  const counted = await sql<{ count: number }>`select count(*) as count from (${limited}) m`.execute(db);
  const exact = Number(counted.rows[0]?.count ?? 0);
  if (exact <= EXACT_TOTAL_UP_TO) return { total: exact, estimated: false };
  const compiled = base.select(sql`1`.as('one')).compile();
  const plan = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
  );
  const raw = Object.values(plan.rows[0] ?? {})[0];
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as
    | Array<{ Plan?: { 'Plan Rows'?: number } }>
    | undefined;
  const rows = Number(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
  return { total: Math.max(exact, Math.round(rows)), estimated: true };
}

/**
 * One page in `sort` order with missing values last, in two parts: the rows with a value ordered `key, id` the way
 * asked, then the rows without one. Each part's order is that of the sort's index `(key, id)` read forwards (asc,
 * where missing values come last) or backwards (desc, where they would come first), so one index per column serves
 * both orders and each query stops at the page's end instead of sorting every match (schemas/indexes.ts
 * ensureSortIndexes). The second part is read only by the page where the values run out or after it. `id`: the
 * column that breaks ties, when `base` reads another table's index of the rows (regions/turf-page.ts).
 */
export async function pageInParts(
  base: SelectQueryBuilder<any, any, any>,
  sort: { key: RawBuilder<unknown>; order: 'asc' | 'desc' },
  perPage: number,
  offset: number,
  id = 't.id',
) {
  const order = sql.raw(sort.order);
  const part = (missing: boolean) =>
    base
      .selectAll('t')
      .where(sql<boolean>`${sort.key} is ${sql.raw(missing ? 'null' : 'not null')}`)
      .orderBy(sql`${sort.key} ${order}`)
      .orderBy(id, sort.order);
  const valued = await part(false).limit(perPage).offset(offset).execute();
  if (valued.length === perPage) return valued;
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
  const missing = await part(true)
    .limit(perPage - valued.length)
    .offset(Math.max(0, offset - withValue))
    .execute();
  return [...valued, ...missing];
}
