/** An autonumber's prefix (`INS-`) and its padding (digits at least: 4 writes 1 as 0001). */
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { autonumberText } from '../../../../../common/field-types/autonumber';
import type { OptionsEditorProps } from './props';

export function AutonumberOptions({ options, onChange }: OptionsEditorProps) {
  const prefix = typeof options.prefix === 'string' ? options.prefix : '';
  const padding = typeof options.padding === 'number' ? options.padding : 0;
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
      <TextField
        label="Prefix"
        value={prefix}
        onChange={(event) => onChange({ ...options, prefix: event.target.value || undefined })}
        size="small"
        slotProps={{ htmlInput: { maxLength: 20, 'data-testid': 'autonumber-prefix' } }}
      />
      <TextField
        label="Digits"
        type="number"
        value={padding}
        onChange={(event) => {
          const digits = Math.trunc(Number(event.target.value));
          onChange({ ...options, padding: Number.isFinite(digits) ? Math.min(12, Math.max(0, digits)) : 0 });
        }}
        size="small"
        sx={{ width: 100 }}
        slotProps={{ htmlInput: { min: 0, max: 12, 'data-testid': 'autonumber-padding' } }}
      />
      <span>First: {autonumberText(1, { prefix, padding })}</span>
    </Stack>
  );
}
