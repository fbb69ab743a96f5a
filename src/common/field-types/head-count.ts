import * as z from 'zod/mini';
import { HEAD_COUNT_NUMBERS, headCountProblem } from '../head-count.js';
import { asText } from './cells.js';
import { defineFieldType } from './define.js';
import { COMMON } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS } from './sql.js';

const count = z._default(z.number({ error: 'Each count must be a whole number, 0 or more.' }), 0);
const row = z.strictObject({
  contractor_id: z.number({ error: 'Each row of the head count needs its contractor.' }).check(z.int(), z.positive()),
  trade_ids: z._default(
    z
      .array(z.number().check(z.int(), z.positive()), {
        error: 'The trades of a head count row must be a list of ids.',
      })
      .check(z.maxLength(20)),
    [],
  ),
  ...(Object.fromEntries(HEAD_COUNT_NUMBERS.map((key) => [key, count])) as Record<
    (typeof HEAD_COUNT_NUMBERS)[number],
    typeof count
  >),
});

/** A head count (common/head-count.ts): rows of counts by contractor, each row's counts consistent. */
export const HEAD_COUNTS = z
  .array(row, {
    error:
      'The head count must be a list of {contractor_id, trade_ids, workers, union_workers, non_union_workers, talked_to, cards_signed, contacts_made, recruits_signed}.',
  })
  .check(z.maxLength(200), (check) => {
    check.value.forEach((item, index) => {
      const problem = headCountProblem(item as Record<string, unknown>, `Row ${index + 1}`);
      if (problem) check.issues.push({ code: 'custom', message: problem, input: check.value, path: [index] });
    });
  });

const sum = (value: unknown, key: string) =>
  Array.isArray(value) ? value.reduce((total, item) => total + (Number(item?.[key]) || 0), 0) : 0;

/** Who was counted on a visit, by contractor: workers, union and non-union, conversations (docs/visits.md). */
export const headCount = defineFieldType({
  type: 'head-count',
  label: 'Head count',
  options: z.strictObject({ ...COMMON }),
  checkOptions: (options) => options,
  validation: () => ['required', 'read_only'],
  kind: () => 'json',
  spec: () => ({ sortable: false, shape: HEAD_COUNTS }),
  fromCell: asText,
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: null,
  filterIndex: STANDARD_FILTER_INDEX,
  words: (value) =>
    Array.isArray(value) && value.length
      ? `${sum(value, 'workers')} workers (${sum(value, 'union_workers')} union) by ${value.length} contractor${value.length === 1 ? '' : 's'}`
      : '',
  textual: false,
  groupable: false,
});
