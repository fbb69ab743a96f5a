import { ColorValue } from '../displays';
import { containsFilter } from '../filterSpecs';
import { ColorFieldInput } from '../inputs';
import { type FieldTypeUI, never, noNumber, plainHistory } from './define';

/** A colour: a picker beside the hex; a swatch. */
export const color: FieldTypeUI = {
  type: 'color',
  Input: ColorFieldInput,
  Value: ColorValue,
  filters: containsFilter,
  editor: () => 'string',
  history: plainHistory,
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
