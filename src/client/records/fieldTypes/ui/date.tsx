import { formatDate } from '../../../i18n/dates';
import { DateValue } from '../displays';
import { rangeFilters } from '../filterSpecs';
import { DateFieldInput } from '../inputs';
import { type FieldTypeUI, never, noNumber } from './define';

/** A day: a date picker; the day as people write it. */
export const date: FieldTypeUI = {
  type: 'date',
  Input: DateFieldInput,
  Value: DateValue,
  filters: (d) => rangeFilters(d, 'date'),
  editor: () => 'date',
  history: (value) => formatDate(`${String(value).slice(0, 10)}T12:00:00`),
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
