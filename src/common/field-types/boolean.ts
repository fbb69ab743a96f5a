import * as z from 'zod/mini';
import { asFlag } from './cells.js';
import { defineFieldType } from './define.js';
import { COMMON } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/** Yes or no. */
export const boolean = defineFieldType({
  type: 'boolean',
  label: 'Yes / no',
  options: z.strictObject({ ...COMMON }),
  checkOptions: (options) => options,
  validation: () => ['default', 'read_only'],
  kind: () => 'boolean',
  spec: () => ({}),
  fromCell: asFlag,
  toCell: 'yes-no',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: false,
  groupable: false,
});
