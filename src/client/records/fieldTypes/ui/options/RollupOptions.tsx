/**
 * The rollup editor of the field dialog: which related records (those pointing at this one, or those this one's
 * relation points at), the function, the field it takes and a condition the records must hold (`where`).
 */
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect } from 'react';
import { ROLLUP_FUNCTIONS } from '../../../../../common/field-types/rollup';
import { useMainData } from '../../../../app/hooks';
import type { ViewFilterGroup } from '../../../../views/viewFilters';
import { ConditionEditor } from './ConditionEditor';
import type { OptionsEditorProps } from './props';
import { kindOfField, relationsOf, relationsTo } from './relatedRecords';

const FUNCTION_WORDS: Readonly<Record<(typeof ROLLUP_FUNCTIONS)[number], string>> = {
  count: 'Number of records',
  sum: 'Total of',
  avg: 'Average of',
  min: 'Least of',
  max: 'Greatest of',
};

export function RollupOptions({ options, onChange, schema, errors = {} }: OptionsEditorProps) {
  const { schemas } = useMainData();
  const related = [...relationsTo(schema, schemas), ...relationsOf(schema, schemas)];
  const current =
    typeof options.from === 'string'
      ? `from:${options.from}`
      : typeof options.through === 'string'
        ? `through:${options.through}`
        : '';
  const chosen = related.find((one) => `${one.key}:${one.value}` === current);
  const fn = typeof options.function === 'string' ? options.function : 'count';
  // A new rollup counts until another function is chosen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the editor opens
  useEffect(() => {
    if (typeof options.function !== 'string') onChange({ ...options, function: fn });
  }, []);
  const dated = fn === 'min' || fn === 'max';
  const fields = (chosen?.other.fields ?? []).filter((field) => {
    const kind = kindOfField(field);
    return (
      !['formula', 'lookup', 'rollup'].includes(field.type) &&
      (kind === 'number' || kind === 'integer' || (dated && (kind === 'date' || kind === 'datetime')))
    );
  });
  const field = typeof options.field === 'string' ? options.field : '';
  const relationError = errors.from ?? errors.through;
  return (
    <Stack spacing={2}>
      <TextField
        select
        label="Related records"
        value={chosen ? current : ''}
        onChange={(event) => {
          const [key, value] = [
            event.target.value.split(':')[0],
            event.target.value.slice(event.target.value.indexOf(':') + 1),
          ];
          onChange({
            ...options,
            from: key === 'from' ? value : undefined,
            through: key === 'through' ? value : undefined,
            field: undefined,
            where: undefined,
            result: undefined,
          });
        }}
        error={Boolean(relationError)}
        helperText={relationError ?? (related.length ? undefined : 'No relation joins this type to another yet.')}
        size="small"
        slotProps={{ htmlInput: { 'data-testid': 'rollup-related' } }}
      >
        {related.map((one) => (
          <MenuItem key={`${one.key}:${one.value}`} value={`${one.key}:${one.value}`}>
            {one.key === 'through'
              ? `${one.label} (${one.other.name_singular}, through this record's relation)`
              : one.label}
          </MenuItem>
        ))}
      </TextField>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          select
          label="Function"
          value={fn}
          onChange={(event) =>
            onChange({
              ...options,
              function: event.target.value,
              field: event.target.value === 'count' ? undefined : options.field,
              result: undefined,
            })
          }
          error={Boolean(errors.function)}
          helperText={errors.function}
          size="small"
          sx={{ flex: 1 }}
          slotProps={{ htmlInput: { 'data-testid': 'rollup-function' } }}
        >
          {ROLLUP_FUNCTIONS.map((one) => (
            <MenuItem key={one} value={one}>
              {FUNCTION_WORDS[one]}
            </MenuItem>
          ))}
        </TextField>
        {fn !== 'count' && (
          <TextField
            select
            label="Field"
            value={fields.some((one) => one.slug === field) ? field : ''}
            onChange={(event) => onChange({ ...options, field: event.target.value, result: undefined })}
            disabled={!chosen}
            error={Boolean(errors.field)}
            helperText={
              errors.field ??
              (chosen && !fields.length ? `${chosen.other.name_plural} have no field to ${fn}.` : undefined)
            }
            size="small"
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { 'data-testid': 'rollup-field' } }}
          >
            {fields.map((one) => (
              <MenuItem key={one.slug} value={one.slug}>
                {one.name || one.slug}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Stack>
      {chosen && (
        <ConditionEditor
          fields={chosen.other.fields}
          value={options.where as ViewFilterGroup | undefined}
          onChange={(where) => onChange({ ...options, where })}
          error={errors.where}
        />
      )}
    </Stack>
  );
}
