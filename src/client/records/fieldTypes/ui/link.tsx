import { LinkValue } from '../displays';
import { containsFilter } from '../filterSpecs';
import { LinkInput } from '../inputs';
import { type FieldTypeUI, never, noNumber, plainHistory } from './define';

/** A web address: an external link. */
export const link: FieldTypeUI = {
  type: 'link',
  Input: LinkInput,
  Value: LinkValue,
  filters: containsFilter,
  editor: () => 'string',
  history: plainHistory,
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
