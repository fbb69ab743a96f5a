/**
 * The one rule engine (DESIGN.md 13): every rule of the product, a form logic block's conditions (SPEC 4-5) or an
 * importer rule (SPEC 3), is compiled to JSON Logic (https://jsonlogic.com) and evaluated by json-logic-js, in the
 * browser and on the server alike. The two vocabularies that compile to it are form-operators.ts and
 * import-operators.ts; this file holds what they share: the few operations JSON Logic lacks, registered once, and
 * `evaluate`.
 *
 * Operations added to json-logic-js (each takes evaluated arguments, so they nest like the built-in ones):
 * - `as-text` v: the value as text (missing is '', arrays joined with commas, objects as JSON);
 * - `fold` v: as text, trimmed and lower-cased (the importer's case-insensitive comparisons);
 * - `as-number` v: a number (12, '1,234.5'), else null;
 * - `as-day` v: a date ('2026-03-01', '3/1/2026', an ISO date-time) as the number 20260301, else null;
 * - `as-amount` v: an amount ('$1.25M', '(500)') as a number, else a date as `as-day` gives it, else null;
 * - `is-empty` v: missing, null, blank text, an empty list or an empty object;
 * - `contains-text` a b, `starts-with` a b, `ends-with` a b: a's text contains / starts with / ends with b's.
 * The built-in `in` is not used for text: it answers false whenever the text searched is empty.
 *
 * Two speeds, one meaning: `evaluate` runs a rule turned once into a plain function (compiled.ts; a form's blocks and
 * an importer's rules are the same objects row after row, so each is compiled once), `interpret` walks it with
 * json-logic-js. A test holds them to the same answers (tests/unit/rule-engine-compiled.test.ts).
 */

import type { AdditionalOperation, RulesLogic } from 'json-logic-js';
import jsonLogic from 'json-logic-js';
import { parseDate, parseMoney, parseNumber } from '../import-values.js';
import { compileLogic } from './compiled.js';

export type JsonLogic = RulesLogic<AdditionalOperation>;

/** A rule that cannot be compiled (an unknown operator); its message names what is wrong. */
export class RuleError extends Error {}

/** A value as text: missing is '', arrays are joined with commas, objects are JSON. */
export function valueAsText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (Array.isArray(value)) return value.map(valueAsText).join(',');
  return JSON.stringify(value);
}

export function foldText(value: unknown): string {
  return valueAsText(value).trim().toLowerCase();
}

export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const parsed = parseNumber(value);
  return parsed.ok ? parsed.value : null;
}

/** A date as yyyymmdd (20260301), so dates compare as numbers, by day. */
export function dayOf(value: unknown): number | null {
  const text = valueAsText(value).trim();
  if (!text) return null;
  const parsed = parseDate(text);
  return parsed.ok ? Number(parsed.value.replace(/-/g, '')) : null;
}

/** An amount (plain numbers and money forms), else a date as yyyymmdd. */
export function amountOf(value: unknown): number | null {
  const text = valueAsText(value).trim();
  if (!text) return null;
  const money = parseMoney(text);
  return money.ok ? money.value : dayOf(text);
}

export function isEmptyValue(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(isEmptyValue);
  if (value && typeof value === 'object' && !(value instanceof Date)) return Object.keys(value).length === 0;
  return valueAsText(value).trim() === '';
}

const OPERATIONS: Record<string, (...args: any[]) => unknown> = {
  'as-text': valueAsText,
  fold: foldText,
  'as-number': numberOf,
  'as-day': dayOf,
  'as-amount': amountOf,
  'is-empty': isEmptyValue,
  'contains-text': (text: unknown, part: unknown) => valueAsText(text).includes(valueAsText(part)),
  'starts-with': (text: unknown, part: unknown) => valueAsText(text).startsWith(valueAsText(part)),
  'ends-with': (text: unknown, part: unknown) => valueAsText(text).endsWith(valueAsText(part)),
};
for (const [name, operation] of Object.entries(OPERATIONS)) jsonLogic.add_operation(name, operation);

/** Reads one value of the data a rule is evaluated against. */
export const read = (key: string): JsonLogic => ({ var: key });

/** `value` compared with a constant by `op` (`>`, `<`...), false when `value` does not convert (`as-number`...). */
export function compareAs(
  convert: 'as-number' | 'as-day' | 'as-amount',
  value: JsonLogic,
  op: '>' | '>=' | '<' | '<=' | '===',
  constant: number | null,
): JsonLogic {
  if (constant === null) return false;
  const converted = { [convert]: [value] } as JsonLogic;
  // JSON Logic would compare null as 0 (null < 5 holds): a value that does not convert never matches.
  return { and: [{ '!==': [converted, null] }, { [op]: [converted, constant] } as JsonLogic] };
}

const compiledRules = new WeakMap<object, (data: Record<string, unknown>) => boolean>();

/** Does the rule hold for this data? (JSON Logic truthiness: an empty list is false.) Compiled once per rule object. */
export function evaluate(logic: JsonLogic, data: Record<string, unknown>): boolean {
  if (typeof logic !== 'object' || logic === null) return jsonLogic.truthy(logic);
  let compiled = compiledRules.get(logic);
  if (compiled === undefined) {
    compiled = compileLogic(logic, OPERATIONS);
    compiledRules.set(logic, compiled);
  }
  return compiled(data);
}

/** `evaluate` by json-logic-js walking the rule: the reference the compiled rules are held to. */
export function interpret(logic: JsonLogic, data: Record<string, unknown>): boolean {
  return jsonLogic.truthy(jsonLogic.apply(logic, data));
}
