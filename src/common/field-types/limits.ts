import type { FieldSpec, ValueKind } from './define.js';
import { OptionProblem } from './define.js';

/** What a type allows at most when its options say nothing: the longest text, the range of a number. */
export interface OwnLimits {
  maxLength?: number;
  range?: { min?: number; max?: number };
}

const given = (value: unknown) => (typeof value === 'number' ? value : undefined);

/**
 * The limits of a value of `kind`: the shortest and longest text, or the range and step of a number; the options'
 * `min` / `max` / `step` over the type's own.
 */
export function limitsOf(
  kind: ValueKind,
  options: { min?: unknown; max?: unknown; step?: unknown; format?: unknown },
  own: OwnLimits,
): Pick<FieldSpec, 'min' | 'max' | 'step'> {
  const numeric = kind === 'number' || (kind === 'integer' && own.range);
  const limits =
    kind === 'text'
      ? { min: given(options.min), max: given(options.max) ?? own.maxLength }
      : numeric
        ? { min: given(options.min) ?? own.range?.min, max: given(options.max) ?? own.range?.max }
        : {};
  const step = numeric ? (given(options.step) ?? (options.format === 'currency' ? 0.01 : undefined)) : undefined;
  return Object.fromEntries(Object.entries({ ...limits, step }).filter(([, value]) => value !== undefined));
}

/** The smallest may not be greater than the largest. */
export function rangeProblem(options: { min?: number; max?: number }, what = 'min') {
  return typeof options.min === 'number' && typeof options.max === 'number' && options.min > options.max
    ? new OptionProblem(what, `The options.${what} may not be greater than the options.max.`)
    : undefined;
}
