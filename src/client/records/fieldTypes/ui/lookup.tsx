import TextField from '@mui/material/TextField';
import { useRecordContext } from 'react-admin';
import { valueKind } from '../../../../common/field-types';
import type { FieldDescriptor } from '../describe';
import { BooleanValue, DateValue, TextValue, type ValueView } from '../displays';
import { containsFilter, exactFilter, rangeFilters } from '../filterSpecs';
import type { InputComponentProps } from '../inputs';
import { type FieldTypeUI, never, noNumber } from './define';

const kindOf = (d: FieldDescriptor) => d.computed?.kind ?? 'text';

/** A looked-up value in words: numbers as the browser writes them, yes/no as words. */
function written(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return value.toLocaleString(undefined, { maximumFractionDigits: 10 });
  return String(value);
}

/** The related record's field as the saved record holds it: never typed here. */
function LookupInput({ descriptor }: InputComponentProps) {
  const record = useRecordContext();
  return (
    <TextField
      label={descriptor.label}
      value={written(record?.[descriptor.slug])}
      helperText={descriptor.help ?? 'Shown from the related record.'}
      fullWidth
      slotProps={{ htmlInput: { readOnly: true, 'aria-readonly': true } }}
    />
  );
}

const LookupValue: ValueView = (props) => {
  const kind = kindOf(props.descriptor);
  if (kind === 'boolean') return BooleanValue(props);
  if (kind === 'date' || kind === 'datetime') return DateValue(props);
  return TextValue({ ...props, value: typeof props.value === 'number' ? written(props.value) : props.value });
};

/** A lookup (a field of the related record): read-only; filtered as the kind of value it shows. */
export const lookup: FieldTypeUI = {
  type: 'lookup',
  Input: LookupInput,
  Value: LookupValue,
  filters(d) {
    const kind = kindOf(d);
    if (kind === 'number') return rangeFilters(d, 'number');
    if (kind === 'date' || kind === 'datetime') return rangeFilters(d, 'date');
    if (kind === 'boolean') return exactFilter(d, 'boolean');
    return containsFilter(d);
  },
  editor: () => null,
  history: written,
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
  computed: (options) => ({ kind: valueKind('lookup', options), live: null }),
};
