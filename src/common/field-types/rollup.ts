import * as z from 'zod/mini';
import { defineFieldType, OptionProblem, type SiblingField, type Sql, type SqlFragment } from './define.js';
import { COMMON, oneOf } from './options.js';
import { STANDARD_FILTERS, STANDARD_SORT, valueExpression } from './sql.js';
import { plainWords } from './words.js';

export const ROLLUP_FUNCTIONS = ['count', 'sum', 'avg', 'min', 'max'] as const;
type RollupFunction = (typeof ROLLUP_FUNCTIONS)[number];

/** `visit.site_id`: the records of type `visit` whose relation field `site_id` points at this record. */
const FROM = /^([a-z][a-z0-9_-]*)\.([a-z][a-z0-9_]*)$/;

const from = z
  .string({ error: 'The options.from must name a relation to this type as type.field (visit.site_id).' })
  .check(z.regex(FROM, 'The options.from must name a relation to this type as type.field (visit.site_id).'));
const field = z.optional(
  z.string({ error: 'The options.field must be the slug of a field of the related records.' }).check(z.maxLength(60)),
);

interface Parts {
  link: SiblingField;
  value: SiblingField | null;
  fn: RollupFunction;
  result: 'number' | 'date';
}

/** The related type's relation field pointing at this type, and the field aggregated; or what is wrong. */
function partsOf(
  options: { from: string; function: RollupFunction; field?: string },
  type: string | undefined,
  typeFields: ((type: string) => readonly SiblingField[] | undefined) | undefined,
): Parts | OptionProblem {
  const [, other, linkSlug] = FROM.exec(options.from) ?? [];
  const fields = other ? typeFields?.(other) : undefined;
  if (!fields) return new OptionProblem('from', `There is no record type “${other}” to roll up.`);
  const link = fields.find((f) => f.slug === linkSlug);
  if (!link || link.type !== 'relation' || (type && link.options.target !== type))
    return new OptionProblem('from', `“${linkSlug}” is not a relation of ${other} to this record type.`);
  if (typeof link.spec.storage === 'object')
    return new OptionProblem('from', `“${link.name}” is kept in a list table: roll up over another relation.`);
  if (options.function === 'count') return { link, value: null, fn: 'count', result: 'number' };
  const value = fields.find((f) => f.slug === options.field);
  if (!value) return new OptionProblem('field', `Name the field of ${other} to ${options.function} (options.field).`);
  const numeric = value.spec.kind === 'number' || value.spec.kind === 'integer';
  const dated = value.spec.kind === 'date' || value.spec.kind === 'datetime';
  if (!numeric && !(dated && (options.function === 'min' || options.function === 'max')))
    return new OptionProblem(
      'field',
      `“${value.name}” is not a number${options.function === 'min' || options.function === 'max' ? ' or a date' : ''}: ${options.function} takes one.`,
    );
  return { link, value, fn: options.function, result: numeric ? 'number' : 'date' };
}

/** The aggregate over the related rows `rows` (as `r`) that point at the record `alias`. */
function rollupSql(sql: Sql, alias: string, rows: SqlFragment, parts: Parts): SqlFragment {
  const link = valueExpression(sql, parts.link.slug, parts.link.spec, 'r');
  const id = sql.ref(`${alias}.id`);
  const points = parts.link.spec.kind === 'integer[]' ? sql`${link} @> to_jsonb(${id})` : sql`${link} = ${id}`;
  if (!parts.value) return sql`(select count(*) from ${rows} r where ${points})::numeric`;
  const value = valueExpression(sql, parts.value.slug, parts.value.spec, 'r');
  const typed = parts.result === 'number' ? sql`(${value})::numeric` : sql`(${value})::date`;
  const aggregate = sql`${sql.raw(parts.fn)}(${typed})`;
  return sql`(select ${aggregate} from ${rows} r where ${points})`;
}

/**
 * A rollup: the count, sum, average, least or greatest of a field over the records of another type that point at
 * this one (a site's visits, a contractor's sites), worked out by a correlated subquery over the rows the reader may
 * read. Read-only; filtered and sorted as a number (a date for the least or greatest of dates).
 */
export const rollup = defineFieldType({
  type: 'rollup',
  label: 'Rollup',
  options: z.strictObject({
    help: COMMON.help,
    hide_in_list: COMMON.hide_in_list,
    from,
    function: z.enum(ROLLUP_FUNCTIONS, {
      error: `The options.function must be one of: ${ROLLUP_FUNCTIONS.join(', ')}.`,
    }),
    field,
    result: oneOf('result', ['number', 'date']),
  }),
  checkOptions(options, context) {
    const parts = partsOf(options, context.type, context.typeFields);
    if (parts instanceof OptionProblem) return parts;
    return { ...options, result: parts.result };
  },
  validation: () => [],
  kind: (options) => (options.result === 'date' ? 'date' : 'number'),
  spec: () => ({ readOnly: true }),
  fromCell: (cell) => ({ ok: true, value: cell }),
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: { key: STANDARD_SORT.key, index: () => null },
  filterIndex: () => null,
  words: plainWords,
  textual: false,
  groupable: false,
  compute(options, context) {
    const parts = partsOf(options, context.type, context.typeFields);
    const [, other] = FROM.exec(options.from) ?? [];
    const rows = other ? context.typeRows?.(other) : null;
    if (parts instanceof OptionProblem || !rows) return { computed: (sql) => sql`null` };
    return { computedOver: (sql, alias, over) => rollupSql(sql, alias, over, parts), readsRows: rows };
  },
});
