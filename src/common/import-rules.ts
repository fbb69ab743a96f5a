/**
 * Importer rules (SPEC section 3: transformer action trade-set; operators eq, neq, gt, gte, lt, lte, in,
 * string-contains, string-start, string-end). Pure functions shared by the server and the rules editor.
 *
 * A rule reads one cell (`source`: a CSV header, compared case-insensitively), tests it with `operator`
 * against `value`, and when it matches applies `action` with `action_value`: `trade-set` adds the named
 * trade(s) (comma-separated) to the record's trades. Each rule compiles to JSON Logic and runs on the one rule engine
 * (src/common/rule-engine), where its operators are defined.
 */
import {
  evaluate,
  IMPORT_OPERATORS,
  type JsonLogic,
  RULE_OPERATORS,
  RuleError,
  type RuleOperator,
  read,
} from './rule-engine/index.js';

export { RULE_OPERATORS, type RuleOperator };

export const RULE_ACTIONS = ['trade-set'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

export const OPERATOR_LABELS = Object.fromEntries(
  RULE_OPERATORS.map((operator) => [operator, IMPORT_OPERATORS[operator].label]),
) as Record<RuleOperator, string>;

export interface ImportRule {
  source: string;
  operator: RuleOperator;
  value: string;
  action: RuleAction;
  action_value: string;
}

/** A rule's test as JSON Logic over its one cell (`{"var": "cell"}`: headers may hold dots, which `var` would split). */
export function compileRule(rule: Pick<ImportRule, 'operator' | 'value'>): JsonLogic {
  const operator = Object.hasOwn(IMPORT_OPERATORS, rule.operator) ? IMPORT_OPERATORS[rule.operator] : undefined;
  if (!operator) throw new RuleError(`Invalid operator ${String(rule.operator)}`);
  return operator.compile(read('cell'), rule.value ?? '');
}
// The importer's rules are the same objects for every row of a file: each is compiled once.
const compiledRules = new WeakMap<object, JsonLogic>();
function compiled(rule: ImportRule): JsonLogic {
  let logic = compiledRules.get(rule);
  if (logic === undefined) {
    logic = compileRule(rule);
    compiledRules.set(rule, logic);
  }
  return logic;
}

/** Does `cell` satisfy `operator value`? (See the operators in src/common/rule-engine/import-operators.ts.) */
export function matchesRule(cell: string | null | undefined, operator: RuleOperator, value: string): boolean {
  return evaluate(compileRule({ operator, value }), { cell: cell ?? '' });
}

export interface RuleEffects {
  /** Trade names to add to the record (trade-set), in rule order, without duplicates (case-insensitive). */
  trades: string[];
}

/** Applies every matching rule to one row; `cell(source)` returns the row's value for a header. */
export function applyRules(rules: readonly ImportRule[], cell: (source: string) => string | undefined): RuleEffects {
  const trades: string[] = [];
  const seen = new Set<string>();
  for (const rule of rules) {
    if (!evaluate(compiled(rule), { cell: cell(rule.source) ?? '' })) continue;
    if (rule.action === 'trade-set') {
      for (const name of rule.action_value
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)) {
        if (seen.has(name.toLowerCase())) continue;
        seen.add(name.toLowerCase());
        trades.push(name);
      }
    }
  }
  return { trades };
}

/** Checks one rule's shape; returns messages keyed by property. */
export function checkRule(rule: Partial<ImportRule>): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!rule.source || !String(rule.source).trim()) errors.source = 'Choose the column the rule reads.';
  if (!rule.operator || !RULE_OPERATORS.includes(rule.operator))
    errors.operator = `The operator must be one of: ${RULE_OPERATORS.join(', ')}.`;
  if (!rule.action || !RULE_ACTIONS.includes(rule.action))
    errors.action = `The action must be one of: ${RULE_ACTIONS.join(', ')}.`;
  if (!rule.action_value || !String(rule.action_value).trim()) errors.action_value = 'Name the trade to set.';
  const valueProblem =
    rule.operator && Object.hasOwn(IMPORT_OPERATORS, rule.operator)
      ? IMPORT_OPERATORS[rule.operator].valueProblem
      : undefined;
  const problem = valueProblem && rule.value !== undefined ? valueProblem(String(rule.value)) : null;
  if (problem) errors.value = problem;
  return errors;
}
