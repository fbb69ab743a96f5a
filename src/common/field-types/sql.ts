/**
 * The SQL the field types share, written once: where a field's value is (a column, a key of `custom`, a pivot
 * table), the standard filter operators of the list query (`filter[slug_gte]`...), the sort key and the indexes that
 * serve them. A type's module lists the operators and the sort it has (mostly these); the server passes kysely's
 * `sql` tag in (define.ts `Sql`), so values are always bound parameters and keys of `custom` are literals, as the
 * expression indexes hold them.
 */

import { dayIn, type RelativeDate, RelativeDateError, relativeSpan, spanInstants } from '../relative-dates.js';
import type {
  FieldSort,
  FieldSpec,
  FilterArgs,
  FilterIndex,
  FilterOperator,
  FilterOperators,
  Sql,
  SqlFragment,
} from './define.js';

/** A filter's value that cannot be compared with the field (a word for a number): the list answers 422 on `filter`. */
export class FilterValueError extends Error {}

/** Kinds whose value is a JSON list or object in `custom` (no plain expression index: the GIN index on `custom`). */
export const ARRAY_KINDS = new Set(['enum[]', 'integer[]', 'json']);

/** Text kinds sort and filter without case (`lower`), as people read them. */
export const CASELESS_KINDS = new Set(['text', 'email']);

const truthy = (v: unknown) => v === '1' || v === 'true' || v === true;

/**
 * How to reach a field in SQL: a column of `alias`, or a key of its `custom`. The key is written as a literal (never a
 * parameter) so the expression indexes made for custom fields match it. A number or yes/no of a type made in the app
 * (`schemaId`) is cast on that type's rows only: its indexes are over the whole shared `custom_records`, and a cast
 * of another type's text under the same key would fail every write to the table (docs/records.md "Indexes and speed").
 */
export function valueExpression(sql: Sql, field: string, spec: FieldSpec, alias: string | null = 't'): SqlFragment {
  if (spec.computed) return spec.computed(sql, alias);
  if (spec.storage === 'custom') {
    const custom = sql.ref(alias ? `${alias}.custom` : 'custom');
    if (ARRAY_KINDS.has(spec.kind)) return sql`(${custom} -> ${sql.lit(field)})`;
    const text = sql`(${custom} ->> ${sql.lit(field)})`;
    const typed =
      spec.kind === 'number' || spec.kind === 'integer'
        ? sql`(${text})::numeric`
        : spec.kind === 'boolean'
          ? sql`(${text})::boolean`
          : null;
    if (!typed) return text;
    if (spec.schemaId === undefined) return typed;
    // Rows of other types made in the app share the table and may hold text under this key: cast only this type's.
    const schemaId = sql.ref(alias ? `${alias}.schema_id` : 'schema_id');
    return sql`(case when ${schemaId} = ${sql.lit(spec.schemaId)} then ${typed} end)`;
  }
  return sql.ref(alias ? `${alias}.${field}` : field);
}

/** A filter's value as the field's kind compares it: numbers as numbers (else 422), yes/no, dates checked. */
export function filterValue(value: unknown, spec: Pick<FieldSpec, 'kind'>): unknown {
  switch (spec.kind) {
    case 'integer':
    case 'number': {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new FilterValueError(`The filter value "${String(value)}" must be a number.`);
      return n;
    }
    case 'boolean':
      return truthy(value);
    case 'date':
    case 'datetime':
      if (Number.isNaN(Date.parse(String(value))))
        throw new FilterValueError(`The filter value "${String(value)}" must be a date.`);
      // A date-time as it is stored (records/fields.ts: ISO in UTC), so text in `custom` compares in time order.
      return spec.kind === 'datetime' ? new Date(String(value)).toISOString() : String(value);
    default:
      return String(value);
  }
}

export function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const listOf = (value: unknown) => (Array.isArray(value) ? value : [value]);

/** A pivot field (ids in a link table, e.g. tag_ids): records linked to any of the ids. */
function pivotHolds({ sql, spec, value, alias }: FilterArgs): SqlFragment {
  const pivot = spec.storage as Exclude<FieldSpec['storage'], string | undefined>;
  const ids = listOf(value).map(Number).filter(Number.isInteger);
  const constants = Object.entries(pivot.where ?? {}).map(
    ([column, constant]) => sql` and p.${sql.ref(column)} = ${constant}`,
  );
  return sql`exists (select 1 from ${sql.table(pivot.pivot)} p where p.${sql.ref(pivot.ownKey)} = ${sql.ref(`${alias}.id`)}${sql.join(constants, sql``)} and p.${sql.ref(pivot.otherKey)} in (${sql.join(ids.length ? ids : [-1])}))`;
}

