import { BooleanValue } from '../displays';
import { exactFilter } from '../filterSpecs';
import { BooleanFieldInput } from '../inputs';
import { type FieldTypeUI, never, noNumber } from './define';

/** Yes or no: a switch; a tick or a cross. */
export const boolean: FieldTypeUI = {
  type: 'boolean',
  Input: BooleanFieldInput,
  Value: BooleanValue,
  filters: (d) => exactFilter(d, 'boolean'),
  editor: () => 'boolean',
  history: (value) => (value ? 'Yes' : 'No'),
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
