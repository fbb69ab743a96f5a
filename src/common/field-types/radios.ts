import * as z from 'zod/mini';
import { asChoices } from './cells.js';
import { defineFieldType } from './define.js';
import { COMMON, checkedChoices, choiceSpec, choices, oneOf } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { choiceWords } from './words.js';

/** One of a few choices, shown as radio buttons one under another or side by side. */
export const radios = defineFieldType({
  type: 'radios',
  label: 'Radio buttons',
  options: z.strictObject({ ...COMMON, choices, orientation: oneOf('orientation', ['horizontal', 'vertical']) }),
  checkOptions(options) {
    const list = checkedChoices(options.choices, 'radios');
    return Array.isArray(list) ? { ...options, choices: list, orientation: options.orientation ?? 'vertical' } : list;
  },
  validation: () => ['required', 'default', 'read_only'],
  kind: () => 'enum',
  spec: (options) => choiceSpec(options),
  fromCell: asChoices,
  toCell: 'choice-labels',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: (value, options) => choiceWords(value, options),
  textual: false,
  groupable: true,
});
