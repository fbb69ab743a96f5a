import { lazy } from 'react';
import { RelationValue } from '../displays';
import { exactFilter } from '../filterSpecs';
import { RelationFieldInput } from '../inputs';
import { type FieldTypeUI, noNumber, plainHistory } from './define';

/** Related records: a searchable picker; their names, linked. Text targets (site address parts) hold text; the site's contractors list pairs contractors with crafts. */
export const relation: FieldTypeUI = {
  type: 'relation',
  Input: RelationFieldInput,
  Value: RelationValue,
  filters: (d) =>
    d.withTrade
      ? [{ source: 'contractor_ids', kind: 'reference', label: d.label }]
      : d.reference
        ? exactFilter(d, d.reference.value === 'text' ? 'reference-text' : 'reference')
        : [],
  editor: (d) => (d.reference?.value === 'id' && !d.multiple && !d.withTrade ? 'relation' : null),
  history: plainHistory,
  wide: (d) => d.withTrade || d.multiple,
  structured: (d) => d.withTrade || d.multiple,
  Options: lazy(() => import('./options/RelationOptions').then((m) => ({ default: m.RelationOptions }))),
  numberFormat: noNumber,
};
