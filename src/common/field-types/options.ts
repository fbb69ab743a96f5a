/**
 * The option keys the field types share, as zod schemas (zod/mini: the client imports the modules too). A type's
 * module puts those it takes into its strict options object; a key no module lists is refused by name.
 */

import * as z from 'zod/mini';
import { normaliseChoices } from '../schema-types.js';
import { choiceKey, isChoiceKey } from '../slugs.js';
import { OptionProblem } from './define.js';

const error = (key: string, what: string) => ({ error: `The options.${key} must be ${what}.` });

export const flag = (key: string) => z.optional(z.boolean(error(key, 'true or false')));

export const text = (key: string, longest: number) =>
  z.optional(
    z
      .string(error(key, 'text'))
      .check(z.maxLength(longest, `The options.${key} may not be longer than ${longest} characters.`)),
  );

export const oneOf = <T extends string>(key: string, values: readonly [T, ...T[]]) =>
  z.optional(z.enum(values, error(key, `one of: ${values.join(', ')}`)));

/** A finite number (of at most 1e14 either way: the largest a number field holds). */
export const finite = (key: string) =>
  z.optional(
    z
      .number(error(key, 'a number'))
      .check(z.refine((value) => Number.isFinite(value) && Math.abs(value) <= 1e14, error(key, 'a number'))),
  );

export const positive = (key: string) =>
  z.optional(z.number(error(key, 'a positive number')).check(z.positive(error(key, 'a positive number').error)));

/** A regular expression an administrator writes (`options.pattern`): it must compile. */
export const pattern = z.optional(
  z.string(error('pattern', 'a pattern (a regular expression)')).check(
    z.maxLength(500, 'The options.pattern may not be longer than 500 characters.'),
    z.refine(
      (source) => {
        try {
          new RegExp(source, 'u');
          return true;
        } catch {
          return false;
        }
      },
      { error: (issue) => `The options.pattern is not a pattern a computer can read: ${String(issue.input)}.` },
    ),
  ),
);

/** Every type: help under the input, left out of lists until added, shown and never written. */
export const COMMON = {
  help: text('help', 500),
  hide_in_list: flag('hide_in_list'),
  read_only: flag('read_only'),
  /** The value a new record gets when it is not given (checked against the field when the field is saved). */
  default: z.optional(z.unknown()),
};

/** Text-like types: the administrator's pattern and its message, and one value per record. */
export const TEXT_RULES = {
  pattern,
  pattern_message: text('pattern_message', 200),
  unique: flag('unique'),
  searchable: flag('searchable'),
  /** Shortest and longest, in characters. */
  min: finite('min'),
  max: positive('max'),
};

/** Choices, written as strings or {value, label}: at least one, none twice, at most 500. */
export const choices = z.optional(
  z
    .array(
      z.union([
        z.string(),
        z.number(),
        z.object({ value: z.union([z.string(), z.number()]), label: z.optional(z.string()) }),
      ]),
      error('choices', 'a list of choices (["a", "b"] or [{value, label}])'),
    )
    .check(z.maxLength(500, 'A field may have at most 500 choices.')),
);

/**
 * The choices of a field, checked: the problem (under `choices`), or the normalised list. Every key is a slug however
 * the choice was written: "Needs follow-up" (or {value: "Needs follow-up"}) is kept as `needs-follow-up`, its label as
 * written.
 */
export function checkedChoices(raw: unknown, type: string) {
  const list = normaliseChoices(raw).map((choice) =>
    isChoiceKey(choice.value) ? choice : { value: choiceKey(choice.value), label: choice.label },
  );
  const keyless = list.find((choice) => !choice.value);
  if (keyless)
    return new OptionProblem(
      'choices',
      `The choice “${keyless.label}” needs a key of letters or digits (give it a value such as “choice-1”).`,
    );
  if (!list.length)
    return new OptionProblem(
      'choices',
      `A ${type} field needs its choices (options.choices: ["a", "b"] or [{value, label}]).`,
    );
  if (new Set(list.map((c) => c.value)).size !== list.length)
    return new OptionProblem('choices', 'The choices must be different from each other.');
  return list;
}

/** A choice field's values and the labels people see for them (the server's FieldSpec `options`, `choiceLabels`). */
export function choiceSpec(options: { choices?: unknown }) {
  const list = normaliseChoices(options.choices);
  return {
    options: list.map((choice) => choice.value),
    choiceLabels: Object.fromEntries(list.map((choice) => [choice.value, choice.label])),
  };
}
