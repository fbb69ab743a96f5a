/**
 * The names a schema's form logic is written with: its operators and how a block's conditions combine. Apart from
 * the operators' code (form-operators.ts) so that reading a schema does not load the rule engine.
 */
export const LOGIC_OPERATORS = [
  'equals',
  'not-equals',
  'contains',
  'starts-with',
  'ends-with',
  'greater-than',
  'at-least',
  'less-than',
  'at-most',
  'before',
  'after',
  'is-empty',
  'is-not-empty',
] as const;
export type LogicOperator = (typeof LOGIC_OPERATORS)[number];

/** How a block's conditions combine: all must hold (the default, as SPEC 4 has it) or any one. */
export const LOGIC_MATCHES = ['all', 'any'] as const;
export type LogicMatch = (typeof LOGIC_MATCHES)[number];
