/**
 * A formula field's expression, checked once against the fields of its record type (every name known, every type
 * fitting, no cycle), then run two ways from the same checked tree: as SQL over the record's row (lists filter and
 * sort on it) and as JavaScript over the record's values (the form shows it as it is typed). A formula that uses
 * another formula holds that one's tree in its place, so both ways read only stored values.
 */
import type { Sql, SqlFragment } from '../field-types/define.js';
import { FORMULA_FUNCTIONS, type FormulaType, type FormulaValue } from './functions.js';
import { FormulaError, type FormulaNode, parseFormula } from './parse.js';

export type { FormulaType, FormulaValue } from './functions.js';
export { FormulaError } from './parse.js';

/** A field a formula may name: its slug and name, the type of its value (null: a formula cannot use it), its formula. */
export interface FormulaField {
  slug: string;
  name: string;
  type: FormulaType | null;
  /** The field is a formula: its expression. */
  expression?: string;
}

export type CheckedFormula =
  | { node: 'value'; type: FormulaType; value: FormulaValue }
  | { node: 'field'; type: FormulaType; slug: string }
  | { node: 'call'; type: FormulaType; fn: string; args: CheckedFormula[]; literals: Array<FormulaValue | undefined> };

/** The types a formula may give (its field's `result`), in the words of the field dialog. */
export const FORMULA_RESULTS = ['number', 'text', 'date', 'boolean'] as const;
export type FormulaResult = (typeof FORMULA_RESULTS)[number];

const UNARY: Readonly<Record<string, string>> = { '-': 'negate' };
const BINARY_ALIASES: Readonly<Record<string, string>> = { '==': '=', '!=': '<>' };

/**
 * Checks `expression`, the formula of the field `self`, against the fields of its type: the checked tree, the type it
 * gives and the stored fields it reads. A FormulaError names the place: an unknown field, a function or a type that
 * does not fit, a formula that comes back to itself (the chain named).
 */
export function checkFormula(
  expression: string,
  self: string,
  fields: readonly FormulaField[],
): { tree: CheckedFormula; result: FormulaResult; uses: string[] } {
  const bySlug = new Map(fields.map((field) => [field.slug, field]));
  const byName = new Map(fields.map((field) => [field.name.trim().toLowerCase(), field]));
  const uses = new Set<string>();
  const checked = new Map<string, CheckedFormula>();

  function resolve(name: string, at: number, chain: string[], braces: boolean): CheckedFormula {
    const field = bySlug.get(name) ?? (braces ? byName.get(name.toLowerCase()) : undefined);
    if (!field) throw new FormulaError(`Unknown field '${name}'`, at);
    if (field.slug === self && chain.length === 1)
      throw new FormulaError(`The formula cannot use its own field '${field.name}'`, at);
    if (chain.includes(field.slug)) {
      const names = [...chain, field.slug].map((slug) => bySlug.get(slug)?.name ?? slug);
      throw new FormulaError(`The formulas use each other in a circle: ${names.join(' → ')}`, at);
    }
    if (field.expression !== undefined) {
      const known = checked.get(field.slug);
      if (known) return known;
      let tree: CheckedFormula;
      try {
        tree = walk(parseFormula(field.expression), [...chain, field.slug]);
      } catch (error) {
        if (!(error instanceof FormulaError) || error.problem.startsWith('The formulas use each other')) throw error;
        throw new FormulaError(`The formula of '${field.name}' does not work (${error.message})`, at);
      }
      checked.set(field.slug, tree);
      return tree;
    }
    if (!field.type)
      throw new FormulaError(`The field '${field.name}' holds a list or a structure: a formula cannot use it`, at);
    uses.add(field.slug);
    return { node: 'field', type: field.type, slug: field.slug };
  }

  function call(fn: string, args: CheckedFormula[], at: number): CheckedFormula {
    const definition = FORMULA_FUNCTIONS[fn];
    if (!definition) throw new FormulaError(`Unknown function ${fn}`, at);
    const literals = args.map((arg) => (arg.node === 'value' ? arg.value : undefined));
    const type = definition.result(
      args.map((arg) => arg.type),
      literals,
    );
    if (type === 'number' || type === 'text' || type === 'date' || type === 'boolean' || type === 'blank')
      return { node: 'call', type, fn, args, literals };
    throw new FormulaError(type, at);
  }

  function walk(node: FormulaNode, chain: string[]): CheckedFormula {
    switch (node.type) {
      case 'Field':
        return resolve(node.name, node.start, chain, true);
      case 'Identifier': {
        const word = node.name.toUpperCase();
        if (word === 'TRUE' || word === 'FALSE') return { node: 'value', type: 'boolean', value: word === 'TRUE' };
        return resolve(node.name, node.start, chain, false);
      }
      case 'Literal': {
        const { value } = node;
        if (value === null) return { node: 'value', type: 'blank', value: null };
        const type = typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'text';
        return { node: 'value', type, value };
      }
      case 'Call':
        return call(
          node.name,
          node.args.map((arg) => walk(arg, chain)),
          node.start,
        );
      case 'Unary': {
        const fn = UNARY[node.operator];
        if (node.operator === '+') return walk(node.argument, chain);
        if (!fn)
          throw new FormulaError(`The operator ${node.operator} is not one a formula knows: use NOT(...)`, node.start);
        return call(fn, [walk(node.argument, chain)], node.start);
      }
      case 'Binary': {
        const fn = BINARY_ALIASES[node.operator] ?? node.operator;
        if (!FORMULA_FUNCTIONS[fn] || /^[A-Z]/.test(fn))
          throw new FormulaError(`The operator ${node.operator} is not one a formula knows`, node.right.start);
        return call(fn, [walk(node.left, chain), walk(node.right, chain)], node.right.start);
      }
    }
  }

  const tree = walk(parseFormula(expression), [self]);
  if (tree.type === 'blank') throw new FormulaError('The formula always gives nothing', 0);
  return { tree, result: tree.type, uses: [...uses] };
}

