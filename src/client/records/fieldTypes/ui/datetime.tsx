import { formatDateTime } from '../../../i18n/dates';
import { DateTimeValue } from '../displays';
import { rangeFilters } from '../filterSpecs';
import { DateTimeFieldInput } from '../inputs';
import { type FieldTypeUI, never, noNumber } from './define';

/** An instant: a date and time picker; a "to" date in the filter covers that whole day. */
export const datetime: FieldTypeUI = {
  type: 'datetime',
  Input: DateTimeFieldInput,
  Value: DateTimeValue,
  filters: (d) => rangeFilters(d, 'date'),
  editor: () => 'dateTime',
  history: (value) => formatDateTime(String(value)),
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
