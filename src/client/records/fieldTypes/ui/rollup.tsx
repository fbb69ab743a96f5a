import TextField from '@mui/material/TextField';
import { useRecordContext } from 'react-admin';
import { valueKind } from '../../../../common/field-types';
import type { FieldDescriptor } from '../describe';
import { DateValue, TextValue, type ValueView } from '../displays';
import { rangeFilters } from '../filterSpecs';
import type { InputComponentProps } from '../inputs';
import { type FieldTypeUI, never, noNumber } from './define';

const isDate = (d: FieldDescriptor) => d.computed?.kind === 'date';
const written = (value: unknown) =>
  value === null || value === undefined
    ? ''
    : typeof value === 'number'
      ? value.toLocaleString(undefined, { maximumFractionDigits: 4 })
      : String(value);

/** The rollup as the record holds it (saved records only: it counts other records). */
function RollupInput({ descriptor }: InputComponentProps) {
  const record = useRecordContext();
  return (
    <TextField
      label={descriptor.label}
      value={written(record?.[descriptor.slug])}
      helperText={descriptor.help ?? 'Worked out from the related records you may read.'}
      fullWidth
      slotProps={{ htmlInput: { readOnly: true, 'aria-readonly': true } }}
    />
  );
}

const RollupValue: ValueView = (props) =>
  isDate(props.descriptor) ? DateValue(props) : TextValue({ ...props, value: written(props.value) || null });

/** A rollup (count, sum, average, least, greatest of related records): read-only, filtered from and to. */
export const rollup: FieldTypeUI = {
  type: 'rollup',
  Input: RollupInput,
  Value: RollupValue,
  filters: (d) => rangeFilters(d, isDate(d) ? 'date' : 'number'),
  editor: () => null,
  history: written,
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
  computed: (options) => ({ kind: valueKind('rollup', options), live: null }),
};
