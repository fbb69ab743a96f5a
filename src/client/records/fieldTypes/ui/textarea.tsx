import { LongTextValue } from '../displays';
import { containsFilter } from '../filterSpecs';
import { TextareaInput } from '../inputs';
import { always, type FieldTypeUI, never, noNumber, plainHistory } from './define';

/** Several lines of text: the whole width of the form, clamped in lists. */
export const textarea: FieldTypeUI = {
  type: 'textarea',
  Input: TextareaInput,
  Value: LongTextValue,
  filters: containsFilter,
  editor: () => null,
  history: plainHistory,
  wide: always,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
