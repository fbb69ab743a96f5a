import * as z from 'zod/mini';
import { asWholeNumber } from './cells.js';
import { defineFieldType } from './define.js';
import { COMMON } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';

/** The most stars a rating shows unless its options say (`max`: 3 to 10). */
export const RATING_STARS = 5;

/** How a file writes a rating besides the bare number: `4 stars`, `4/5`, `4 of 5`. */
const STARS_WRITTEN = /\s*(stars?|\/\s*\d+|of\s+\d+)\s*$/i;

/** A rating: a whole number of stars from 1 to 5 (`options.max` more or fewer), stored as a number. */
export const rating = defineFieldType({
  type: 'rating',
  label: 'Rating',
  options: z.strictObject({
    ...COMMON,
    max: z.optional(
      z
        .number({ error: 'The options.max must be a whole number from 3 to 10.' })
        .check(
          z.int('The options.max must be a whole number from 3 to 10.'),
          z.minimum(3, 'The options.max must be a whole number from 3 to 10.'),
          z.maximum(10, 'The options.max must be a whole number from 3 to 10.'),
        ),
    ),
  }),
  checkOptions: (options) => options,
  validation: () => ['required', 'default', 'read_only'],
  kind: () => 'integer',
  spec: (options) => ({ min: 1, max: options.max ?? RATING_STARS }),
  fromCell: (cell, spec) => asWholeNumber(cell.replace(STARS_WRITTEN, '').trim() || cell, spec),
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: (value, options) =>
    typeof value === 'number'
      ? `${value} of ${options.max ?? RATING_STARS}`
      : value === null || value === undefined
        ? ''
        : String(value),
  textual: false,
  groupable: false,
});
