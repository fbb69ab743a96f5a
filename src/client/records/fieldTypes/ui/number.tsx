import { lazy } from 'react';
import { NUMBER_FORMATS, type NumberFieldFormat } from '../../../../common/field-types';
import { TextValue } from '../displays';
import { rangeFilters } from '../filterSpecs';
import { formatNumber } from '../format';
import { NumberFieldInput } from '../inputs';
import { type FieldTypeUI, never } from './define';

/** A number in its format (whole, decimal, currency), with its range and step. */
export const number: FieldTypeUI = {
  type: 'number',
  Input: NumberFieldInput,
  Value: TextValue,
  filters: (d) => rangeFilters(d, 'number'),
  editor: () => 'number',
  history: (value, d) => (typeof value === 'number' ? formatNumber(value, d.number) : String(value)),
  wide: never,
  structured: never,
  Options: lazy(() => import('./options/NumberOptions').then((m) => ({ default: m.NumberOptions }))),
  numberFormat: (options) =>
    (NUMBER_FORMATS as readonly unknown[]).includes(options.format) ? (options.format as NumberFieldFormat) : 'decimal',
};
