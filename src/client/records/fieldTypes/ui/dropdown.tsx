import { lazy } from 'react';
import { ChoiceValue } from '../displays';
import { exactFilter } from '../filterSpecs';
import { choiceLabel } from '../format';
import { DropdownInput } from '../inputs';
import { type FieldTypeUI, never, noNumber } from './define';

/** A choice (several with `multiple`): a select; the choices by their labels. */
export const dropdown: FieldTypeUI = {
  type: 'dropdown',
  Input: DropdownInput,
  Value: ChoiceValue,
  filters: (d) => exactFilter(d, 'select'),
  editor: (d) => (d.multiple || !d.choices.length ? null : 'singleSelect'),
  history: (value, d) => choiceLabel(d, value),
  wide: never,
  structured: (d) => d.multiple,
  Options: lazy(() => import('./options/ChoicesOptions').then((m) => ({ default: m.DropdownOptions }))),
  numberFormat: noNumber,
};
