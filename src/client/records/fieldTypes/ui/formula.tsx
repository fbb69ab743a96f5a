import TextField from '@mui/material/TextField';
import { useRecordContext } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { formulaPreview, valueKind } from '../../../../common/field-types';
import type { FieldDescriptor } from '../describe';
import { BooleanValue, DateValue, TextValue, type ValueView } from '../displays';
import { containsFilter, exactFilter, rangeFilters } from '../filterSpecs';
import type { InputComponentProps } from '../inputs';
import { type FieldTypeUI, never, noNumber } from './define';

const kindOf = (d: FieldDescriptor) => d.computed?.kind ?? 'text';

/** A value of the formula in words: numbers as the browser writes them, yes/no as words. */
function written(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return value.toLocaleString(undefined, { maximumFractionDigits: 10 });
  return String(value);
}

/** The formula's value, worked out as the other fields are typed; never typed itself. */
function FormulaInput({ descriptor }: InputComponentProps) {
  const values = useWatch() as Record<string, unknown>;
  const record = useRecordContext();
  const live = descriptor.computed?.live;
  const value = live ? live(values ?? {}) : record?.[descriptor.slug];
  return (
    <TextField
      label={descriptor.label}
      value={written(value)}
      helperText={descriptor.help ?? 'Worked out from the other fields.'}
      fullWidth
      slotProps={{ htmlInput: { readOnly: true, 'aria-readonly': true } }}
    />
  );
}

const FormulaValue: ValueView = (props) => {
  const kind = kindOf(props.descriptor);
  if (kind === 'boolean') return BooleanValue(props);
  if (kind === 'date') return DateValue(props);
  return TextValue({ ...props, value: typeof props.value === 'number' ? written(props.value) : props.value });
};

/** A formula: read-only everywhere; filtered as the kind of value it gives (number, text, date, yes/no). */
export const formula: FieldTypeUI = {
  type: 'formula',
  Input: FormulaInput,
  Value: FormulaValue,
  filters(d) {
    const kind = kindOf(d);
    if (kind === 'number') return rangeFilters(d, 'number');
    if (kind === 'date') return rangeFilters(d, 'date');
    if (kind === 'boolean') return exactFilter(d, 'boolean');
    return containsFilter(d);
  },
  editor: () => null,
  history: written,
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
  computed(options, self, fields) {
    const expression = typeof options.expression === 'string' ? options.expression : '';
    const kind = valueKind('formula', options);
    const others = fields.map((field) => ({
      slug: field.slug,
      name: field.name || field.slug,
      type: String(field.type ?? 'text'),
      options: (field.options ?? {}) as Record<string, unknown>,
      kind: valueKind(String(field.type ?? 'text'), (field.options ?? {}) as Record<string, unknown>),
    }));
    return { kind, live: formulaPreview(expression, self, others) };
  },
};
