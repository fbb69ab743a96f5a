import * as z from 'zod/mini';
import { asChoices, asText } from './cells.js';
import { defineFieldType } from './define.js';
import { COMMON, checkedChoices, choiceSpec, choices, flag, text } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { choiceWords } from './words.js';

/**
 * One of a list of choices (several with `multiple`); with `choices_from` (built-in fields: a site's type) the value
 * is the slug of a live row of that list, which administrators extend.
 */
export const dropdown = defineFieldType({
  type: 'dropdown',
  label: 'Dropdown',
  options: z.strictObject({
    ...COMMON,
    choices,
    multiple: flag('multiple'),
    /** The allowed values are the slugs of this list (`site-types`). */
    choices_from: text('choices_from', 60),
  }),
  checkOptions(options) {
    const list = checkedChoices(options.choices, 'dropdown');
    return Array.isArray(list) ? { ...options, choices: list } : list;
  },
  validation: () => ['required', 'default', 'read_only'],
  kind: (options) => (options.choices_from ? 'text' : options.multiple ? 'enum[]' : 'enum'),
  spec(options) {
    if (typeof options.choices_from === 'string') return { max: 60, slugOf: options.choices_from.replace(/-/g, '_') };
    return choiceSpec(options);
  },
  fromCell: (cell, spec) => (spec.slugOf ? asText(cell, spec) : asChoices(cell, spec)),
  toCell: 'choice-labels',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: (value, options) => choiceWords(value, options),
  textual: false,
  groupable: true,
});
