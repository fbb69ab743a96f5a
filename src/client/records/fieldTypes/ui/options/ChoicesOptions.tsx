/** The choices of a dropdown or radio buttons field: a label and the key stored for each (a slug of the label unless given). */
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { type FieldChoice, normaliseChoices } from '../../../../../common/schema-types';
import { choiceKey } from '../../../../../common/slugs';
import type { OptionsEditorProps } from './props';

/** The choices as they are stored: every typed row, its key a slug of its label unless one was given. */
const stored = (rows: FieldChoice[]) =>
  rows
    .filter((choice) => choice.value.trim() || choice.label.trim())
    .map((choice) => {
      const value = choice.value.trim() || choiceKey(choice.label);
      return { value, label: choice.label.trim() || value };
    });

export function ChoicesEditor({ options, onChange }: Pick<OptionsEditorProps, 'options' | 'onChange'>) {
  const [rows, setRows] = useState<FieldChoice[]>(() => {
    const list = normaliseChoices(options.choices);
    return list.length ? list : [{ value: '', label: '' }];
  });
  const change = (next: FieldChoice[]) => {
    setRows(next);
    onChange({ ...options, choices: stored(next) });
  };
  return (
    <Box>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Choices
      </Typography>
      <Stack spacing={1}>
        {rows.map((choice, index) => (
          <Stack direction="row" spacing={1} key={index} sx={{ alignItems: 'center' }}>
            <TextField
              label="Label"
              size="small"
              value={choice.label}
              onChange={(event) =>
                change(rows.map((item, i) => (i === index ? { ...item, label: event.target.value } : item)))
              }
              slotProps={{ htmlInput: { 'data-testid': `choice-label-${index}` } }}
              sx={{ flex: 1 }}
            />
            <TextField
              label="Value (stored)"
              size="small"
              value={choice.value}
              placeholder={choice.label ? choiceKey(choice.label) : ''}
              onChange={(event) =>
                change(rows.map((item, i) => (i === index ? { ...item, value: event.target.value } : item)))
              }
              slotProps={{ htmlInput: { 'data-testid': `choice-value-${index}` } }}
              sx={{ flex: 1 }}
            />
            <IconButton
              aria-label="Remove this choice"
              onClick={() => change(rows.filter((_item, i) => i !== index))}
              disabled={rows.length === 1}
            >
              <RemoveIcon />
            </IconButton>
          </Stack>
        ))}
      </Stack>
      <Button
        size="small"
        startIcon={<AddIcon />}
        onClick={() => change([...rows, { value: '', label: '' }])}
        sx={{ mt: 1 }}
      >
        Add a choice
      </Button>
    </Box>
  );
}

/** A dropdown: its choices, one value or several. */
export function DropdownOptions({ options, onChange, builtIn }: OptionsEditorProps) {
  return (
    <Stack spacing={2}>
      <ChoicesEditor options={options} onChange={onChange} />
      <FormControlLabel
        control={
          <Switch
            checked={Boolean(options.multiple)}
            onChange={(event) => onChange({ ...options, multiple: event.target.checked || undefined })}
            disabled={builtIn}
          />
        }
        label="Several values"
      />
    </Stack>
  );
}

/** Radio buttons: their choices, one under another or side by side. */
export function RadiosOptions({ options, onChange }: OptionsEditorProps) {
  return (
    <Stack spacing={2}>
      <ChoicesEditor options={options} onChange={onChange} />
      <TextField
        select
        label="Layout"
        value={options.orientation === 'horizontal' ? 'horizontal' : 'vertical'}
        onChange={(event) => onChange({ ...options, orientation: event.target.value })}
        size="small"
      >
        <MenuItem value="vertical">One under another</MenuItem>
        <MenuItem value="horizontal">Side by side</MenuItem>
      </TextField>
    </Stack>
  );
}
