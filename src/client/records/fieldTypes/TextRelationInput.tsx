/**
 * A searchable input for relations that hold text (site address parts: street, city, county, state, postal code):
 * suggestions from GET /api/options/{list}?q=, and any new value may be typed.
 */

import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FieldTitle, InputHelperText, type InputProps, useInput } from 'react-admin';
import { useAppDataProvider } from '../hooks';

export interface TextRelationInputProps extends Omit<InputProps, 'source'> {
  source: string;
  optionsPath: string;
  label?: string;
  helperText?: string;
}

export function TextRelationInput({
  source,
  optionsPath,
  label,
  helperText,
  validate,
  alwaysOn: _alwaysOn,
  ...rest
}: TextRelationInputProps & { alwaysOn?: boolean }) {
  const { field, fieldState, isRequired } = useInput({ source, validate, ...rest });
  const dataProvider = useAppDataProvider();
  const [text, setText] = useState<string>(field.value ?? '');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(text), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const { data = [] } = useQuery({
    queryKey: ['options', optionsPath, query],
    queryFn: () => dataProvider.options(optionsPath, query ? { q: query } : undefined),
    staleTime: 60_000,
  });
  const options = data
    .map((option: { name?: unknown; id?: unknown }) => String(option.name ?? option.id ?? ''))
    .filter(Boolean);
  return (
    <Autocomplete
      freeSolo
      options={options}
      value={field.value ?? null}
      inputValue={text}
      onInputChange={(_event, value) => {
        setText(value);
        field.onChange(value === '' ? null : value);
      }}
      onChange={(_event, value) => field.onChange(value || null)}
      onBlur={field.onBlur}
      sx={{ minWidth: 200 }}
      renderInput={(params) => (
        <TextField
          {...params}
          name={field.name}
          size="small"
          margin="dense"
          label={<FieldTitle label={label} source={source} isRequired={isRequired} />}
          error={Boolean(fieldState.error)}
          helperText={<InputHelperText error={fieldState.error?.message} helperText={helperText} />}
        />
      )}
    />
  );
}
