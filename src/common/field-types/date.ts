import * as z from 'zod/mini';
import { asDate } from './cells.js';
import { defineFieldType } from './define.js';
import { COMMON, flag } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/** A day, `YYYY-MM-DD`. */
export const date = defineFieldType({
  type: 'date',
  label: 'Date',
  options: z.strictObject({ ...COMMON, unique: flag('unique') }),
  checkOptions: (options) => options,
  validation: () => ['required', 'unique', 'default', 'read_only'],
  kind: () => 'date',
  spec: () => ({}),
  fromCell: asDate,
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: false,
  groupable: false,
});
