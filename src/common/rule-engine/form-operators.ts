/**
 * The operators of form logic conditions (SPEC 5, and the comparisons and emptiness checks people expect of form
 * logic), each with its label, the fields it suits and its JSON Logic. The SPEC's five compare the field's value as
 * text, a missing field counting as empty text; the comparisons convert both sides (a value that does not convert
 * never matches); dates compare by day. A new operator is one entry here: the server accepts it, the editor
 * offers it for the fields of its kinds, and forms and server evaluate it.
 */
import { compareAs, dayOf, type JsonLogic, numberOf, RuleError, valueAsText } from './engine.js';
import { LOGIC_OPERATORS, type LogicMatch, type LogicOperator } from './logic-names.js';

export { LOGIC_MATCHES, LOGIC_OPERATORS, type LogicMatch, type LogicOperator } from './logic-names.js';

/** What a field's value is compared as. */
export type OperandKind = 'text' | 'number' | 'date';

export interface FormOperator {
  /** How the editor and the plain-English summary say it: 'Workers seen is at least "1"'. */
  label: string;
  /** The fields it is offered for, by the kind of their values. */
  kinds: readonly OperandKind[];
  /** What the condition's value must be: text (anything), a number, a date, or nothing at all. */
  value: OperandKind | 'none';
  compile: (field: JsonLogic, value: unknown) => JsonLogic;
}

const asText = (field: JsonLogic): JsonLogic => ({ 'as-text': [field] });
const ALL: readonly OperandKind[] = ['text', 'number', 'date'];

export const FORM_OPERATORS: Readonly<Record<LogicOperator, FormOperator>> = {
  equals: {
    label: 'equals',
    kinds: ALL,
    value: 'text',
    compile: (field, value) => ({ '===': [asText(field), valueAsText(value)] }),
  },
  'not-equals': {
    label: 'does not equal',
    kinds: ALL,
    value: 'text',
    compile: (field, value) => ({ '!==': [asText(field), valueAsText(value)] }),
  },
  contains: {
    label: 'contains',
    kinds: ['text'],
    value: 'text',
    compile: (field, value) => ({ 'contains-text': [field, valueAsText(value)] }),
  },
  'starts-with': {
    label: 'starts with',
    kinds: ['text'],
    value: 'text',
    compile: (field, value) => ({ 'starts-with': [field, valueAsText(value)] }),
  },
  'ends-with': {
    label: 'ends with',
    kinds: ['text'],
    value: 'text',
    compile: (field, value) => ({ 'ends-with': [field, valueAsText(value)] }),
  },
  'greater-than': {
    label: 'is greater than',
    kinds: ['number'],
    value: 'number',
    compile: (field, value) => compareAs('as-number', field, '>', numberOf(value)),
  },
  'at-least': {
    label: 'is at least',
    kinds: ['number'],
    value: 'number',
    compile: (field, value) => compareAs('as-number', field, '>=', numberOf(value)),
  },
  'less-than': {
    label: 'is less than',
    kinds: ['number'],
    value: 'number',
    compile: (field, value) => compareAs('as-number', field, '<', numberOf(value)),
  },
  'at-most': {
    label: 'is at most',
    kinds: ['number'],
    value: 'number',
    compile: (field, value) => compareAs('as-number', field, '<=', numberOf(value)),
  },
  before: {
    label: 'is before',
    kinds: ['date'],
    value: 'date',
    compile: (field, value) => compareAs('as-day', field, '<', dayOf(value)),
  },
  after: {
    label: 'is after',
    kinds: ['date'],
    value: 'date',
    compile: (field, value) => compareAs('as-day', field, '>', dayOf(value)),
  },
  'is-empty': { label: 'is empty', kinds: ALL, value: 'none', compile: (field) => ({ 'is-empty': [field] }) },
  'is-not-empty': {
    label: 'is not empty',
    kinds: ALL,
    value: 'none',
    compile: (field) => ({ '!': { 'is-empty': [field] } }),
  },
};

function formOperator(operator: unknown): FormOperator {
  const found =
    typeof operator === 'string' && Object.hasOwn(FORM_OPERATORS, operator)
      ? FORM_OPERATORS[operator as LogicOperator]
      : undefined;
  if (!found) throw new RuleError(`Invalid operator ${String(operator)}`);
  return found;
}

/** One condition as JSON Logic over `field` (the logic that reads the field's value). Throws 'Invalid operator'. */
export function compileCondition(operator: LogicOperator, field: JsonLogic, value: unknown): JsonLogic {
  return formOperator(operator).compile(field, value);
}

/** Conditions joined as the block says: all (`and`) or any (`or`); no conditions always hold. */
export function joinConditions(parts: JsonLogic[], match: LogicMatch | null | undefined): JsonLogic {
  if (!parts.length) return true;
  if (parts.length === 1) return parts[0];
  return match === 'any' ? { or: parts } : { and: parts };
}

/** Why a condition's value does not suit its operator, or null. */
export function conditionValueProblem(operator: LogicOperator, value: unknown): string | null {
  const wanted = formOperator(operator).value;
  if (wanted === 'number' && numberOf(value) === null) return 'Compare with a number.';
  if (wanted === 'date' && dayOf(value) === null) return 'Compare with a date (2026-03-01).';
  return null;
}

/** The operators offered for a field whose values are of this kind, in the order of LOGIC_OPERATORS. */
export function operatorsFor(kind: OperandKind): LogicOperator[] {
  return LOGIC_OPERATORS.filter((operator) => FORM_OPERATORS[operator].kinds.includes(kind));
}