/** A list in `custom` (several choices, ids): `{"slug": [value]}` containment, served by the GIN index on `custom`. */
function listHolds({ sql, field, spec, value, alias }: FilterArgs): SqlFragment {
  const item = { ...spec, kind: spec.kind === 'integer[]' ? 'integer' : 'text' } as const;
  const contains = listOf(value).map(
    (v) => sql`${sql.ref(`${alias}.custom`)} @> ${JSON.stringify({ [field]: [filterValue(v, item)] })}::jsonb`,
  );
  return contains.length ? sql`(${sql.join(contains, sql` or `)})` : sql`false`;
}

const isPivot = (spec: FieldSpec) => typeof spec.storage === 'object';
/** Free text compared without case (`eq`, `neq`); the keys of a list (slugOf) are compared exactly. */
const isCaselessText = (spec: FieldSpec) => (spec.kind === 'text' || spec.kind === 'email') && !spec.slugOf;
const isCustomList = (spec: FieldSpec) =>
  spec.storage === 'custom' && (spec.kind === 'enum[]' || spec.kind === 'integer[]');

/**
 * An operator comparing the field's value; pivots (every operator) and lists in `custom` hold a value instead (any of
 * the values asked for; `neq`: none of them).
 */
function comparing(
  label: string,
  takes: FilterOperator['takes'],
  compare: (args: FilterArgs, column: SqlFragment) => SqlFragment,
): FilterOperator {
  return {
    label,
    takes,
    sql(args) {
      if (isPivot(args.spec)) return pivotHolds(args);
      if (isCustomList(args.spec)) return listHolds(args);
      return compare(args, valueExpression(args.sql, args.field, args.spec, args.alias));
    },
  };
}

const cast = (args: FilterArgs) => filterValue(args.value, args.spec);

/**
 * Whether `eq` on this field finds what `in` finds for the same values, one by one: then `a is x or a is y` in a view's
 * filters is compiled as one `in (x, y)` (server filters/compile-filter.ts), which an index scan serves alone, where
 * PostgreSQL before 18 reads the rows of `a = x or a = y` from the table. Not for text compared without case, lists of values
 * or pivots, whose `eq` is not a plain comparison.
 */
export const eqIsOneOf = (spec: FieldSpec) =>
  !isPivot(spec) && !isCustomList(spec) && !isCaselessText(spec) && !ARRAY_KINDS.has(spec.kind);

/** The list query's operators (docs/records.md "Lists"), for every kind of value. */
export const STANDARD_FILTERS: FilterOperators = {
  eq: comparing('is', 'one', (args, column) => {
    const { sql, spec, value } = args;
    // The keys of a list (slugOf) are compared exactly, so the column's index serves the filter: the value was
    // made the stored key before (records/choice-keys.ts withChoiceKeys).
    if (isCaselessText(spec)) return sql`lower(${column}::text) = lower(${String(value)})`;
    if (spec.kind === 'enum[]') return sql`${column} @> ${JSON.stringify([value])}::jsonb`;
    return sql`${column} = ${cast(args)}`;
  }),
  neq: {
    label: 'is not',
    takes: 'one',
    sql(args) {
      if (isPivot(args.spec)) return pivotHolds(args);
      if (isCustomList(args.spec)) return args.sql`not ${listHolds(args)}`;
      const column = valueExpression(args.sql, args.field, args.spec, args.alias);
      if (isCaselessText(args.spec))
        return args.sql`lower(${column}::text) is distinct from lower(${String(args.value)})`;
      return args.sql`${column} is distinct from ${cast(args)}`;
    },
  },
  gt: comparing('is more than', 'one', (args, column) => args.sql`${column} > ${cast(args)}`),
  gte: comparing('is at least', 'one', (args, column) => args.sql`${column} >= ${cast(args)}`),
  lt: comparing('is less than', 'one', (args, column) => args.sql`${column} < ${cast(args)}`),
  lte: comparing('is at most', 'one', (args, column) => args.sql`${column} <= ${cast(args)}`),
  like: comparing(
    'contains',
    'one',
    (args, column) => args.sql`${column}::text ilike ${`%${escapeLike(String(args.value))}%`}`,
  ),
  // `X_null=true` means what the view filters' `empty`/`has_none` mean (one meaning for every kind): a list of related
  // records or choices with nothing in it is empty too, not only a missing column.
  null: {
    label: 'is empty',
    takes: 'flag',
    sql: (args) => (truthy(args.value) ? holdsNothing(args) : args.sql`not ${holdsNothing(args)}`),
  },
  in: comparing('is one of', 'list', (args, column) => {
    const list = listOf(args.value).map((v) => filterValue(v, args.spec));
    return list.length ? args.sql`${column} in (${args.sql.join(list)})` : args.sql`false`;
  }),
};

