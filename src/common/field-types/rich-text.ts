import * as z from 'zod/mini';
import { asText } from './cells.js';
import { defineFieldType } from './define.js';
import { limitsOf, rangeProblem } from './limits.js';
import { COMMON, TEXT_RULES } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';

/** Raw HTML a person or a file put in the Markdown: taken out on every write (the screens never render HTML either). */
const HTML_TAG = /<\/?[a-zA-Z!?][^<>]*>/g;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Markdown as stored: without HTML tags or control characters. */
export const cleanMarkdown = (text: string) => text.replace(HTML_TAG, '').replace(CONTROL, '');

/** Markdown in plain words (the history, the assistant): marks and link targets left out. */
export const markdownWords = (value: unknown) =>
  typeof value === 'string'
    ? value
        .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/[*_`#>~]+/g, '')
        .replace(/\s+/g, ' ')
        .trim()
    : '';

const { unique: _unique, pattern: _pattern, pattern_message: _message, ...rules } = TEXT_RULES;

/** Formatted text written in Markdown (up to 20,000 characters): headings, lists, emphasis, links. */
export const richText = defineFieldType({
  type: 'rich-text',
  label: 'Rich text',
  options: z.strictObject({ ...COMMON, ...rules }),
  checkOptions: (options) => rangeProblem(options) ?? options,
  validation: () => ['required', 'default', 'length', 'read_only'],
  kind: () => 'text',
  spec: (options) => ({ ...limitsOf('text', options, { maxLength: 20_000 }), clean: cleanMarkdown }),
  fromCell: asText,
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: markdownWords,
  textual: true,
  groupable: false,
});
