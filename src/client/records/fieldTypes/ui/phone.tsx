import { PhoneValue } from '../displays';
import { containsFilter } from '../filterSpecs';
import { PhoneInput } from '../inputs';
import { type FieldTypeUI, never, noNumber, plainHistory } from './define';

/** A phone number: a tel link. */
export const phone: FieldTypeUI = {
  type: 'phone',
  Input: PhoneInput,
  Value: PhoneValue,
  filters: containsFilter,
  editor: () => 'string',
  history: plainHistory,
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
