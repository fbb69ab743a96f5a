import { lazy } from 'react';
import { ChoiceValue } from '../displays';
import { exactFilter } from '../filterSpecs';
import { choiceLabel } from '../format';
import { RadiosInput } from '../inputs';
import { type FieldTypeUI, never, noNumber } from './define';

/** One of a few choices: radio buttons (in a row when horizontal); the choice by its label. */
export const radios: FieldTypeUI = {
  type: 'radios',
  Input: RadiosInput,
  Value: ChoiceValue,
  filters: (d) => exactFilter(d, 'select'),
  editor: (d) => (d.multiple || !d.choices.length ? null : 'singleSelect'),
  history: (value, d) => choiceLabel(d, value),
  wide: never,
  structured: (d) => d.multiple,
  Options: lazy(() => import('./options/ChoicesOptions').then((m) => ({ default: m.RadiosOptions }))),
  numberFormat: noNumber,
};
