/**
 * Reading a formula as a spreadsheet user writes it (`ROUND({Estimated value} * 1.1, 0)`): jsep reads the expression,
 * with three additions made here once: a field between braces (`{Estimated value}`), `=` and `<>` as comparisons, and
 * `&` joining text (between comparisons and `+`, as spreadsheets rank it). Every node keeps where it starts in the
 * text (`start`, from 0), so a problem is reported at its place.
 */
import jsep from 'jsep';

/** A problem with a formula, at a character of it (`at`, from 0; people read `at + 1`). */
export class FormulaError extends Error {
  constructor(
    readonly problem: string,
    readonly at: number,
  ) {
    super(`${problem} at ${at + 1}.`);
  }
}

export type FormulaNode =
  | { type: 'Field'; name: string; start: number }
  | { type: 'Identifier'; name: string; start: number }
  | { type: 'Literal'; value: string | number | boolean | null; start: number }
  | { type: 'Call'; name: string; args: FormulaNode[]; start: number }
  | { type: 'Binary'; operator: string; left: FormulaNode; right: FormulaNode; start: number }
  | { type: 'Unary'; operator: string; argument: FormulaNode; start: number };

const OPEN_BRACE = 123;
const CLOSE_BRACE = '}';
const QUOTES = new Set([34, 39]);
const isDigit = (code: number) => (code >= 48 && code <= 57) || code === 46;
/** Where a name starts, as jsep reads names: a letter, `$`, `_`, or any character past ASCII. */
const isNameStart = (code: number) =>
  (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 36 || code === 95 || code >= 128;

let ready = false;
function setUp() {
  if (ready) return;
  ready = true;
  jsep.addBinaryOp('=', 6);
  jsep.addBinaryOp('<>', 6);
  jsep.addBinaryOp('&', 8.5);
  // Each token is read here so it knows where it starts; what is not one of these is left to jsep.
  jsep.hooks.add('gobble-token', function (this: jsep.HookScope, env: { node?: jsep.Expression }) {
    const start = this.index;
    const code = this.code;
    let node: jsep.PossibleExpression;
    if (code === OPEN_BRACE) {
      const close = this.expr.indexOf(CLOSE_BRACE, start + 1);
      if (close < 0) this.throwError('A field name is not closed with }');
      node = { type: 'Field', name: this.expr.slice(start + 1, close).trim() };
      this.index = close + 1;
    } else if (isNameStart(code))
      node = this.gobbleTokenProperty(withStart(this.gobbleIdentifier() as jsep.Expression, start));
    else if (isDigit(code)) node = this.gobbleNumericLiteral();
    else if (QUOTES.has(code)) node = this.gobbleStringLiteral();
    if (node) env.node = withStart(node, start);
  });
}

const withStart = (node: jsep.Expression, start: number) => {
  if (node.start === undefined) node.start = start;
  return node;
};

/** The first place a node or its parts say they start (a group in brackets starts at what it holds). */
function startOf(node: jsep.Expression): number {
  if (typeof node.start === 'number') return node.start;
  for (const key of ['left', 'argument', 'callee', 'object', 'test']) {
    const part = node[key] as jsep.Expression | undefined;
    if (part && typeof part === 'object') return startOf(part);
  }
  return 0;
}

function convert(node: jsep.Expression): FormulaNode {
  const start = startOf(node);
  switch (node.type) {
    case 'Field':
      return { type: 'Field', name: String(node.name), start };
    case 'Identifier':
      return { type: 'Identifier', name: String(node.name), start };
    case 'Literal':
      return { type: 'Literal', value: node.value as string | number | boolean | null, start };
    case 'CallExpression': {
      const callee = node.callee as jsep.Expression;
      if (callee.type !== 'Identifier') throw new FormulaError('Only a function name can be called', start);
      const args = (node.arguments as jsep.Expression[]).map(convert);
      return { type: 'Call', name: String(callee.name).toUpperCase(), args, start };
    }
    case 'BinaryExpression':
      return {
        type: 'Binary',
        operator: String(node.operator),
        left: convert(node.left as jsep.Expression),
        right: convert(node.right as jsep.Expression),
        start: startOf(node.left as jsep.Expression),
      };
    case 'UnaryExpression':
      return {
        type: 'Unary',
        operator: String(node.operator),
        argument: convert(node.argument as jsep.Expression),
        start,
      };
    case 'Compound':
      throw new FormulaError('A formula is one expression: join parts with an operator or a function', start);
    default:
      throw new FormulaError('This is not something a formula can hold', start);
  }
}

/** The formula's expression as nodes, or a FormulaError at the place it cannot be read. */
export function parseFormula(expression: string): FormulaNode {
  setUp();
  if (!expression.trim()) throw new FormulaError('The formula is empty', 0);
  let tree: jsep.Expression;
  try {
    tree = jsep(expression);
  } catch (error) {
    const { description, index } = error as { description?: string; index?: number };
    throw new FormulaError(description ?? String(error), index ?? 0);
  }
  return convert(tree);
}
