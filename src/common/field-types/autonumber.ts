import * as z from 'zod/mini';
import { asText } from './cells.js';
import { defineFieldType, type FilterArgs, type Sql } from './define.js';
import { COMMON } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, valueExpression } from './sql.js';
import { plainWords } from './words.js';

/** What a prefix may hold: letters, digits, spaces and `- _ . # /` (it is written into the field's trigger). */
const PREFIX = /^[\p{L}\p{N} _.#/-]*$/u;

/** The widest a number's text sorts right (`INS-0001` after `INS-999` needs the same width): see `sortable`. */
const SORT_WIDTH = 40;

/** `INS-` and 4 as `INS-0004` (at least `padding` digits): the trigger of migration 042 writes it the same way. */
export function autonumberText(n: number, options: { prefix?: string; padding?: number }) {
  return `${options.prefix ?? ''}${String(n).padStart(options.padding ?? 0, '0')}`;
}

/**
 * A number as a list orders it: right-aligned, so `INS-10` comes after `INS-9` (the numbers of a field share their
 * prefix and grow one at a time).
 */
const sortable = (sql: Sql, value: ReturnType<Sql>) => sql`lpad(${value}, ${sql.lit(SORT_WIDTH)}, ${sql.lit(' ')})`;

/**
 * An autonumber: the next number of the field's own sequence (`INS-0001`), given to every new record by the field's
 * trigger whatever path writes it (schemas/autonumbers.ts), and to the records there are when the field is added, in
 * the order they were made. Never written by people, never given twice.
 */
export const autonumber = defineFieldType({
  type: 'autonumber',
  label: 'Autonumber',
  options: z.strictObject({
    help: COMMON.help,
    hide_in_list: COMMON.hide_in_list,
    prefix: z.optional(
      z
        .string({ error: 'The options.prefix must be text.' })
        .check(
          z.maxLength(20, 'The options.prefix may not be longer than 20 characters.'),
          z.regex(PREFIX, 'The options.prefix may hold letters, digits, spaces and - _ . # / only.'),
        ),
    ),
    padding: z.optional(
      z
        .number({ error: 'The options.padding must be a whole number from 0 to 12.' })
        .check(
          z.int('The options.padding must be a whole number from 0 to 12.'),
          z.minimum(0, 'The options.padding must be a whole number from 0 to 12.'),
          z.maximum(12, 'The options.padding must be a whole number from 0 to 12.'),
        ),
    ),
  }),
  checkOptions: (options) => options,
  validation: () => [],
  kind: () => 'text',
  spec: () => ({ readOnly: true, max: 60 }),
  fromCell: asText,
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: {
    key: ({ sql, field, spec, alias }: Omit<FilterArgs, 'value'>) =>
      sortable(sql, valueExpression(sql, field, spec, alias)),
    index: ({ sql, field, spec }) => sortable(sql, valueExpression(sql, field, spec, null)),
  },
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: false,
  groupable: false,
});
