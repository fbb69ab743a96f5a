/**
 * The SQL the field types share, written once: where a field's value is (a column, a key of `custom`, a pivot
 * table), the standard filter operators of the list query (`filter[slug_gte]`...), the sort key and the indexes that
 * serve them. A type's module lists the operators and the sort it has (mostly these); the server passes kysely's
 * `sql` tag in (define.ts `Sql`), so values are always bound parameters and keys of `custom` are literals, as the
 * expression indexes hold them.
 */
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
 * parameter) so the expression indexes made for custom fields match it.
 */
export function valueExpression(sql: Sql, field: string, spec: FieldSpec, alias: string | null = 't'): SqlFragment {
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
      return String(value);
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

/** The list query's operators (docs/records.md "Lists"), for every kind of value. */
export const STANDARD_FILTERS: FilterOperators = {
  eq: comparing('is', 'one', (args, column) => {
    const { sql, spec, value } = args;
    // The keys of a list (slugOf) are compared exactly, so the column's index serves the filter: the value was
    // made the stored key before (records/choice-keys.ts withChoiceKeys).
    if ((spec.kind === 'text' || spec.kind === 'email') && !spec.slugOf)
      return sql`lower(${column}::text) = lower(${String(value)})`;
    if (spec.kind === 'enum[]') return sql`${column} @> ${JSON.stringify([value])}::jsonb`;
    return sql`${column} = ${cast(args)}`;
  }),
  neq: {
    label: 'is not',
    takes: 'one',
    sql(args) {
      if (isPivot(args.spec)) return pivotHolds(args);
      if (isCustomList(args.spec)) return args.sql`not ${listHolds(args)}`;
      return args.sql`${valueExpression(args.sql, args.field, args.spec, args.alias)} is distinct from ${cast(args)}`;
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
  null: {
    label: 'is empty',
    takes: 'flag',
    sql(args) {
      if (isPivot(args.spec)) return pivotHolds(args);
      const column = valueExpression(args.sql, args.field, args.spec, args.alias);
      return truthy(args.value) ? args.sql`${column} is null` : args.sql`${column} is not null`;
    },
  },
  in: comparing('is one of', 'list', (args, column) => {
    const list = listOf(args.value).map((v) => filterValue(v, args.spec));
    return list.length ? args.sql`${column} in (${args.sql.join(list)})` : args.sql`false`;
  }),
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
  if (spec.kind === 'enum' && spec.options?.length) {
    // The choices as literals, not parameters: the query's expression must be the rank index's.
    const ranks = spec.options.map((option, rank) => sql` when ${sql.lit(option)} then ${sql.lit(rank)}`);
    return sql`(case ${value}${sql.join(ranks, sql``)} end)`;
  }
  if (spec.slugOf)
    return sql`(select l.position from ${sql.table(spec.slugOf)} l where l.slug = ${value} and l.deleted_at is null)`;
  if (CASELESS_KINDS.has(spec.kind) && typeof spec.storage !== 'object') return sql`lower((${value})::text)`;
  return value;
}

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
