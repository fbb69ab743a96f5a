/**
 * A condition over the fields of a record type in the view-filter structure (`{"all"|"any": [{field, op, value}]}`,
 * server filters/filter-tree.ts), as a rollup's `where` keeps it: one row per condition, the field by name, the
 * operator in the words its field type's module gives it, the value typed as the field holds it.
 */
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { fieldTypeModule } from '../../../../../common/field-types';
import { normaliseChoices, type SchemaField } from '../../../../../common/schema-types';
import type { ViewCondition, ViewFilterGroup } from '../../../../views/viewFilters';
import { kindOfField } from './relatedRecords';

const ORDERED = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'empty', 'not_empty'] as const;
const COMPARED = new Set(['number', 'integer', 'date', 'datetime']);
const WORDED = new Set(['text', 'email', 'phone', 'url']);

/** The operators a condition on `field` offers, with their words. */
function operatorsOf(field: SchemaField | undefined): Array<{ id: string; label: string; takes: string }> {
  if (!field) return [];
  const kind = kindOfField(field);
  const filters = fieldTypeModule(String(field.type)).filters;
  return ORDERED.filter((op) => {
    if (!filters[op] || (filters[op].takes !== 'one' && filters[op].takes !== 'none')) return false;
    if (['gt', 'gte', 'lt', 'lte'].includes(op)) return COMPARED.has(kind);
    if (op === 'contains') return WORDED.has(kind);
    return true;
  }).map((op) => ({ id: op, label: filters[op]?.label ?? op, takes: filters[op]?.takes ?? 'one' }));
}

/** The value as the condition keeps it: numbers as numbers, yes/no as booleans, the rest as typed. */
function typedValue(text: string, kind: string): unknown {
  if ((kind === 'number' || kind === 'integer') && text.trim() !== '' && Number.isFinite(Number(text)))
    return Number(text);
  if (kind === 'boolean') return text === 'true';
  return text;
}

function ValueInput({
  field,
  value,
  onChange,
  testId,
}: {
  field: SchemaField;
  value: unknown;
  onChange: (value: unknown) => void;
  testId: string;
}) {
  const kind = kindOfField(field);
  const text = value === undefined || value === null ? '' : String(value);
  const common = {
    label: 'Value',
    value: text,
    size: 'small' as const,
    sx: { flex: 1, minWidth: 120 },
    slotProps: { htmlInput: { 'data-testid': testId }, inputLabel: { shrink: true } },
  };
  const choices =
    kind === 'boolean'
      ? [
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ]
      : kind === 'enum' || kind === 'enum[]'
        ? normaliseChoices(field.options?.choices)
        : null;
  if (choices)
    return (
      <TextField select {...common} onChange={(event) => onChange(typedValue(event.target.value, kind))}>
        {choices.map((choice) => (
          <MenuItem key={choice.value} value={choice.value}>
            {choice.label}
          </MenuItem>
        ))}
      </TextField>
    );
  const type = COMPARED.has(kind)
    ? kind === 'date'
      ? 'date'
      : kind === 'datetime'
        ? 'datetime-local'
        : 'number'
    : 'text';
  return <TextField {...common} type={type} onChange={(event) => onChange(typedValue(event.target.value, kind))} />;
}

export function ConditionEditor({
  fields,
  value,
  onChange,
  error,
}: {
  /** The fields the condition may name (the related records'). */
  fields: readonly SchemaField[];
  value: ViewFilterGroup | undefined;
  onChange: (next: ViewFilterGroup | undefined) => void;
  error?: string;
}) {
  const join: 'all' | 'any' = value && 'any' in value ? 'any' : 'all';
  const rows: ViewCondition[] = value ? ('any' in value ? value.any : value.all) : [];
  const save = (next: ViewCondition[], nextJoin = join) =>
    onChange(next.length ? ((nextJoin === 'any' ? { any: next } : { all: next }) as ViewFilterGroup) : undefined);
  const replace = (index: number, row: ViewCondition) => save(rows.map((one, at) => (at === index ? row : one)));
  const usable = fields.filter((field) => operatorsOf(field).length > 0);
  return (
    <Stack spacing={1} data-testid="rollup-where">
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="body2">Only the records where</Typography>
        {rows.length > 1 && (
          <TextField
            select
            size="small"
            value={join}
            onChange={(event) => save(rows, event.target.value as 'all' | 'any')}
            aria-label="All or any of the conditions"
          >
            <MenuItem value="all">all of these hold</MenuItem>
            <MenuItem value="any">any of these holds</MenuItem>
          </TextField>
        )}
      </Stack>
      {rows.map((row, index) => {
        const field = fields.find((one) => one.slug === row.field);
        const operators = operatorsOf(field);
        const takes = operators.find((op) => op.id === row.op)?.takes;
        return (
          <Stack key={index} direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
            <TextField
              select
              label="Field"
              value={field ? row.field : ''}
              onChange={(event) => {
                const next = fields.find((one) => one.slug === event.target.value);
                replace(index, { field: event.target.value, op: operatorsOf(next)[0]?.id ?? 'eq', value: '' });
              }}
              size="small"
              sx={{ flex: 1, minWidth: 140 }}
              slotProps={{ htmlInput: { 'data-testid': `where-field-${index}` } }}
            >
              {usable.map((one) => (
                <MenuItem key={one.slug} value={one.slug}>
                  {one.name || one.slug}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              label="Is"
              value={operators.some((op) => op.id === row.op) ? row.op : ''}
              onChange={(event) => {
                const op = operators.find((one) => one.id === event.target.value);
                replace(
                  index,
                  op?.takes === 'none'
                    ? { field: row.field, op: event.target.value }
                    : { ...row, op: event.target.value },
                );
              }}
              disabled={!field}
              size="small"
              sx={{ minWidth: 130 }}
              slotProps={{ htmlInput: { 'data-testid': `where-op-${index}` } }}
            >
              {operators.map((op) => (
                <MenuItem key={op.id} value={op.id}>
                  {op.label}
                </MenuItem>
              ))}
            </TextField>
            {field && takes !== 'none' && (
              <ValueInput
                field={field}
                value={row.value}
                onChange={(next) => replace(index, { ...row, value: next })}
                testId={`where-value-${index}`}
              />
            )}
            <IconButton
              aria-label="Remove this condition"
              onClick={() => save(rows.filter((_, at) => at !== index))}
              size="small"
            >
              ×
            </IconButton>
          </Stack>
        );
      })}
      <Button
        size="small"
        onClick={() => save([...rows, { field: '', op: 'eq', value: '' }])}
        disabled={!usable.length}
        sx={{ alignSelf: 'flex-start' }}
      >
        Add a condition
      </Button>
      {error && (
        <Typography color="error" variant="body2" data-testid="rollup-where-error">
          {error}
        </Typography>
      )}
    </Stack>
  );
}
