/** What the screens of the computed types (formula, lookup, rollup) share: read-only, shown and filtered by kind. */
import TextField from '@mui/material/TextField';
import { useRecordContext } from 'react-admin';
import type { FieldDescriptor } from '../describe';
import { BooleanValue, DateValue, TextValue, type ValueView } from '../displays';
import { containsFilter, exactFilter, rangeFilters } from '../filterSpecs';
import type { InputComponentProps } from '../inputs';
import { type FieldTypeUI, never, noNumber } from './define';

/** The kind of value the field gives (number, text, date, yes/no...). */
export const kindOf = (d: FieldDescriptor) => d.computed?.kind ?? 'text';

/** A worked-out value in words: numbers as the browser writes them, yes/no as words. */
export function written(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return value.toLocaleString(undefined, { maximumFractionDigits: 10 });
  return String(value);
}

/** The form's read-only box showing the value, with what it is worked out from under it. */
export function ComputedBox({ label, value, help }: { label: string; value: unknown; help: string }) {
  return (
    <TextField
      label={label}
      value={written(value)}
      helperText={help}
      fullWidth
      slotProps={{ htmlInput: { readOnly: true, 'aria-readonly': true } }}
    />
  );
}

/** The form's input of a value worked out on the server from other records: as the saved record holds it. */
export function savedValueInput(help: string) {
  return function SavedValueInput({ descriptor }: InputComponentProps) {
    const record = useRecordContext();
    return <ComputedBox label={descriptor.label} value={record?.[descriptor.slug]} help={descriptor.help ?? help} />;
  };
}

/** The value as it reads, by its kind. */
export const ComputedValue: ValueView = (props) => {
  const kind = kindOf(props.descriptor);
  if (kind === 'boolean') return BooleanValue(props);
  if (kind === 'date' || kind === 'datetime') return DateValue(props);
  return TextValue({ ...props, value: typeof props.value === 'number' ? written(props.value) : props.value });
};

/** The screens' parts the computed types share: never edited in place, filtered as the kind they give. */
export const COMPUTED_UI = {
  Value: ComputedValue,
  filters(d: FieldDescriptor) {
    const kind = kindOf(d);
    if (kind === 'number' || kind === 'integer') return rangeFilters(d, 'number');
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
} satisfies Partial<FieldTypeUI>;
