import * as z from 'zod/mini';
import { asText } from './cells.js';
import { defineFieldType } from './define.js';
import { COMMON, flag, pattern, text } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/** A phone number: digits, spaces, + - ( ) . # x ext. */
export const phone = defineFieldType({
  type: 'phone',
  label: 'Phone',
  options: z.strictObject({
    ...COMMON,
    pattern,
    pattern_message: text('pattern_message', 200),
    unique: flag('unique'),
    searchable: flag('searchable'),
  }),
  checkOptions: (options) => options,
  validation: () => ['required', 'pattern', 'unique', 'default', 'read_only'],
  kind: () => 'phone',
  spec: () => ({}),
  fromCell: asText,
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: true,
  groupable: false,
});
