import * as z from 'zod/mini';
import { asText } from './cells.js';
import { defineFieldType } from './define.js';
import { COMMON, flag, pattern, text } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/** A link to a profile on a social network (the screens name the network). */
export const socialLink = defineFieldType({
  type: 'social-link',
  label: 'Social link',
  options: z.strictObject({
    ...COMMON,
    pattern,
    pattern_message: text('pattern_message', 200),
    unique: flag('unique'),
    searchable: flag('searchable'),
  }),
  checkOptions: (options) => options,
  validation: () => ['required', 'pattern', 'unique', 'default', 'read_only'],
  kind: () => 'url',
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
