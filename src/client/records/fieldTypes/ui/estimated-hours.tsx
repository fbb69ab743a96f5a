import { TextValue } from '../displays';
import { rangeFilters } from '../filterSpecs';
import { formatNumber } from '../format';
import { HoursInput } from '../inputs';
import { type FieldTypeUI, never } from './define';

/** Hours of work: a number with an h. */
export const estimatedHours: FieldTypeUI = {
  type: 'estimated-hours',
  Input: HoursInput,
  Value: TextValue,
  filters: (d) => rangeFilters(d, 'number'),
  editor: () => 'number',
  history: (value) => (typeof value === 'number' ? formatNumber(value, 'hours') : String(value)),
  wide: never,
  structured: never,
  Options: null,
  numberFormat: () => 'hours',
};
