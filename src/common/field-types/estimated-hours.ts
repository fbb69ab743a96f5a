import * as z from 'zod/mini';
import { asNumber } from './cells.js';
import { defineFieldType } from './define.js';
import { limitsOf, rangeProblem } from './limits.js';
import { COMMON, finite, positive } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/** Hours of work: a number from 0 to 1e9 (`options.max` lower). */
export const estimatedHours = defineFieldType({
  type: 'estimated-hours',
  label: 'Estimated hours',
  options: z.strictObject({ ...COMMON, min: finite('min'), max: positive('max'), step: positive('step') }),
  checkOptions: (options) => rangeProblem(options) ?? options,
  validation: () => ['required', 'default', 'range', 'read_only'],
  kind: () => 'number',
  spec: (options) => limitsOf('number', options, { range: { min: 0, max: 1e9 } }),
  fromCell: asNumber,
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: false,
  groupable: false,
});