/** Whether a field holds nothing: no value, an empty text, an empty list, no linked id in its pivot table. */
function holdsNothing(args: FilterArgs): SqlFragment {
  const { sql, spec, alias } = args;
  if (isPivot(spec)) return sql`not ${pivotHoldsAny(args)}`;
  const column = valueExpression(sql, args.field, spec, alias);
  if (ARRAY_KINDS.has(spec.kind))
    return sql`(${column} is null or ${column} = ${'[]'}::jsonb or ${column} = ${'null'}::jsonb)`;
  if (['text', 'email', 'phone', 'url', 'color'].includes(spec.kind))
    return sql`(${column} is null or ${column}::text = '')`;
  return sql`${column} is null`;
}

/** A pivot field holding at least one id. */
function pivotHoldsAny({ sql, spec, alias }: FilterArgs): SqlFragment {
  const pivot = spec.storage as Exclude<FieldSpec['storage'], string | undefined>;
  const constants = Object.entries(pivot.where ?? {}).map(
    ([column, constant]) => sql` and p.${sql.ref(column)} = ${constant}`,
  );
  return sql`exists (select 1 from ${sql.table(pivot.pivot)} p where p.${sql.ref(pivot.ownKey)} = ${sql.ref(`${alias}.id`)}${sql.join(constants, sql``)})`;
}

const isDateKind = (spec: FieldSpec) => spec.kind === 'date' || spec.kind === 'datetime';

/**
 * The days a relative date covers, compared with a date (days as text `YYYY-MM-DD`: a date column, or the text kept in
 * `custom`, whose index serves it) or a date-time (the instants those days start in the organization's time zone).
 */
function inDays(args: FilterArgs, days: { from: string; to: string }): SqlFragment {
  const { sql, spec } = args;
  const column = valueExpression(sql, args.field, spec, args.alias);
  if (spec.kind === 'date')
    return spec.storage === 'custom'
      ? sql`(${column} >= ${days.from} and ${column} < ${days.to})`
      : sql`(${column} >= ${days.from}::date and ${column} < ${days.to}::date)`;
  // A date-time in `custom` is ISO text in UTC (records/fields.ts), which compares in time order and its index serves.
  const { from, to } = spanInstants(days, args.timeZone ?? 'UTC');
  return spec.storage === 'custom'
    ? sql`(${column} >= ${from.toISOString()} and ${column} < ${to.toISOString()})`
    : sql`(${column} >= ${from.toISOString()}::timestamptz and ${column} < ${to.toISOString()}::timestamptz)`;
}

/**
 * The operators of the view filters (`filters=`, server filters/compile-filter.ts) beside the list query's: their
 * names as the filter builder sends them. `contains`/`includes` are `like`/`in` under the names people read.
 */
export const VIEW_FILTERS: FilterOperators = {
  contains: STANDARD_FILTERS.like,
  starts_with: comparing(
    'starts with',
    'one',
    (args, column) => args.sql`${column}::text ilike ${`${escapeLike(String(args.value))}%`}`,
  ),
  empty: { label: 'is empty', takes: 'none', sql: holdsNothing },
  not_empty: { label: 'is not empty', takes: 'none', sql: (args) => args.sql`not ${holdsNothing(args)}` },
  has_none: { label: 'has none', takes: 'none', sql: holdsNothing },
  has_any: { label: 'has any', takes: 'none', sql: (args) => args.sql`not ${holdsNothing(args)}` },
  includes: { ...STANDARD_FILTERS.in, label: 'includes' },
  between: comparing('is between', 'pair', (args, column) => {
    const pair = Array.isArray(args.value) ? args.value : [];
    if (pair.length !== 2 || pair.some((v) => v === null || v === undefined || v === ''))
      throw new FilterValueError('"between" takes two values: [from, to].');
    const [low, high] = pair.map((v) => filterValue(v, args.spec));
    return args.sql`(${column} >= ${low} and ${column} <= ${high})`;
  }),
  date: {
    label: 'is in',
    takes: 'relative-date',
    applies: isDateKind,
    sql(args) {
      try {
        const today = dayIn(args.now ?? new Date(), args.timeZone ?? 'UTC');
        return inDays(args, relativeSpan(args.value as RelativeDate, today));
      } catch (error) {
        if (error instanceof RelativeDateError) throw new FilterValueError(error.message);
        throw error;
      }
    },
  },
};

/**
 * The list query operator each view operator builds on: a type offers a view operator only where its module has that
 * one (a JSON field, `like` and `null` only, gets `contains`, `starts_with`, `empty`, not `between`).
 */
