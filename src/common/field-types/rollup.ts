import * as z from 'zod/mini';
import { COMPUTED_PARTS } from './computed.js';
import {
  type ComputeContext,
  defineFieldType,
  type FieldSpec,
  type KeptBy,
  OptionProblem,
  type SiblingField,
  type Sql,
  type SqlFragment,
} from './define.js';
import { COMMON, oneOf } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_SORT, valueExpression } from './sql.js';
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

/** The conditions of a filter group, depth first (`{"all": [{"field", "op", "value"}, {"any": [...]}]}`). */
function conditionsIn(group: unknown): Array<{ field?: unknown; op?: unknown; value?: unknown }> {
  if (!group || typeof group !== 'object') return [];
  const items = (group as { all?: unknown; any?: unknown }).all ?? (group as { any?: unknown }).any;
  if (!Array.isArray(items)) return [group as { field?: unknown }];
  return items.flatMap(conditionsIn);
}

/**
 * Whether a condition reads the same for everyone at any time, so its rollup can be kept on the records: not a
 * relative date ("this month"), "me", or a related record's field (`contractor.type`: the reader's related rows).
 */
function conditionIsFixed(where: Record<string, unknown> | undefined): boolean {
  return conditionsIn(where).every(
    (item) => typeof item.field === 'string' && !item.field.includes('.') && item.op !== 'date' && item.value !== 'me',
  );
}

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

/** How the record service finds the records a write of related rows changes (records/kept-rollups.ts). */
function keptBy(parts: RollupParts, where: Record<string, unknown> | undefined): KeptBy {
  const named = conditionsIn(where).flatMap((item) => (typeof item.field === 'string' ? [item.field] : []));
  const reads = [
    ...(parts.direction === 'to-this' ? [parts.link.slug] : []),
    ...(parts.value ? [parts.value.slug] : []),
  ];
  return {
    join: (sql, alias) => joinSql(sql, alias, parts),
    direction: parts.direction,
    link: parts.link.slug,
    reads: [...new Set([...reads, ...named])],
  };
}

/** A kept value is read as a custom number (or date) field is: the same expression, served by the same indexes. */
const whenKept =
  <A extends { spec: FieldSpec }, R>(standard: (args: A) => R) =>
  (args: A) =>
    args.spec.kept ? standard(args) : null;

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
 * the condition `where` only. Kept on each record (`kept`, records/kept-rollups.ts) and read from there by whoever reads
every related row; worked out by a correlated subquery over the rows the reader may read for anyone else, and for a
condition that depends on the reader or the day. Read-only; filtered and sorted as a number (a date for the least or
greatest of dates).
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
    kept: z.optional(z.boolean({ error: 'The options.kept is set by the server.' })),
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
    // Kept on the records (written by the record service) unless what counts depends on who reads or when.
    return { ...options, result: parts.result, kept: conditionIsFixed(options.where) };
  },
  kind: (options) => (options.result === 'date' ? 'date' : 'number'),
  ...COMPUTED_PARTS,
  spec: (options) => ({ readOnly: true, ...(options.kept ? { kept: true } : {}) }),
  sort: { key: STANDARD_SORT.key, index: whenKept(STANDARD_SORT.index) },
  filterIndex: whenKept(STANDARD_FILTER_INDEX),
  compute(options, context) {
    const parts = rollupParts(options, context);
    const rows = parts instanceof OptionProblem ? null : context.typeRows?.(parts.other);
    if (parts instanceof OptionProblem || !rows) return { computed: (sql) => sql`null` };
    return {
      computedOver: (sql, alias, over) => rollupSql(sql, alias, over, parts),
      readsRows: rows,
      ...(options.where ? { readsRowsWhere: options.where } : {}),
      ...(options.kept ? { keptBy: keptBy(parts, options.where) } : {}),
    };
  },
});
