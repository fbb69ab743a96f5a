import { lazy } from 'react';
import { valueKind } from '../../../../common/field-types';
import { COMPUTED_UI, savedValueInput } from './computed';
import type { FieldTypeUI } from './define';

/** A rollup (count, sum, average, least, greatest of related records): read-only, filtered from and to. */
export const rollup: FieldTypeUI = {
  type: 'rollup',
  // Saved records only: it counts other records.
  Input: savedValueInput('Worked out from the related records you may read.'),
  ...COMPUTED_UI,
  Options: lazy(() => import('./options/RollupOptions').then((m) => ({ default: m.RollupOptions }))),
  computed: (options) => ({ kind: valueKind('rollup', options), live: null }),
};