/**
 * The most nodes (those of the formulas it uses counted where they are used) a formula has for its SQL to never
 * overflow PostgreSQL's numbers (131,072 digits before the point): each value it reads or writes has at most 325
 * digits either side of the point (JavaScript's numbers), `*` and `/` add up their operands' digits, `+` and `-` one.
 * 300 nodes keep a result under 300 × 326 digits. A longer formula still works out; it is not indexed.
 */
export const BOUNDED_FORMULA_NODES = 300;

/** Whether the checked formula has at most `limit` nodes (counted until past the limit: shared trees repeat). */
export function formulaWithin(tree: CheckedFormula, limit = BOUNDED_FORMULA_NODES): boolean {
  let left = limit;
  const walk = (node: CheckedFormula): boolean => {
    left -= 1;
    if (left < 0) return false;
    return node.node !== 'call' || node.args.every(walk);
  };
  return walk(tree);
}

/** The SQL of a checked formula over a record; `field(slug, type)` is a stored field's value as that type. */
export function formulaSql(
  sql: Sql,
  tree: CheckedFormula,
  field: (slug: string, type: FormulaType) => SqlFragment,
): SqlFragment {
  switch (tree.node) {
    case 'value':
      if (tree.value === null) return sql`null`;
      if (typeof tree.value === 'number') return sql`${sql.lit(tree.value)}::numeric`;
      if (typeof tree.value === 'boolean') return sql.lit(tree.value);
      return sql`${tree.value}::text`;
    case 'field':
      return field(tree.slug, tree.type);
    case 'call': {
      const args = tree.args.map((arg) => formulaSql(sql, arg, field));
      return FORMULA_FUNCTIONS[tree.fn].sql(
        sql,
        args,
        tree.args.map((arg) => arg.type),
        tree.literals,
      );
    }
  }
}

/** The value of a checked formula for a record's values (by slug), as the SQL gives it. */
export function evaluateFormula(tree: CheckedFormula, values: Readonly<Record<string, unknown>>): FormulaValue {
  switch (tree.node) {
    case 'value':
      return tree.value;
    case 'field':
      return storedValue(values[tree.slug], tree.type);
    case 'call':
      return FORMULA_FUNCTIONS[tree.fn].js(
        tree.args.map((arg) => evaluateFormula(arg, values)),
        tree.args.map((arg) => arg.type),
      );
  }
}

/** A stored value as a formula reads it: numbers as numbers, dates as their day, empty text as text. */
function storedValue(value: unknown, type: FormulaType): FormulaValue {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? n : null;
    }
    case 'date': {
      const text = value instanceof Date ? value.toISOString() : String(value);
      if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
      const time = Date.parse(text);
      return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
    }
    case 'boolean':
      return value === true || value === 'true';
    default:
      return String(value);
  }
}
