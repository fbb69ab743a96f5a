import * as z from 'zod/mini';
import { asText } from './cells.js';
import { defineFieldType } from './define.js';
import { COMMON } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/** A colour, `#rrggbb`. */
export const color = defineFieldType({
  type: 'color',
  label: 'Color',
  options: z.strictObject({ ...COMMON }),
  checkOptions: (options) => options,
  validation: () => ['required', 'default', 'read_only'],
  kind: () => 'color',
  spec: () => ({}),
  fromCell: asText,
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: false,
  groupable: false,
});
