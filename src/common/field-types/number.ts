import * as z from 'zod/mini';
import { asNumber, asWholeNumber } from './cells.js';
import { defineFieldType, OptionProblem } from './define.js';
import { limitsOf, rangeProblem } from './limits.js';
import { COMMON, finite, flag, oneOf, positive } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/** The formats of a number field (`options.format`): what the value is and how the screens show it. */
export const NUMBER_FORMATS = ['integer', 'decimal', 'currency'] as const;
export type NumberFieldFormat = (typeof NUMBER_FORMATS)[number];

/** A number: a whole number, a decimal or an amount of money, within ±1e14, in steps (0.01 for currency). */
export const number = defineFieldType({
  type: 'number',
  label: 'Number',
  options: z.strictObject({
    ...COMMON,
    format: oneOf('format', NUMBER_FORMATS),
    min: finite('min'),
    max: finite('max'),
    step: positive('step'),
    unique: flag('unique'),
  }),
  checkOptions(options) {
    const checked = { ...options, format: options.format ?? 'decimal' };
    const range = rangeProblem(checked);
    if (range) return range;
    if (
      checked.format === 'integer' &&
      [checked.min, checked.max, checked.step].some((value) => value !== undefined && !Number.isInteger(value))
    )
      return new OptionProblem('format', 'A whole number field needs whole numbers for its min, max and step.');
    return checked;
  },
  validation: () => ['required', 'unique', 'default', 'range', 'read_only'],
  kind: (options) => (options.format === 'integer' ? 'integer' : 'number'),
  spec: (options) =>
    limitsOf(options.format === 'integer' ? 'integer' : 'number', options, { range: { min: -1e14, max: 1e14 } }),
  fromCell: (cell, spec) => (spec.kind === 'integer' ? asWholeNumber(cell, spec) : asNumber(cell, spec)),
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: false,
  groupable: false,
});
