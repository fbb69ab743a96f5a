import { LongTextValue } from '../displays';
import { containsFilter } from '../filterSpecs';
import { NoteInput } from '../inputs';
import { always, type FieldTypeUI, never, noNumber, plainHistory } from './define';

/** A note: several lines of text. */
export const note: FieldTypeUI = {
  type: 'note',
  Input: NoteInput,
  Value: LongTextValue,
  filters: containsFilter,
  editor: () => null,
  history: plainHistory,
  wide: always,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
