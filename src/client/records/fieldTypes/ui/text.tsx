import { TextValue } from '../displays';
import { containsFilter, rangeFilters } from '../filterSpecs';
import { formatNumber } from '../format';
import { TextFieldInput } from '../inputs';
import { type FieldTypeUI, never } from './define';

/** Text, or a number when its options say so (`input: number | money`). */
export const text: FieldTypeUI = {
  type: 'text',
  Input: TextFieldInput,
  Value: TextValue,
  filters: (d) => (d.number ? rangeFilters(d, 'number') : containsFilter(d)),
  editor: (d) => (d.number ? 'number' : 'string'),
  history: (value, d) => (d.number && typeof value === 'number' ? formatNumber(value, d.number) : String(value)),
  wide: never,
  structured: never,
  Options: null,
  numberFormat: (options) => (options.input === 'money' ? 'money' : options.input === 'number' ? 'number' : undefined),
};
