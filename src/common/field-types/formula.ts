import * as z from 'zod/mini';
import {
  type CheckedFormula,
  checkFormula,
  evaluateFormula,
  FORMULA_RESULTS,
  FormulaError,
  type FormulaField,
  type FormulaResult,
  type FormulaType,
  type FormulaValue,
  formulaSql,
  formulaWithin,
} from '../formulas/formula.js';
import { COMPUTED_PARTS } from './computed.js';
import {
  defineFieldType,
  type FilterIndex,
  OptionProblem,
  type SiblingField,
  type Sql,
  type SqlFragment,
  type ValueKind,
} from './define.js';
import { COMMON, oneOf } from './options.js';
import { STANDARD_SORT, valueExpression } from './sql.js';

/** The kind of value each result of a formula is (filters offer that kind's operators). */
const KIND_OF_RESULT: Readonly<Record<FormulaResult, ValueKind>> = {
  number: 'number',
  text: 'text',
  date: 'date',
  boolean: 'boolean',
};

/** What a formula reads a field of each kind as; the kinds left out hold lists or structures. */
const TYPE_OF_KIND: Partial<Record<ValueKind, FormulaType>> = {
  text: 'text',
  email: 'text',
  phone: 'text',
  url: 'text',
  color: 'text',
  enum: 'text',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  date: 'date',
  datetime: 'date',
};

/** A field of the type as a formula sees it: its name, type and options, and the kind of value it holds. */
export type FieldForFormula = Pick<SiblingField, 'slug' | 'name' | 'type' | 'options'> & { kind: ValueKind };

/** The fields of the type as a formula names them: their type, and their expression when they are formulas. */
export function formulaFields(fields: readonly FieldForFormula[]): FormulaField[] {
  return fields.map((field) => ({
    slug: field.slug,
    name: field.name,
    type: TYPE_OF_KIND[field.kind] ?? null,
    ...(field.type === 'formula' && typeof field.options.expression === 'string'
      ? { expression: field.options.expression }
      : {}),
  }));
}

/**
 * The formula `expression` of the field `self` checked against the fields of its type as the server checks it: the
 * type of value it gives and its value for a record's values, worked out in JavaScript (the field dialog's live check
 * and preview, the form's live value); or the error, naming its place.
 */
export function formulaCheck(
  expression: string,
  self: string,
  fields: readonly FieldForFormula[],
):
  | { ok: true; result: FormulaResult; value: (values: Readonly<Record<string, unknown>>) => FormulaValue }
  | { ok: false; error: string } {
  try {
    const { tree, result } = checkFormula(expression, self, formulaFields(fields));
    return { ok: true, result, value: (values) => evaluateFormula(tree, values) };
  } catch (error) {
    if (error instanceof FormulaError) return { ok: false, error: error.message };
    throw error;
  }
}

/** The value of the formula for a record's values (the form shows it as they are typed); null when it does not check. */
export function formulaPreview(
  expression: string,
  self: string,
  fields: readonly FieldForFormula[],
): ((values: Readonly<Record<string, unknown>>) => FormulaValue) | null {
  const checked = formulaCheck(expression, self, fields);
  return checked.ok ? checked.value : null;
}

/** A stored field's value as the type the formula reads it as (dates of date-times: the day in UTC). */
function storedSql(sql: Sql, field: SiblingField, type: FormulaType, alias: string | null) {
  const value = valueExpression(sql, field.slug, field.spec, alias);
  if (type === 'number') return sql`(${value})::numeric`;
  if (type === 'boolean') return sql`(${value})::boolean`;
  if (type === 'date') {
    if (field.spec.storage === 'custom') return dayOfText(sql, value);
    return field.spec.kind === 'datetime'
      ? sql`((${value})::timestamptz at time zone 'UTC')::date`
      : sql`(${value})::date`;
  }
  return sql`(${value})::text`;
}

/**
 * The day of a date kept as text in `custom`: a date's `YYYY-MM-DD`, or the start of a date-time's ISO text in UTC
 * (records/fields.ts stores both so), read with immutable functions only, where `text::date` depends on the session's
 * DateStyle and PostgreSQL refuses it in an index. Text that is no such day is a blank, never an error (a formula's
 * SQL must not raise: its index would make the row's write fail). Feb 30 runs on to March 1, as JavaScript reads it.
 */
function dayOfText(sql: Sql, text: SqlFragment) {
  const day = sql`substring(${text} from '^(?!0000)[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])')`;
  return sql`(make_date(left(${day}, 4)::int, substr(${day}, 6, 2)::int, 1) + (right(${day}, 2)::int - 1))`;
}

const siblingsForFormula = (fields: readonly SiblingField[]) =>
  fields.map((field) => ({ ...field, kind: field.spec.kind }));

/** The checked formula of a field, or the problem under `options.expression`. */
function checked(expression: string, self: string, fields: readonly SiblingField[]) {
  try {
    return checkFormula(expression, self, formulaFields(siblingsForFormula(fields)));
  } catch (error) {
    if (error instanceof FormulaError) return new OptionProblem('expression', error.message);
    throw error;
  }
}

/**
 * The key of a formula's index, for its filters and sorts alike: its SQL over the row's own columns, as the one compiler
 * gives it (server schemas/indexes.ts makes it where PostgreSQL takes it for an index: no TODAY(), which depends on the
 * clock; none for a formula too long to bound, whose SQL might raise for some row; docs/records.md "Indexes and speed").
 */
const formulaIndex: FilterIndex = ({ sql, field, spec }) =>
  spec.computed && !spec.unindexable ? valueExpression(sql, field, spec, null) : null;

const expression = z
  .string({ error: 'The options.expression must be the formula, as text.' })
  .check(
    z.minLength(1, 'The options.expression must be the formula, as text.'),
    z.maxLength(2_000, 'The options.expression may not be longer than 2,000 characters.'),
  );

/**
 * A formula: a value worked out from the record's other fields (`ROUND({Estimated value} * 1.1, 0)`,
 * common/formulas/), never typed. Its `result` (number, text, date, yes/no) is found when the field is saved; lists
 * filter and sort on its SQL, the form shows its JavaScript's value.
 */
export const formula = defineFieldType({
  type: 'formula',
  label: 'Formula',
  options: z.strictObject({
    help: COMMON.help,
    hide_in_list: COMMON.hide_in_list,
    expression,
    result: oneOf('result', FORMULA_RESULTS),
  }),
  checkOptions(options, context) {
    if (!context.fields || !context.self)
      return new OptionProblem('expression', 'A formula is checked against the fields of its record type.');
    const found = checked(options.expression, context.self, context.fields);
    if (found instanceof OptionProblem) return found;
    return { ...options, expression: options.expression.trim(), result: found.result };
  },
  kind: (options) => KIND_OF_RESULT[options.result ?? 'text'],
  ...COMPUTED_PARTS,
  sort: { key: STANDARD_SORT.key, index: formulaIndex },
  filterIndex: formulaIndex,
  compute(options, { self, fields }) {
    const found = checked(options.expression, self, fields);
    // A formula its type's fields no longer fit (saved before a change the checks now refuse) is blank, not an error.
    if (found instanceof OptionProblem) return { computed: (sql) => sql`null` };
    const bySlug = new Map(fields.map((field) => [field.slug, field]));
    const tree: CheckedFormula = found.tree;
    return {
      computed: (sql, alias) => formulaSql(sql, tree, (slug, type) => storedSql(sql, bySlug.get(slug)!, type, alias)),
      ...(formulaWithin(tree) ? {} : { unindexable: true }),
    };
  },
});
