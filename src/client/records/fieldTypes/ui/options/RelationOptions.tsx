/** What a relation points at, and whether it holds several records (not a site address part). */
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useEffect } from 'react';
import { titleCase } from '../../../../i18n/labels';
import { relationTargetList } from '../../../../resources/names';
import type { OptionsEditorProps } from './props';

/** SPEC calls trades crafts. */
const TARGET_LABELS: Record<string, string> = { trade: 'Craft (trade)' };

/** The relation targets the loaded record types offer, for the target picker. */
export function relationTargetChoices(): Array<{ id: string; name: string }> {
  return relationTargetList().map(([target, info]) => ({
    id: target,
    name: TARGET_LABELS[target] ?? info.label ?? titleCase(target.replace(/-/g, ' ')),
  }));
}

export function RelationOptions({ options, onChange, builtIn }: OptionsEditorProps) {
  const target = typeof options.target === 'string' ? options.target : 'contact';
  const textTarget = target.startsWith('site-');
  // A new relation points at what the picker shows first until another is chosen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the editor opens
  useEffect(() => {
    if (typeof options.target !== 'string') onChange({ ...options, target });
  }, []);
  return (
    <Stack spacing={2}>
      <TextField
        select
        label="Points at"
        value={target}
        onChange={(event) =>
          onChange({
            ...options,
            target: event.target.value,
            multiple: event.target.value.startsWith('site-') ? undefined : options.multiple,
          })
        }
        size="small"
        disabled={builtIn}
      >
        {relationTargetChoices().map((choice) => (
          <MenuItem key={choice.id} value={choice.id}>
            {choice.name}
          </MenuItem>
        ))}
      </TextField>
      {!textTarget && (
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
      )}
    </Stack>
  );
}
