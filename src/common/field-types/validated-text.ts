import * as z from 'zod/mini';
import { asText } from './cells.js';
import { defineFieldType, type ValueKind } from './define.js';
import { COMMON, flag, pattern, text } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/**
 * A one-line text whose value the server checks as its kind (an e-mail address, a web address, a phone number):
 * the same options, validation, cells, filters, sort and words for each, only the type, its label and kind differ.
 */
export const validatedTextType = (type: string, label: string, kind: ValueKind) =>
  defineFieldType({
    type,
    label,
    options: z.strictObject({
      ...COMMON,
      pattern,
      pattern_message: text('pattern_message', 200),
      unique: flag('unique'),
      searchable: flag('searchable'),
    }),
    checkOptions: (options) => options,
    validation: () => ['required', 'pattern', 'unique', 'default', 'read_only'],
    kind: () => kind,
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
