/**
 * What a formula can do, each operator and function once: the types it takes, the type it gives, its SQL (lists
 * filter and sort on it) and its JavaScript (the form shows the value as it is typed). The two must agree on the same
 * values; tests/unit/formula-functions.test.ts and tests/api/formula-fields.test.ts compare them. Blanks behave as
 * SQL's null: arithmetic and comparisons with a blank are blank, MIN/MAX/CONCAT leave blanks out, IF takes a blank
 * condition as false, AND/OR are three-valued.
 */
import type { Sql, SqlFragment } from '../field-types/define.js';

/** The types a formula's values have; `blank` is a missing value of any type (a two-argument IF's else). */
export type FormulaType = 'number' | 'text' | 'date' | 'boolean' | 'blank';
export type FormulaValue = number | string | boolean | null;

export interface FormulaFunction {
  /** How it is written, for messages (`ROUND(number, digits)`). */
  usage: string;
  /** The type it gives for these argument types, or the reason they do not fit. */
  result(types: FormulaType[], literals: Array<FormulaValue | undefined>): FormulaType | string;
  /** `literals`: the arguments written as constants (DATEADD's unit), undefined for the others. */
  sql(sql: Sql, args: SqlFragment[], types: FormulaType[], literals: Array<FormulaValue | undefined>): SqlFragment;
  js(args: FormulaValue[], types: FormulaType[]): FormulaValue;
}

const DAY_MS = 86_400_000;
/** JavaScript's floating point made to read as SQL's exact numbers do (`0.1 + 0.2` is 0.3). */
export const tidy = (n: number) => (Number.isFinite(n) ? Number(n.toPrecision(15)) : null);

const fits = (type: FormulaType, wanted: FormulaType) => type === wanted || type === 'blank';
const plural = (n: number) => (n === 1 ? 'one value' : `${n} values`);

/** A function of a fixed list of argument types (the last ones optional from `required` on). */
function typed(
  usage: string,
  params: FormulaType[],
  result: FormulaType,
  sql: FormulaFunction['sql'],
  js: (args: FormulaValue[], types: FormulaType[]) => FormulaValue,
  required = params.length,
): FormulaFunction {
  return {
    usage,
    result(types) {
      if (types.length < required || types.length > params.length)
        return `${usage} takes ${required === params.length ? plural(required) : `${required} to ${params.length} values`}`;
      const wrong = types.findIndex((type, i) => !fits(type, params[i]));
      return wrong < 0 ? result : `${usage} takes a ${params[wrong]} as its value ${wrong + 1}, not a ${types[wrong]}`;
    },
    sql,
    js,
  };
}

