/** A number field's format: whole number, decimal or currency (its range and step are validation options). */
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { NUMBER_FORMATS, type NumberFieldFormat } from '../../../../../common/field-types';
import type { OptionsEditorProps } from './props';

const FORMAT_LABELS: Record<NumberFieldFormat, string> = {
  integer: 'Whole number',
  decimal: 'Decimal',
  currency: 'Currency ($)',
};

export function NumberOptions({ options, onChange }: OptionsEditorProps) {
  const format = (NUMBER_FORMATS as readonly unknown[]).includes(options.format) ? options.format : 'decimal';
  return (
    <TextField
      select
      label="Format"
      value={format}
      onChange={(event) => onChange({ ...options, format: event.target.value })}
      size="small"
      sx={{ minWidth: 190 }}
      data-testid="number-format"
    >
      {NUMBER_FORMATS.map((id) => (
        <MenuItem key={id} value={id}>
          {FORMAT_LABELS[id]}
        </MenuItem>
      ))}
    </TextField>
  );
}
