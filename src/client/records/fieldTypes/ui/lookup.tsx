import { lazy } from 'react';
import { valueKind } from '../../../../common/field-types';
import { COMPUTED_UI, savedValueInput } from './computed';
import type { FieldTypeUI } from './define';

/** A lookup (a field of the related record): read-only; filtered as the kind of value it shows. */
export const lookup: FieldTypeUI = {
  type: 'lookup',
  Input: savedValueInput('Shown from the related record.'),
  ...COMPUTED_UI,
  Options: lazy(() => import('./options/LookupOptions').then((m) => ({ default: m.LookupOptions }))),
  computed: (options) => ({ kind: valueKind('lookup', options), live: null }),
};
