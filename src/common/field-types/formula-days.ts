import { type CheckedFormula, evaluateFormula } from '../formulas/formula.js';
import type {
  FilterArgs,
  FilterOperator,
  FilterOperators,
  MovesWith,
  SiblingField,
  Sql,
  SqlFragment,
} from './define.js';
import { filterValue, STANDARD_FILTERS, valueExpression } from './sql.js';

/**
 * A formula of days between one date field and a date that reads no field (`DAYS(TODAY(), {Start date})`,
 * `DAYS({Start date}, DATE(2024, 1, 1))`) moves with that date alone. Lists sort by the date's own key
 * (records/list-query.ts sortRun) and compare it as a range of the date, which the date's index serves:
 * `DAYS(TODAY(), {Start date}) >= 1000` is `start_date <= TODAY() - 1000`. Exact for the days a date field holds
 * (YYYY-MM-DD, checked on every write). With TODAY() no index can hold the formula, since it changes every day; with a
 * fixed day its own index could, but a page read through it works the formula out again for every row it passes (the
 * sort's key is computed from each row, three readings of the date's text), where the date's key is one text.
 */

const readsNoField = (tree: CheckedFormula): boolean =>
  tree.node === 'value' || (tree.node === 'call' && tree.args.every(readsNoField));
const usesToday = (tree: CheckedFormula): boolean =>
  tree.node === 'call' && (tree.fn === 'TODAY' || tree.args.some(usesToday));

/**
 * How the formula `tree` moves with one date field: DAYS of a date field (a day, not a date-time) and a date that reads
 * no field, either way round; null for any other formula (read through its own index, or worked out on every row). A
 * fixed date must be a day (not a blank past the calendar's ends, where every value is blank and the date's order is
 * no order of them). `originSql`: the SQL of that date.
 */
export function movesWithOf(
  tree: CheckedFormula,
  fieldOf: (slug: string) => SiblingField | undefined,
  originSql: (origin: CheckedFormula) => (sql: Sql) => SqlFragment,
): MovesWith | null {
  if (tree.node !== 'call' || tree.fn !== 'DAYS' || tree.args.length !== 2) return null;
  const [end, start] = tree.args;
  const [date, origin, rising] = end.node === 'field' ? [end, start, true] : [start, end, false];
  if (date.node !== 'field' || !readsNoField(origin)) return null;
  if (!usesToday(origin) && evaluateFormula(origin, {}) === null) return null;
  const field = fieldOf(date.slug);
  if (field?.spec.kind !== 'date' || field.spec.computed) return null;
  return { field: field.slug, spec: field.spec, rising, origin: originSql(origin) };
}

/** The days from 0001-01-01 to the last day a date field holds, 9999-12-31. */
const LAST_DAY = 3_652_058;
/** The most days a bound moves from its origin: more than any two dates are apart, and within SQL's integers. */
const FURTHEST = 10_000_000;

/**
 * The date field `days` after the origin or more (`at: 'least'`) or at most: a range of the date, the origin a
 * constant of the statement. Past years 1 to 9999 the bound stops at their ends and a one-time check of the statement
 * says whether any day can hold (`days` from 0001-01-01 within them).
 */
function dateBound({ sql, alias }: FilterArgs, moves: MovesWith, days: number, at: 'least' | 'most'): SqlFragment {
  const date = valueExpression(sql, moves.field, moves.spec, alias);
  const shift = Math.min(Math.max(days, -FURTHEST), FURTHEST);
  const fromFirst = sql`((${moves.origin(sql)} - date '0001-01-01') + ${sql.lit(shift)})`;
  const day = sql`(date '0001-01-01' + least(greatest(${fromFirst}, 0), ${sql.lit(LAST_DAY)}))`;
  // A date kept in `custom` is its text, YYYY-MM-DD, which compares in date order and its index holds.
  const bound = moves.spec.storage === 'custom' ? sql`to_char(${day}, 'YYYY-MM-DD')` : day;
  return at === 'least'
    ? sql`(${date} >= ${bound} and ${fromFirst} <= ${sql.lit(LAST_DAY)})`
    : sql`(${date} <= ${bound} and ${fromFirst} >= 0)`;
}

/** The formula's value is at least (or at most) the whole number `n`, as a range of its date. */
function valueBound(args: FilterArgs, moves: MovesWith, n: number, at: 'least' | 'most'): SqlFragment {
  // Rising: the value is the date's days after the origin. Falling: before it, so the bound turns round.
  if (moves.rising) return dateBound(args, moves, n, at);
  return dateBound(args, moves, -n, at === 'least' ? 'most' : 'least');
}

/** An operator of the standard ones, as a range of the date for a formula that moves with one (FieldSpec movesWith). */
function asDateRange(
  standard: FilterOperator,
  range: (args: FilterArgs, moves: MovesWith, value: number) => SqlFragment,
): FilterOperator {
  return {
    ...standard,
    sql(args) {
      const moves = args.spec.movesWith;
      if (!moves) return standard.sql(args);
      return range(args, moves, filterValue(args.value, args.spec) as number);
    },
  };
}

/** A formula's operators: the standard ones; comparisons of one moving with a date, as that date's range. */
export const FORMULA_FILTERS: FilterOperators = {
  ...STANDARD_FILTERS,
  // The value is a whole number of days: at least 2.5 is at least 3, more than 2.5 at least 3, less than 2.5 at most 2.
  gte: asDateRange(STANDARD_FILTERS.gte, (args, moves, v) => valueBound(args, moves, Math.ceil(v), 'least')),
  gt: asDateRange(STANDARD_FILTERS.gt, (args, moves, v) => valueBound(args, moves, Math.floor(v) + 1, 'least')),
  lte: asDateRange(STANDARD_FILTERS.lte, (args, moves, v) => valueBound(args, moves, Math.floor(v), 'most')),
  lt: asDateRange(STANDARD_FILTERS.lt, (args, moves, v) => valueBound(args, moves, Math.ceil(v) - 1, 'most')),
  eq: asDateRange(
    STANDARD_FILTERS.eq,
    (args, moves, v) =>
      args.sql`(${valueBound(args, moves, Math.ceil(v), 'least')} and ${valueBound(args, moves, Math.floor(v), 'most')})`,
  ),
};
