import * as z from 'zod/mini';
import { defineFieldType } from './define.js';
import { COMMON, positive } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS } from './sql.js';

/** The longest a JSON value may be written, in characters, unless its options say less. */
export const JSON_LONGEST = 100_000;

/** A value in one line of JSON (history, the assistant, the list's cells). */
export const jsonWords = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/**
 * Any JSON value (an object, a list, text, a number), at most `options.max` characters written. A file's cell must be
 * JSON itself (`{"a": 1}`, `"text"`, `3`). Lists find it by the text it contains or by being empty; they do not sort
 * by it.
 */
export const json = defineFieldType({
  type: 'json',
  label: 'JSON',
  options: z.strictObject({ ...COMMON, max: positive('max') }),
  checkOptions: (options) => options,
  validation: () => ['required', 'default', 'read_only'],
  kind: () => 'json',
  spec: (options) => ({ sortable: false, max: Math.min(options.max ?? JSON_LONGEST, JSON_LONGEST) }),
  fromCell(cell) {
    try {
      return { ok: true, value: JSON.parse(cell) };
    } catch {
      return { ok: false, error: `"${cell.length > 40 ? `${cell.slice(0, 37)}...` : cell}" is not JSON.` };
    }
  },
  toCell: 'value',
  filters: { like: STANDARD_FILTERS.like, null: STANDARD_FILTERS.null },
  sort: null,
  filterIndex: STANDARD_FILTER_INDEX,
  words: jsonWords,
  textual: false,
  groupable: false,
});
