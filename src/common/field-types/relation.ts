import * as z from 'zod/mini';
import { asList, asText, asWholeNumber } from './cells.js';
import { defineFieldType, OptionProblem } from './define.js';
import { COMMON, flag, text } from './options.js';
import { STANDARD_FILTER_INDEX, STANDARD_FILTERS, STANDARD_SORT } from './sql.js';
import { plainWords } from './words.js';

/**
 * A link to other records: the id of a record of `options.target` (several with `multiple`), or, for a target that is
 * a site address part, its text. The site's contractors (`with_trade`) are `[{contractor_id, trade_id}]` pairs.
 */
export const relation = defineFieldType({
  type: 'relation',
  label: 'Relation',
  options: z.strictObject({
    ...COMMON,
    /** What it points at (common/schema-types.ts relationTargets). */
    target: text('target', 60),
    multiple: flag('multiple'),
    /** The site's contractors, each with a trade (built in). */
    with_trade: flag('with_trade'),
    unique: flag('unique'),
  }),
  checkOptions(options, { targets }) {
    const target = typeof options.target === 'string' ? targets[options.target] : undefined;
    if (!target)
      return new OptionProblem(
        'target',
        `A relation needs its target (options.target), one of: ${Object.keys(targets).join(', ')}.`,
      );
    if (options.multiple && target.value === 'text')
      return new OptionProblem('multiple', 'A relation to a site address part holds one value.');
    return options;
  },
  validation: (options) =>
    options.multiple || options.with_trade ? ['required', 'read_only'] : ['required', 'unique', 'read_only'],
  kind: (options, target) =>
    options.with_trade ? 'json' : target === 'text' ? 'text' : options.multiple ? 'integer[]' : 'integer',
  spec(options, { target }) {
    if (options.with_trade) return { sortable: false };
    if (target?.value === 'text') return { max: 200 };
    return { ...(options.multiple ? {} : { min: 1 }), references: target?.references ?? undefined };
  },
  fromCell: (cell, spec) =>
    spec.kind === 'integer[]'
      ? asList(cell, spec)
      : spec.kind === 'integer'
        ? asWholeNumber(cell, spec)
        : asText(cell, spec),
  toCell: 'names',
  filters: STANDARD_FILTERS,
  sort: STANDARD_SORT,
  filterIndex: STANDARD_FILTER_INDEX,
  words: plainWords,
  textual: false,
  groupable: false,
});
