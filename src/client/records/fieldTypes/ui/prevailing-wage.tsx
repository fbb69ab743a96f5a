import { BooleanValue } from '../displays';
import { exactFilter } from '../filterSpecs';
import { BooleanFieldInput } from '../inputs';
import { type FieldTypeUI, never, noNumber } from './define';

/** Prevailing wage: yes or no. */
export const prevailingWage: FieldTypeUI = {
  type: 'prevailing-wage',
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
