/** The lookup editor of the field dialog: which relation of this type, and which field of the related records it shows. */
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMainData } from '../../../../app/hooks';
import type { OptionsEditorProps } from './props';
import { relationsOf } from './relatedRecords';

/** What a lookup cannot show: records, lists, other worked-out values (the server's lookupParts refuses them). */
const NOT_SHOWN = new Set(['relation', 'attachment', 'addresses', 'formula', 'lookup', 'rollup', 'json', 'note']);

export function LookupOptions({ options, onChange, schema, errors = {} }: OptionsEditorProps) {
  const { schemas } = useMainData();
  const relations = relationsOf(schema, schemas);
  const through = typeof options.through === 'string' ? options.through : '';
  const chosen = relations.find((relation) => relation.value === through);
  const fields = (chosen?.other.fields ?? []).filter((field) => !NOT_SHOWN.has(field.type));
  const field = typeof options.field === 'string' ? options.field : '';
  return (
    <Stack spacing={2}>
      <TextField
        select
        label="Through the relation"
        value={chosen ? through : ''}
        onChange={(event) => onChange({ ...options, through: event.target.value, field: undefined, result: undefined })}
        error={Boolean(errors.through)}
        helperText={errors.through ?? (relations.length ? undefined : 'This type has no relation to look through yet.')}
        size="small"
        slotProps={{ htmlInput: { 'data-testid': 'lookup-through' } }}
      >
        {relations.map((relation) => (
          <MenuItem key={relation.value} value={relation.value}>
            {relation.label} ({relation.other.name_singular})
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label={chosen ? `Field of the ${chosen.other.name_singular} shown` : 'Field shown'}
        value={fields.some((one) => one.slug === field) ? field : ''}
        onChange={(event) => onChange({ ...options, field: event.target.value, result: undefined })}
        disabled={!chosen}
        error={Boolean(errors.field)}
        helperText={errors.field}
        size="small"
        slotProps={{ htmlInput: { 'data-testid': 'lookup-field' } }}
      >
        {fields.map((one) => (
          <MenuItem key={one.slug} value={one.slug}>
            {one.name || one.slug}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