export const VIEW_FILTER_BASIS: Readonly<Record<keyof typeof VIEW_FILTERS & string, string>> = {
  contains: 'like',
  starts_with: 'like',
  empty: 'null',
  not_empty: 'null',
  has_none: 'null',
  has_any: 'null',
  includes: 'in',
  between: 'gte',
  date: 'gte',
};

/** Longest text (characters) a sort index holds: a btree entry takes at most about 2,700 bytes. */
const LONGEST_SORTED_TEXT = 500;

/**
 * What a list sorts by for a field: what people see, not how it is stored. Text without case (the expression the
 * custom fields' indexes and the name sort index hold), choices in the order the field gives them, a slug of a list
 * administrators extend (site type) in that list's order; other kinds by their value.
 */
export function sortKey(sql: Sql, field: string, spec: FieldSpec, alias: string | null): SqlFragment {
  const value = valueExpression(sql, field, spec, alias);
  if (ranksChoices(spec)) return choiceRank(sql, spec, value);
  if (CASELESS_KINDS.has(spec.kind) && typeof spec.storage !== 'object') return sql`lower((${value})::text)`;
  return value;
}

/** The rank a field whose sort ranks its choices (ranksChoices) gives `value`: null for a value it does not offer. */
export function choiceRank(sql: Sql, spec: FieldSpec, value: SqlFragment): SqlFragment {
  if (spec.kind === 'enum' && spec.options?.length) {
    // The choices as literals, not parameters: the query's expression must be the rank index's.
    const ranks = spec.options.map((option, rank) => sql` when ${sql.lit(option)} then ${sql.lit(rank)}`);
    return sql`(case ${value}${sql.join(ranks, sql``)} end)`;
  }
  // The list's positions by slug, read once per query (an InitPlan), then looked up per row: a subquery on the list for
  // each row ran once per match and cost most of a sorted page of thousands of matches (docs/benchmarks.md "Views").
  // Positions are integers in every list; read as `numeric` they cost a quarter of a sorted page (embedded database).
  return sql`((select jsonb_object_agg(l.slug, l.position) from ${sql.table(spec.slugOf as string)} l where l.slug is not null and l.deleted_at is null) ->> (${value})::text)::integer`;
}

/** The values a field whose sort ranks its choices (ranksChoices) offers, as a query of one column, `value`. */
export function offeredChoices(sql: Sql, spec: FieldSpec): SqlFragment {
  if (spec.kind === 'enum' && spec.options?.length)
    return sql`select v.value from (values ${sql.join(spec.options.map((option) => sql`(${sql.lit(option)})`))}) as v(value)`;
  return sql`select l.slug as value from ${sql.table(spec.slugOf as string)} l where l.slug is not null and l.deleted_at is null`;
}

/**
 * Whether the standard sort of this field is by a rank of its value: a choice by its place among the field's choices,
 * a list's slug by its position in that list. The matches of a list sorted so come in runs of one rank (server
 * records/sorted-page.ts).
 */
export const ranksChoices = (spec: FieldSpec): boolean =>
  (spec.kind === 'enum' && Boolean(spec.options?.length)) || Boolean(spec.slugOf);

/**
 * The standard sort: by `sortKey`; indexed unless no plain index can serve it: list slugs sort by their rank in another
 * table, lists of ids and JSON do not sort, long text does not fit an index entry. Choices sort by their rank, a `case`
 * over the choices: its index is made again when the choices change (server schemas/indexes.ts sortKeyVersion).
 */
export const STANDARD_SORT: FieldSort = {
  key: ({ sql, field, spec, alias }) => sortKey(sql, field, spec, alias),
  index({ sql, field, spec }) {
    if (typeof spec.storage === 'object' || spec.storage === 'virtual' || spec.sortable === false) return null;
    if (spec.slugOf || ARRAY_KINDS.has(spec.kind) || (spec.kind === 'enum' && !spec.options?.length)) return null;
    if (CASELESS_KINDS.has(spec.kind) && !(spec.max !== undefined && spec.max <= LONGEST_SORTED_TEXT)) return null;
    return sortKey(sql, field, spec, null);
  },
};

/** The expression index of a custom field for its filters: the value as filters read it (text lower-cased). */
export const STANDARD_FILTER_INDEX: FilterIndex = ({ sql, field, spec }) => {
  if (spec.storage !== 'custom' || ARRAY_KINDS.has(spec.kind)) return null; // lists: the GIN index on custom
  const expression = valueExpression(sql, field, spec, null);
  // Text and e-mail filters compare lower-cased (`eq`).
  return CASELESS_KINDS.has(spec.kind) ? sql`lower((${expression})::text)` : expression;
};
