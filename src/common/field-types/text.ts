import * as z from 'zod/mini';
import { asNumber, asText } from './cells.js';
import { defineFieldType, OptionProblem } from './define.js';
import { limitsOf, rangeProblem } from './limits.js';
import { COMMON, oneOf, positive, TEXT_RULES, text as textOption } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

const numeric = (options: { input?: unknown }) => options.input === 'number' || options.input === 'money';

/** One line of text; with `input: number | money` (built-in columns such as a site's value) a number. */
export const text = defineFieldType({
  type: 'text',
  label: 'Text',
  options: z.strictObject({
    ...COMMON,
    ...TEXT_RULES,
    /** Typed as a number or an amount of money (a numeric column): the value is a number. */
    input: oneOf('input', ['number', 'money']),
    step: positive('step'),
    /** Other fields may relate to this built-in field's distinct values as this target (`site-city`). */
    text_target: textOption('text_target', 60),
  }),
  checkOptions(options) {
    if (numeric(options) && options.searchable)
      return new OptionProblem('searchable', 'Only text fields can be searchable.');
    return rangeProblem(options) ?? options;
  },
  validation: (options) =>
    numeric(options)
      ? ['required', 'unique', 'default', 'range', 'read_only']
      : ['required', 'pattern', 'unique', 'default', 'length', 'read_only'],
  kind: (options) => (numeric(options) ? 'number' : 'text'),
  spec: (options) => limitsOf(numeric(options) ? 'number' : 'text', options, { maxLength: 2_000 }),
  fromCell: (cell, spec) => (spec.kind === 'number' ? asNumber(cell, spec) : asText(cell, spec)),
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: true,
  groupable: false,
});
