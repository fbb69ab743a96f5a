import { TextValue } from '../displays';
import { containsFilter } from '../filterSpecs';
import { SlugInput } from '../inputs';
import { type FieldTypeUI, never, noNumber, plainHistory } from './define';

/** A slug: lower-case letters, digits and dashes. */
export const slug: FieldTypeUI = {
  type: 'slug',
  Input: SlugInput,
  Value: TextValue,
  filters: containsFilter,
  editor: () => null,
  history: plainHistory,
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
