import type { FieldTypeModule } from './define.js';
import { STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/**
 * What the computed types (formula, lookup, rollup) share: read-only, no validation option, a file's cell left aside
 * (validation ignores what is sent for them), exported as shown, filtered with the standard operators of the kind
 * they give and sorted by their SQL, which no plain index serves (a formula's own module indexes its SQL where it can).
 */
export const COMPUTED_PARTS = {
  validation: () => [],
  spec: () => ({ readOnly: true }),
  fromCell: (cell: string) => ({ ok: true, value: cell }),
  toCell: 'value',
  filters: STANDARD_FILTERS,
  sort: { key: STANDARD_SORT.key, index: () => null },
  filterIndex: () => null,
  words: plainWords,
  textual: false,
  groupable: false,
} as const satisfies Omit<FieldTypeModule, 'type' | 'label' | 'options' | 'checkOptions' | 'kind' | 'compute'>;
