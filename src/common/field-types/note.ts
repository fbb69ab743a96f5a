import * as z from 'zod/mini';
import { asText } from './cells.js';
import { defineFieldType } from './define.js';
import { limitsOf, rangeProblem } from './limits.js';
import { COMMON, TEXT_RULES } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

const { unique: _unique, ...rules } = TEXT_RULES;

/** A note: several lines of text (up to 20,000 characters). */
export const note = defineFieldType({
  type: 'note',
  label: 'Note',
  options: z.strictObject({ ...COMMON, ...rules }),
  checkOptions: (options) => rangeProblem(options) ?? options,
  validation: () => ['required', 'pattern', 'default', 'length', 'read_only'],
  kind: () => 'text',
  spec: (options) => limitsOf('text', options, { maxLength: 20_000 }),
  fromCell: asText,
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: true,
  groupable: false,
});
