/**
 * The formula editor of the field dialog: the expression, the names of the type's fields offered as one types after
 * `{`, and, checked live by the same common module the server checks it with (common/formulas/), the type of value it
 * gives or its error at its place, and its value on a record of the type.
 */
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useGetList } from 'react-admin';
import { formulaCheck, valueKind } from '../../../../../common/field-types';
import type { OptionsEditorProps } from './props';

const RESULT_WORDS: Readonly<Record<string, string>> = {
  number: 'a number',
  text: 'text',
  date: 'a date',
  boolean: 'yes or no',
};

/** The part of a field name being typed: after an unclosed `{` before the caret. */
function typedName(expression: string, caret: number): string | null {
  const before = expression.slice(0, caret);
  const open = before.lastIndexOf('{');
  return open >= 0 && !before.slice(open).includes('}') ? before.slice(open + 1) : null;
}

const shown = (value: unknown) =>
  value === null || value === undefined
    ? '(blank)'
    : typeof value === 'boolean'
      ? value
        ? 'Yes'
        : 'No'
      : String(value);

export function FormulaOptions({ options, onChange, schema, slug }: OptionsEditorProps) {
  const expression = typeof options.expression === 'string' ? options.expression : '';
  const input = useRef<HTMLTextAreaElement | null>(null);
  const [caret, setCaret] = useState(expression.length);
  const self = slug || 'formula';
  const fields = (schema?.fields ?? [])
    .filter((field) => field.slug !== self)
    .map((field) => ({
      slug: field.slug,
      name: field.name || field.slug,
      type: String(field.type),
      options: (field.options ?? {}) as Record<string, unknown>,
      kind: valueKind(String(field.type), (field.options ?? {}) as Record<string, unknown>),
    }));
  const checked = expression.trim() ? formulaCheck(expression, self, fields) : null;
  const { data: sample } = useGetList(
    schema?.resource ?? '',
    { pagination: { page: 1, perPage: 1 } },
    {
      enabled: Boolean(schema?.resource),
    },
  );
  const partial = typedName(expression, caret);
  const offered =
    partial === null
      ? []
      : fields.filter((field) => field.name.toLowerCase().includes(partial.toLowerCase())).slice(0, 8);

  const insert = (name: string) => {
    const start = expression.slice(0, caret).lastIndexOf('{');
    const next = `${expression.slice(0, start)}{${name}}${expression.slice(caret)}`;
    onChange({ ...options, expression: next });
    const at = start + name.length + 2;
    setCaret(at);
    requestAnimationFrame(() => input.current?.setSelectionRange(at, at));
    input.current?.focus();
  };

  return (
    <Stack spacing={1}>
      <TextField
        label="Formula"
        value={expression}
        onChange={(event) => {
          onChange({ ...options, expression: event.target.value });
          setCaret(event.target.selectionStart ?? event.target.value.length);
        }}
        onSelect={(event) => setCaret((event.target as HTMLTextAreaElement).selectionStart ?? expression.length)}
        inputRef={input}
        multiline
        minRows={2}
        size="small"
        helperText="Fields in braces, as in a spreadsheet: ROUND({Estimated value} * 1.1, 0). Type { to pick a field."
        slotProps={{ htmlInput: { 'data-testid': 'formula-expression', spellCheck: false } }}
      />
      {offered.length > 0 && (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="formula-fields">
          {offered.map((field) => (
            <Chip key={field.slug} label={field.name} size="small" onClick={() => insert(field.name)} />
          ))}
        </Stack>
      )}
      {checked && !checked.ok && (
        <Alert severity="error" data-testid="formula-error">
          {checked.error}
        </Alert>
      )}
      {checked?.ok && (
        <Typography variant="body2" data-testid="formula-result">
          Gives {RESULT_WORDS[checked.result] ?? checked.result}
          {sample?.[0] ? `; on “${String(sample[0].name ?? sample[0].id)}”: ${shown(checked.value(sample[0]))}` : '.'}
        </Typography>
      )}
    </Stack>
  );
}
