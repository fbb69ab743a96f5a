import * as z from 'zod/mini';
import { asList } from './cells.js';
import { defineFieldType } from './define.js';
import { COMMON } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/** Files: the ids of documents (uploaded through POST /api/attachments), which must exist. */
export const attachment = defineFieldType({
  type: 'attachment',
  label: 'Attachment',
  options: z.strictObject({ ...COMMON }),
  checkOptions: (options) => options,
  validation: () => ['required', 'read_only'],
  kind: () => 'integer[]',
  spec: () => ({ references: { table: 'documents', softDelete: true } }),
  fromCell: asList,
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: false,
  groupable: false,
});
