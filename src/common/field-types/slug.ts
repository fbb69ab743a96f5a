import * as z from 'zod/mini';
import { asText } from './cells.js';
import { defineFieldType } from './define.js';
import { limitsOf, rangeProblem } from './limits.js';
import { COMMON, finite, flag, positive } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/** The form of a slug (lower-case letters, digits, single dashes): every slug written is checked against it. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A slug: lower-case letters, digits and single dashes. */
export const slug = defineFieldType({
  type: 'slug',
  label: 'Slug',
  options: z.strictObject({ ...COMMON, min: finite('min'), max: positive('max'), unique: flag('unique') }),
  checkOptions: (options) => rangeProblem(options) ?? options,
  validation: () => ['required', 'unique', 'default', 'length', 'read_only'],
  kind: () => 'text',
  spec: (options, { label }) => ({
    ...limitsOf('text', options, { maxLength: 200 }),
    pattern: SLUG,
    patternMessage: `The ${label} may only hold lower-case letters, digits and single dashes.`,
  }),
  fromCell: asText,
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: true,
  groupable: false,
});
