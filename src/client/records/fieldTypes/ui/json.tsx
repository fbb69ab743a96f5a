import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useInput } from 'react-admin';
import { jsonWords } from '../../../../common/field-types/json';
import type { ValueView } from '../displays';
import { containsFilter } from '../filterSpecs';
import type { InputComponentProps } from '../inputs';
import { always, type FieldTypeUI, noNumber } from './define';

/** What the form holds while the text typed is not JSON yet: the form refuses to save it. */
const NOT_JSON = Symbol('not JSON');
const written = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value, null, 2));

/** JSON typed as text: checked as it is typed, saved as the value it writes (an empty box is no value). */
function JsonInput({ descriptor }: InputComponentProps) {
  const { field, fieldState } = useInput({
    source: descriptor.slug,
    validate: (value: unknown) =>
      value === NOT_JSON
        ? `The ${descriptor.label.toLowerCase()} is not JSON.`
        : descriptor.required && (value === null || value === undefined)
          ? 'Required'
          : undefined,
  });
  const [text, setText] = useState(() => written(field.value));
  const change = (next: string) => {
    setText(next);
    if (!next.trim()) return field.onChange(null);
    try {
      field.onChange(JSON.parse(next));
    } catch {
      field.onChange(NOT_JSON);
    }
  };
  const error = fieldState.error?.message;
  return (
    <TextField
      label={descriptor.label}
      required={descriptor.required}
      value={text}
      onChange={(event) => change(event.target.value)}
      onBlur={field.onBlur}
      disabled={descriptor.readOnly}
      error={Boolean(error)}
      helperText={error ?? descriptor.help ?? ' '}
      multiline
      minRows={3}
      fullWidth
      slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
    />
  );
}

/** JSON as text (never as markup): indented on a page, one clamped line in a list. */
const JsonValue: ValueView = ({ value, variant }) => {
  if (value === null || value === undefined) return null;
  return variant === 'show' ? (
    <Typography component="pre" variant="body2" sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap', m: 0 }}>
      {written(value)}
    </Typography>
  ) : (
    <Typography component="span" variant="body2" noWrap sx={{ fontFamily: 'monospace', display: 'block' }}>
      {jsonWords(value)}
    </Typography>
  );
};

/** A JSON value: a monospace box checked as typed; found by the text it contains. */
export const json: FieldTypeUI = {
  type: 'json',
  Input: JsonInput,
  Value: JsonValue,
  filters: containsFilter,
  editor: () => null,
  history: jsonWords,
  wide: always,
  structured: always,
  Options: null,
  numberFormat: noNumber,
};
