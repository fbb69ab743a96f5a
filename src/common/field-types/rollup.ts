import * as z from 'zod/mini';
import { COMPUTED_PARTS } from './computed.js';
import {
  type ComputeContext,
  defineFieldType,
  OptionProblem,
  type SiblingField,
  type Sql,
  type SqlFragment,
} from './define.js';
import { COMMON, oneOf } from './options.js';
import { valueExpression } from './sql.js';
import { throughRelation } from './through-relation.js';

export const ROLLUP_FUNCTIONS = ['count', 'sum', 'avg', 'min', 'max'] as const;
type RollupFunction = (typeof ROLLUP_FUNCTIONS)[number];

/** `visit.site_id`: the records of type `visit` whose relation field `site_id` points at this record. */
const FROM = /^([a-z][a-z0-9_-]*)\.([a-z][a-z0-9_]*)$/;

const from = z.optional(
  z
    .string({ error: 'The options.from must name a relation to this type as type.field (visit.site_id).' })
    .check(z.regex(FROM, 'The options.from must name a relation to this type as type.field (visit.site_id).')),
);
const through = z.optional(
  z.string({ error: 'The options.through must be the slug of a relation field of this type.' }).check(z.maxLength(60)),
);
const field = z.optional(
  z.string({ error: 'The options.field must be the slug of a field of the related records.' }).check(z.maxLength(60)),
);
/**
 * Which related records count: a filter of the view-filter structure (`{"all": [{"field", "op", "value"}]}`) over
 * the related records' own fields, checked and compiled by the server's one filter compiler (server/filters/).
 */
const where = z.optional(z.record(z.string(), z.unknown(), { error: 'The options.where must be a filter group.' }));

/** Where the related records are: pointing at this one (`from`), or pointed at by this one's relation (`through`). */
type Direction = 'to-this' | 'through';

export interface RollupParts {
  direction: Direction;
  /** The related record type. */
  other: string;
  /** The relation joining them: a field of the related type (`to-this`) or of this one (`through`). */
  link: SiblingField;
  value: SiblingField | null;
  fn: RollupFunction;
  result: 'number' | 'date';
  /** The related type's fields, by slug (the condition names them). */
  related: readonly SiblingField[];
}

interface RollupOptions {
  from?: string;
  through?: string;
  function: RollupFunction;
  field?: string;
}

/** The related type and the relation joining it to this one, or what is wrong. */
function relationOf(
  options: RollupOptions,
  type: string | undefined,
  fields: readonly SiblingField[] | undefined,
  typeFields: ((type: string) => readonly SiblingField[] | undefined) | undefined,
): Pick<RollupParts, 'direction' | 'other' | 'link' | 'related'> | OptionProblem {
  if (Boolean(options.from) === Boolean(options.through))
    return new OptionProblem(
      'from',
      'Roll up either the records pointing at this one (options.from: type.field) or those this one points at (options.through: a relation field).',
    );
  if (options.through) {
    const joined = throughRelation(options.through, fields, typeFields, 'roll up');
    return joined instanceof OptionProblem ? joined : { direction: 'through', ...joined };
  }
  const [, other = '', linkSlug] = FROM.exec(options.from ?? '') ?? [];
  const related = other ? typeFields?.(other) : undefined;
  if (!related) return new OptionProblem('from', `There is no record type “${other}” to roll up.`);
  const link = related.find((f) => f.slug === linkSlug);
  if (link?.type !== 'relation' || (type && link.options.target !== type))
    return new OptionProblem('from', `“${linkSlug}” is not a relation of ${other} to this record type.`);
  if (typeof link.spec.storage === 'object')
    return new OptionProblem('from', `“${link.name}” is kept in a list table: roll up over another relation.`);
  return { direction: 'to-this', other, link, related };
}