/** Blank in, blank out (SQL's strict functions). */
const strict =
  (f: (...args: any[]) => FormulaValue) =>
  (args: FormulaValue[]): FormulaValue =>
    args.some((a) => a === null) ? null : f(...args);

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayText = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** Half away from zero, at `digits` decimals (SQL's round of numeric), without floating point's 1.005 * 100. */
export function roundHalfAway(n: number, digits: number) {
  const shifted = Number(`${Math.abs(n)}e${digits}`);
  return tidy(Math.sign(n) * Number(`${Math.round(shifted)}e${-digits}`));
}

/**
 * The first and last days a formula's dates reach (years 1 to 9999, as a date field holds them), as day numbers and as
 * months from year 0. DATE and DATEADD give a blank past them: in SQL such a date would raise an error ("timestamp
 * out of range"), and a formula's SQL must never raise, since its index would make the row's write fail.
 */
const FIRST_DAY = dayNumber('0001-01-01');
const LAST_DAY = dayNumber('9999-12-31');
const FIRST_MONTH = 12;
const LAST_MONTH = 9999 * 12 + 11;

/**
 * A date moved by whole days, weeks, months or years (months as PostgreSQL adds them: Jan 31 + 1 month is Feb 28);
 * blank past years 1 to 9999, where PostgreSQL's dates would overflow.
 */
function addToDate(day: string, amount: number, unit: string): string | null {
  const n = wholeJs(amount);
  if (unit === 'days' || unit === 'weeks') {
    const moved = dayNumber(day) + n * (unit === 'weeks' ? 7 : 1);
    return moved >= FIRST_DAY && moved <= LAST_DAY ? dayText(moved) : null;
  }
  const [y, m, d] = day.split('-').map(Number);
  const months = y * 12 + m - 1 + n * (unit === 'years' ? 12 : 1);
  if (months < FIRST_MONTH || months > LAST_MONTH) return null;
  const year = Math.floor(months / 12);
  const month = months - year * 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const made = new Date(Date.UTC(2000, month, Math.min(d, last)));
  made.setUTCFullYear(year);
  return made.toISOString().slice(0, 10);
}

/**
 * A number as a whole count for SQL's integer arguments (days to add, digits to round to), held within a million
 * either way: a larger one would make the query fail (integer and date ranges) instead of giving a value.
 * numeric_larger and numeric_smaller (the larger and smaller of two; a blank stays blank, where greatest and least
 * pass over it) name the value once. A formula's SQL writes each argument once where it can: it is an index's
 * definition, which PostgreSQL keeps in one catalog row of 8 kB.
 */
const WHOLE_LIMIT = 1_000_000;
const whole = (sql: Sql, n: SqlFragment) =>
  sql`numeric_smaller(numeric_larger(round(${n}), ${sql.lit(-WHOLE_LIMIT)}), ${sql.lit(WHOLE_LIMIT)})::int`;
const wholeJs = (n: number) => Math.min(Math.max(roundHalfAway(n, 0) ?? 0, -WHOLE_LIMIT), WHOLE_LIMIT);

/** An integer `n` when it is from `low` to `high`, else a blank, with `n` written once. */
const within = (sql: Sql, n: SqlFragment, low: number, high: number) =>
  sql`nullif(nullif(int4smaller(int4larger(${n}, ${sql.lit(low - 1)}), ${sql.lit(high + 1)}), ${sql.lit(low - 1)}), ${sql.lit(high + 1)})`;

/** A date's days since 0001-01-01 (an integer). */
const daysFromFirst = (sql: Sql, day: SqlFragment) => sql`(${day} - date '0001-01-01')`;
/** The date `days` after 0001-01-01, blank before year 1 or after 9999 (never "date out of range"). */
const dateFromFirst = (sql: Sql, days: SqlFragment) =>
  sql`(date '0001-01-01' + ${within(sql, days, 0, LAST_DAY - FIRST_DAY)})`;
/** Months a date in years 1 to 9999 can move and stay within them: more would leave PostgreSQL's timestamps. */
const MONTHS_SPAN = LAST_MONTH - FIRST_MONTH;

export const DATE_UNITS = ['days', 'weeks', 'months', 'years'] as const;

/** A value as text, as SQL writes it here (numbers without trailing zeros, dates as YYYY-MM-DD, true/false). */
export function asText(value: FormulaValue): string {
  return value === null ? '' : String(value);
}
function textSql(sql: Sql, arg: SqlFragment, type: FormulaType): SqlFragment {
  if (type === 'number') return sql`trim_scale(${arg})::text`;
  if (type === 'date') return sql`to_char(${arg}, 'YYYY-MM-DD')`;
  return sql`(${arg})::text`;
}

const comparison = (symbol: string, holds: (order: number) => boolean): FormulaFunction => ({
  usage: symbol,
  result([a, b]) {
    if (a !== 'blank' && b !== 'blank' && a !== b)
      return `${symbol} compares two values of one type, not a ${a} with a ${b}`;
    if ((a === 'boolean' || b === 'boolean') && symbol !== '=' && symbol !== '<>')
      return `${symbol} does not compare yes/no values: use = or <>`;
    return 'boolean';
  },
  sql(sql, [a, b], [type]) {
    const op = sql.raw(symbol);
    // Text in code point order, as JavaScript compares it, whatever the database's collation.
    return type === 'text' ? sql`((${a}) collate "C" ${op} (${b}) collate "C")` : sql`((${a}) ${op} (${b}))`;
  },
  js: strict((a: FormulaValue, b: FormulaValue) => holds(a! < b! ? -1 : a! > b! ? 1 : 0)),
});

const variadicNumbers = (usage: string, pick: 'least' | 'greatest'): FormulaFunction => ({
  usage,
  result: (types) =>
    types.length === 0
      ? `${usage} takes at least one value`
      : types.every((t) => fits(t, 'number'))
        ? 'number'
        : `${usage} takes numbers`,
  sql: (sql, args) => sql`${sql.raw(pick)}(${sql.join(args)})`,
  js(args) {
    const numbers = args.filter((a): a is number => typeof a === 'number');
    if (!numbers.length) return null;
    return pick === 'least' ? Math.min(...numbers) : Math.max(...numbers);
  },
});

const logical = (usage: string, joiner: 'and' | 'or'): FormulaFunction => ({
  usage,
  result: (types) =>
    types.length === 0
      ? `${usage} takes at least one condition`
      : types.every((t) => fits(t, 'boolean'))
        ? 'boolean'
        : `${usage} takes yes/no conditions (comparisons)`,
  sql: (sql, args) => sql`(${sql.join(args, sql.raw(` ${joiner} `))})`,
  js(args) {
    const decisive = joiner !== 'and';
    if (args.includes(decisive)) return decisive;
    return args.includes(null) ? null : !decisive;
  },
});

const number = (sql: Sql, a: SqlFragment) => sql`(${a})::numeric`;

/** Operators (by their symbol) and functions (by their name in capitals). */
export const FORMULA_FUNCTIONS: Readonly<Record<string, FormulaFunction>> = {
  '+': typed(
    '+',
    ['number', 'number'],
    'number',
    (sql, [a, b]) => sql`(${a} + ${b})`,
    strict((a, b) => tidy(a + b)),
  ),
  '-': typed(
    '-',
    ['number', 'number'],
    'number',
    (sql, [a, b]) => sql`(${a} - ${b})`,
    strict((a, b) => tidy(a - b)),
  ),
  '*': typed(
    '*',
    ['number', 'number'],
    'number',
    (sql, [a, b]) => sql`(${a} * ${b})`,
    strict((a, b) => tidy(a * b)),
  ),
  '/': typed(
    '/',
    ['number', 'number'],
    'number',
    (sql, [a, b]) => sql`(${a} / nullif(${b}, 0))`,
    strict((a, b) => (b === 0 ? null : tidy(a / b))),
  ),
  negate: typed(
    '-',
    ['number'],
    'number',
    (sql, [a]) => sql`(- ${a})`,
    strict((a) => tidy(-a)),
  ),
  '&': {
    usage: '&',
    result: () => 'text',
    sql: (sql, [a, b], [ta, tb]) => sql`concat(${textSql(sql, a, ta)}, ${textSql(sql, b, tb)})`,
    js: ([a, b]) => asText(a) + asText(b),
  },
  '=': comparison('=', (o) => o === 0),
  '<>': comparison('<>', (o) => o !== 0),
  '<': comparison('<', (o) => o < 0),
  '>': comparison('>', (o) => o > 0),
  '<=': comparison('<=', (o) => o <= 0),
  '>=': comparison('>=', (o) => o >= 0),
  IF: {
    usage: 'IF(condition, then, else)',
    result([condition, then, otherwise = 'blank', ...rest]) {
      if (rest.length || then === undefined) return 'IF(condition, then, else) takes 2 or 3 values';
      if (!fits(condition, 'boolean')) return `IF takes a yes/no condition first (a comparison), not a ${condition}`;
      if (then !== 'blank' && otherwise !== 'blank' && then !== otherwise)
        return `IF gives one type of value: its then is a ${then} and its else a ${otherwise}`;
      return then === 'blank' ? otherwise : then;
    },
    sql: (sql, [c, a, b]) => sql`(case when ${c} then ${a} else ${b ?? sql`null`} end)`,
    js: ([c, a, b]) => (c === true ? a : (b ?? null)),
  },
  AND: logical('AND(condition, ...)', 'and'),
  OR: logical('OR(condition, ...)', 'or'),
  NOT: typed(
    'NOT(condition)',
    ['boolean'],
    'boolean',
    (sql, [a]) => sql`(not ${a})`,
    strict((a) => !a),
  ),
  ISBLANK: {
    usage: 'ISBLANK(value)',
    result: (types) => (types.length === 1 ? 'boolean' : 'ISBLANK(value) takes one value'),
    sql: (sql, [a], [type]) => (type === 'text' ? sql`(coalesce(${a}, '') = '')` : sql`(${a} is null)`),
    js: ([a]) => a === null || a === '',
  },
  ROUND: typed(
    'ROUND(number, digits)',
    ['number', 'number'],
    'number',
    (sql, [a, d]) => sql`round(${a}, least(greatest(${whole(sql, d ?? sql`0`)}, -20), 20))`,
    (args) =>
      args[0] === null || args[1] === null
        ? null
        : roundHalfAway(Number(args[0]), Math.min(Math.max(wholeJs(Number(args[1] ?? 0)), -20), 20)),
    1,
  ),
  FLOOR: typed('FLOOR(number)', ['number'], 'number', (sql, [a]) => sql`floor(${a})`, strict(Math.floor)),
  CEILING: typed('CEILING(number)', ['number'], 'number', (sql, [a]) => sql`ceil(${a})`, strict(Math.ceil)),
  ABS: typed('ABS(number)', ['number'], 'number', (sql, [a]) => sql`abs(${a})`, strict(Math.abs)),
  MIN: variadicNumbers('MIN(number, ...)', 'least'),
  MAX: variadicNumbers('MAX(number, ...)', 'greatest'),
  CONCAT: {
    usage: 'CONCAT(value, ...)',
    result: (types) => (types.length ? 'text' : 'CONCAT(value, ...) takes at least one value'),
    sql: (sql, args, types) => sql`concat(${sql.join(args.map((a, i) => textSql(sql, a, types[i])))})`,
    js: (args) => args.map(asText).join(''),
  },
  LEN: typed(
    'LEN(text)',
    ['text'],
    'number',
    (sql, [a]) => number(sql, sql`char_length(${a})`),
    strict((a) => [...a].length),
  ),
  UPPER: typed(
    'UPPER(text)',
    ['text'],
    'text',
    (sql, [a]) => sql`upper(${a})`,
    strict((a) => a.toUpperCase()),
  ),
  LOWER: typed(
    'LOWER(text)',
    ['text'],
    'text',
    (sql, [a]) => sql`lower(${a})`,
    strict((a) => a.toLowerCase()),
  ),
  TRIM: typed(
    'TRIM(text)',
    ['text'],
    'text',
    (sql, [a]) => sql`btrim(${a})`,
    strict((a) => a.replace(/^ +| +$/g, '')),
  ),
  TODAY: typed(
    'TODAY()',
    [],
    'date',
    (sql) => sql`(now() at time zone 'UTC')::date`,
    () => new Date().toISOString().slice(0, 10),
  ),
  DAYS: typed(
    'DAYS(end date, start date)',
    ['date', 'date'],
    'number',
    (sql, [end, start]) => number(sql, sql`(${end} - ${start})`),
    strict((end, start) => dayNumber(end) - dayNumber(start)),
  ),
  DATEADD: {
    usage: `DATEADD(date, number, "${DATE_UNITS.join('" | "')}")`,
    result(types, literals) {
      const usage = this.usage;
      if (types.length < 2 || types.length > 3) return `${usage} takes 2 or 3 values`;
      if (!fits(types[0], 'date') || !fits(types[1], 'number')) return `${usage} takes a date and a number`;
      if (types.length === 3 && !DATE_UNITS.includes(literals[2] as (typeof DATE_UNITS)[number]))
        return `DATEADD's unit is written as one of "${DATE_UNITS.join('", "')}"`;
      return 'date';
    },
    sql(sql, [day, amount], _types, literals) {
      // The unit was checked to be one of DATE_UNITS (a constant of the formula): it is written as that name.
      const unit = DATE_UNITS.find((name) => name === literals[2]) ?? 'days';
      const n = whole(sql, amount);
      if (unit === 'days' || unit === 'weeks')
        return dateFromFirst(sql, sql`(${daysFromFirst(sql, day)} + ${n} * ${sql.lit(unit === 'weeks' ? 7 : 1)})`);
      const months = within(sql, sql`(${n} * ${sql.lit(unit === 'years' ? 12 : 1)})`, -MONTHS_SPAN, MONTHS_SPAN);
      return dateFromFirst(sql, daysFromFirst(sql, sql`(${day} + make_interval(months => ${months}))::date`));
    },
    js: ([day, amount, unit]) =>
      day === null || amount === null ? null : addToDate(String(day), Number(amount), String(unit ?? 'days')),
  },
  DATE: typed(
    'DATE(year, month, day)',
    ['number', 'number', 'number'],
    'date',
    // As spreadsheets do, a month or day past its end runs on (DATE(2024, 2, 30) is March 1); a blank past years 1 to
    // 9999. The month is reached from 0001-01-01, since make_date would raise on year 0.
    (sql, [y, m, d]) => {
      const months = within(sql, sql`(${whole(sql, y)} * 12 + ${whole(sql, m)} - 1)`, FIRST_MONTH, LAST_MONTH);
      const first = sql`(date '0001-01-01' + make_interval(months => ${months} - ${sql.lit(FIRST_MONTH)}))::date`;
      return dateFromFirst(sql, sql`(${daysFromFirst(sql, first)} + ${whole(sql, d)} - 1)`);
    },
    strict((y, m, d) => {
      const months = wholeJs(y) * 12 + wholeJs(m) - 1;
      if (months < FIRST_MONTH || months > LAST_MONTH) return null;
      // The first of the month (setUTCFullYear: Date.UTC reads years below 100 as 19xx), then the days.
      const first = new Date(Date.UTC(2000, months % 12, 1));
      first.setUTCFullYear(Math.floor(months / 12));
      const day = first.getTime() / DAY_MS + wholeJs(d) - 1;
      return day >= FIRST_DAY && day <= LAST_DAY ? dayText(day) : null;
    }),
  ),
  YEAR: typed(
    'YEAR(date)',
    ['date'],
    'number',
    (sql, [a]) => sql`extract(year from ${a})::numeric`,
    strict((a) => Number(a.slice(0, 4))),
  ),
  MONTH: typed(
    'MONTH(date)',
    ['date'],
    'number',
    (sql, [a]) => sql`extract(month from ${a})::numeric`,
    strict((a) => Number(a.slice(5, 7))),
  ),
  DAY: typed(
    'DAY(date)',
    ['date'],
    'number',
    (sql, [a]) => sql`extract(day from ${a})::numeric`,
    strict((a) => Number(a.slice(8, 10))),
  ),
};
