import * as z from 'zod/mini';
import { asDateTime } from './cells.js';
import { defineFieldType } from './define.js';
import { COMMON } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/** An instant, ISO 8601, stored as `…Z`. */
export const datetime = defineFieldType({
  type: 'datetime',
  label: 'Date and time',
  options: z.strictObject({ ...COMMON }),
  checkOptions: (options) => options,
  validation: () => ['required', 'default', 'read_only'],
  kind: () => 'datetime',
  spec: () => ({}),
  fromCell: asDateTime,
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: false,
  groupable: false,
});