/** The relation, the related type's field aggregated and the kind of the result; or what is wrong. */
export function rollupParts(
  options: RollupOptions,
  context: Pick<ComputeContext, 'type' | 'typeFields'> & { fields?: readonly SiblingField[] },
): RollupParts | OptionProblem {
  const joined = relationOf(options, context.type, context.fields, context.typeFields);
  if (joined instanceof OptionProblem) return joined;
  if (options.function === 'count') return { ...joined, value: null, fn: 'count', result: 'number' };
  const value = joined.related.find((f) => f.slug === options.field);
  if (!value)
    return new OptionProblem('field', `Name the field of ${joined.other} to ${options.function} (options.field).`);
  const numeric = value.spec.kind === 'number' || value.spec.kind === 'integer';
  const dated = value.spec.kind === 'date' || value.spec.kind === 'datetime';
  if (!numeric && !(dated && (options.function === 'min' || options.function === 'max')))
    return new OptionProblem(
      'field',
      `“${value.name}” is not a number${options.function === 'min' || options.function === 'max' ? ' or a date' : ''}: ${options.function} takes one.`,
    );
  return { ...joined, value, fn: options.function, result: numeric ? 'number' : 'date' };
}

/** The related rows `r` of the record `alias`: pointing at it, or pointed at by its relation. */
function joinSql(sql: Sql, alias: string, parts: RollupParts): SqlFragment {
  if (parts.direction === 'through') {
    const link = valueExpression(sql, parts.link.slug, parts.link.spec, alias);
    return parts.link.spec.kind === 'integer[]' ? sql`${link} @> to_jsonb(r.id)` : sql`r.id = ${link}`;
  }
  const link = valueExpression(sql, parts.link.slug, parts.link.spec, 'r');
  const id = sql.ref(`${alias}.id`);
  return parts.link.spec.kind === 'integer[]' ? sql`${link} @> to_jsonb(${id})` : sql`${link} = ${id}`;
}

/** The aggregate over the related rows `rows` (as `r`) of the record `alias`. */
function rollupSql(sql: Sql, alias: string, rows: SqlFragment, parts: RollupParts): SqlFragment {
  const joined = joinSql(sql, alias, parts);
  if (!parts.value) return sql`(select count(*) from ${rows} r where ${joined})::numeric`;
  const value = valueExpression(sql, parts.value.slug, parts.value.spec, 'r');
  const typed = parts.result === 'number' ? sql`(${value})::numeric` : sql`(${value})::date`;
  const aggregate = sql`${sql.raw(parts.fn)}(${typed})`;
  return sql`(select ${aggregate} from ${rows} r where ${joined})`;
}

/**
 * A rollup: the count, sum, average, least or greatest of a field over the records of another type that point at
 * this one (a site's visits, a contractor's sites) or that this one points at (`through` its relation), those holding
 * the condition `where` only, worked out by a correlated subquery over the rows the reader may read. Read-only; filtered and sorted as a number (a date for the least or greatest of dates).
 */
export const rollup = defineFieldType({
  type: 'rollup',
  label: 'Rollup',
  options: z.strictObject({
    help: COMMON.help,
    hide_in_list: COMMON.hide_in_list,
    from,
    through,
    where,
    function: z.enum(ROLLUP_FUNCTIONS, {
      error: `The options.function must be one of: ${ROLLUP_FUNCTIONS.join(', ')}.`,
    }),
    field,
    result: oneOf('result', ['number', 'date']),
  }),
  checkOptions(options, context) {
    const parts = rollupParts(options, context);
    if (parts instanceof OptionProblem) return parts;
    if (options.where) {
      const problem = context.checkCondition
        ? context.checkCondition(options.where, parts.related)
        : 'A condition is checked by the server.';
      if (problem) return new OptionProblem('where', problem);
    }
    return { ...options, result: parts.result };
  },
  kind: (options) => (options.result === 'date' ? 'date' : 'number'),
  ...COMPUTED_PARTS,
  compute(options, context) {
    const parts = rollupParts(options, context);
    const rows = parts instanceof OptionProblem ? null : context.typeRows?.(parts.other);
    if (parts instanceof OptionProblem || !rows) return { computed: (sql) => sql`null` };
    return {
      computedOver: (sql, alias, over) => rollupSql(sql, alias, over, parts),
      readsRows: rows,
      ...(options.where ? { readsRowsWhere: options.where } : {}),
    };
  },
});
