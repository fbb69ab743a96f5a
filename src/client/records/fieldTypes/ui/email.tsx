import { EmailValue } from '../displays';
import { containsFilter } from '../filterSpecs';
import { EmailInput } from '../inputs';
import { type FieldTypeUI, never, noNumber, plainHistory } from './define';

/** An e-mail address: a mailto link. */
export const email: FieldTypeUI = {
  type: 'email',
  Input: EmailInput,
  Value: EmailValue,
  filters: containsFilter,
  editor: () => 'string',
  history: plainHistory,
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
