/**
 * Importer rules (SPEC section 3: transformer action trade-set; operators eq, neq, gt, gte, lt, lte, in,
 * string-contains, string-start, string-end). Pure functions shared by the server and the rules editor.
 *
 * A rule reads one cell (`source`: a CSV header, compared case-insensitively), tests it with `operator`
 * against `value`, and when it matches applies `action` with `action_value`: `trade-set` adds the named
 * trade(s) (comma-separated) to the record's trades.
 */
import { parseDate, parseMoney } from './import-values.js';

export const RULE_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'string-contains', 'string-start', 'string-end'] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

export const RULE_ACTIONS = ['trade-set'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

export const OPERATOR_LABELS: Record<RuleOperator, string> = {
  eq: 'equals',
  neq: 'does not equal',
  gt: 'is greater than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  in: 'is one of (comma-separated)',
  'string-contains': 'contains',
  'string-start': 'starts with',
  'string-end': 'ends with',
};

export interface ImportRule {
  source: string;
  operator: RuleOperator;
  value: string;
  action: RuleAction;
  action_value: string;
}

const fold = (text: string) => text.trim().toLowerCase();

/** A number from a cell: plain numbers and money forms ($1,250,000.00, 1.25M); dates compare as yyyymmdd. */
function comparable(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const money = parseMoney(trimmed);
  if (money.ok) return money.value;
  const date = parseDate(trimmed);
  if (date.ok) return Number(date.value.replace(/-/g, ''));
  return null;
}

/**
 * Does `cell` satisfy `operator value`? eq/neq compare as numbers when both sides are numbers, else as
 * case-insensitive trimmed text; gt/gte/lt/lte compare numbers (money and dates understood) and are false when
 * either side is not one; `in` takes a comma-separated list; the string operators ignore case. A missing cell
 * counts as empty text.
 */
export function matchesRule(cell: string | null | undefined, operator: RuleOperator, value: string): boolean {
  const text = cell ?? '';
  switch (operator) {
    case 'eq':
    case 'neq': {
      const a = comparable(text);
      const b = comparable(value);
      const equal = a !== null && b !== null ? a === b : fold(text) === fold(value);
      return operator === 'eq' ? equal : !equal;
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const a = comparable(text);
      const b = comparable(value);
      if (a === null || b === null) return false;
      if (operator === 'gt') return a > b;
      if (operator === 'gte') return a >= b;
      if (operator === 'lt') return a < b;
      return a <= b;
    }
    case 'in':
      return value
        .split(',')
        .map(fold)
        .filter((item) => item !== '')
        .includes(fold(text));
    case 'string-contains':
      return fold(text).includes(fold(value));
    case 'string-start':
      return fold(text).startsWith(fold(value));
    case 'string-end':
      return fold(text).endsWith(fold(value));
  }
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
    if (!matchesRule(cell(rule.source), rule.operator, rule.value)) continue;
    if (rule.action === 'trade-set') {
      for (const name of rule.action_value.split(',').map((n) => n.trim()).filter(Boolean)) {
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
  if (!rule.operator || !RULE_OPERATORS.includes(rule.operator)) errors.operator = `The operator must be one of: ${RULE_OPERATORS.join(', ')}.`;
  if (!rule.action || !RULE_ACTIONS.includes(rule.action)) errors.action = `The action must be one of: ${RULE_ACTIONS.join(', ')}.`;
  if (!rule.action_value || !String(rule.action_value).trim()) errors.action_value = 'Name the trade to set.';
  if (rule.operator && ['gt', 'gte', 'lt', 'lte'].includes(rule.operator) && rule.value !== undefined && comparable(String(rule.value)) === null) {
    errors.value = 'Compare with a number, an amount or a date.';
  }
  return errors;
}
