import { HeadCountValue } from '../HeadCountDisplay';
import { LazyHeadCountInput } from '../inputs';
import { always, type FieldTypeUI, noNumber, plainHistory } from './define';

/** A head count: rows by contractor; totals. */
export const headCount: FieldTypeUI = {
  type: 'head-count',
  Input: LazyHeadCountInput,
  Value: HeadCountValue,
  filters: () => [],
  editor: () => null,
  history: plainHistory,
  wide: always,
  structured: always,
  Options: null,
  numberFormat: noNumber,
};
