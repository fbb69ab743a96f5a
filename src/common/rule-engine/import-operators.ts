/**
 * The operators of importer rules (SPEC 3: eq, neq, gt, gte, lt, lte, in, string-contains, string-start,
 * string-end), each with its label and its JSON Logic over the one cell the rule reads. Text compares trimmed and
 * case-insensitively; eq and neq compare as amounts when both sides are one; gt, gte, lt and lte compare amounts
 * (money forms and dates understood) and never match a cell that is not one; `in` takes a comma-separated list.
 * A missing cell counts as empty text. A new operator is one entry here (and in RULE_OPERATORS).
 */
import { amountOf, compareAs, foldText, type JsonLogic } from './engine.js';

export const RULE_OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'string-contains',
  'string-start',
  'string-end',
] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

export interface ImportOperator {
  label: string;
  compile: (cell: JsonLogic, value: string) => JsonLogic;
  /** Why a rule's value does not suit the operator, or null. */
  valueProblem?: (value: string) => string | null;
}

const fold = (cell: JsonLogic): JsonLogic => ({ fold: [cell] });

/** As amounts when both sides are one, else as folded text. */
function equal(cell: JsonLogic, value: string): JsonLogic {
  const asText: JsonLogic = { '===': [fold(cell), foldText(value)] };
  const amount = amountOf(value);
  if (amount === null) return asText;
  return { if: [{ '!==': [{ 'as-amount': [cell] }, null] }, { '===': [{ 'as-amount': [cell] }, amount] }, asText] };
}

const amountProblem = (value: string) =>
  amountOf(value) === null ? 'Compare with a number, an amount or a date.' : null;
const comparison = (op: '>' | '>=' | '<' | '<=', label: string): ImportOperator => ({
  label,
  compile: (cell, value) => compareAs('as-amount', cell, op, amountOf(value)),
  valueProblem: amountProblem,
});

export const IMPORT_OPERATORS: Readonly<Record<RuleOperator, ImportOperator>> = {
  eq: { label: 'equals', compile: equal },
  neq: { label: 'does not equal', compile: (cell, value) => ({ '!': [equal(cell, value)] }) },
  gt: comparison('>', 'is greater than'),
  gte: comparison('>=', 'is at least'),
  lt: comparison('<', 'is less than'),
  lte: comparison('<=', 'is at most'),
  in: {
    label: 'is one of (comma-separated)',
    compile: (cell, value) => ({
      in: [
        fold(cell),
        value
          .split(',')
          .map(foldText)
          .filter((item) => item !== ''),
      ],
    }),
  },
  'string-contains': {
    label: 'contains',
    compile: (cell, value) => ({ 'contains-text': [fold(cell), foldText(value)] }),
  },
  'string-start': {
    label: 'starts with',
    compile: (cell, value) => ({ 'starts-with': [fold(cell), foldText(value)] }),
  },
  'string-end': { label: 'ends with', compile: (cell, value) => ({ 'ends-with': [fold(cell), foldText(value)] }) },
};
