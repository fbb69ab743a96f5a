/**
 * The visual rule editor (SPEC sections 4-5): "when [field] [operator] [value], then [show / hide / set] [field]".
 * Each rule is a logic block with its trigger; its conditions must all hold, or any one of them (the block's
 * `match`); several actions run in order. The operators offered depend on the field: comparisons for numbers and
 * dates, text ones for the rest (the rule engine's table, src/common/rule-engine/form-operators.ts).
 */

import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { FORM_OPERATORS, type OperandKind, operatorsFor } from '../../common/rule-engine/index';
import {
  fieldRef,
  type LogicAction,
  type LogicBlock,
  type LogicCondition,
  type LogicOperator,
  normaliseChoices,
  parseFieldRef,
  type SchemaField,
} from '../../common/schema-types';
import { describeField } from '../records/fieldTypes/describe';
import type { RecordSchema } from '../records/schema';
import { ACTION_CHOICES, describeBlock, MATCH_CHOICES, TRIGGER_CHOICES } from './shared';
import { useSchemaWrites } from './useSchemaEditor';

function fieldOf(fields: readonly SchemaField[], ref: string) {
  const id = parseFieldRef(ref);
  return fields.find((field) => Number(field.id) === id);
}

/** What a field's values compare as: numbers (number, money and hours fields), dates, or text. */
function operandKind(field: SchemaField | undefined): OperandKind {
  if (!field) return 'text';
  const descriptor = describeField(field);
  if (descriptor.number) return 'number';
  return descriptor.type === 'date' || descriptor.type === 'datetime' ? 'date' : 'text';
}

/** The operators offered for a condition on this field (and the one it has, should a stored rule use another). */
function operatorChoices(field: SchemaField | undefined, current: LogicOperator) {
  const offered = operatorsFor(operandKind(field));
  const ids = offered.includes(current) || !FORM_OPERATORS[current] ? offered : [...offered, current];
  return ids.map((id) => ({ id, name: FORM_OPERATORS[id].label }));
}

function FieldSelect({
  fields,
  value,
  onChange,
  label,
  testId,
}: {
  fields: readonly SchemaField[];
  value: string;
  onChange: (ref: string) => void;
  label: string;
  testId: string;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      sx={{ minWidth: 170, flex: 1 }}
      data-testid={testId}
    >
      {fields.map((field) => (
        <MenuItem key={field.id} value={fieldRef(field.id)}>
          {field.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** A value for a field: its choices when it has some, yes/no for booleans, a number or a date for those, else text. */
function ValueInput({
  field,
  value,
  onChange,
  label,
  testId,
}: {
  field?: SchemaField;
  value: unknown;
  onChange: (value: string) => void;
  label: string;
  testId: string;
}) {
  const choices = normaliseChoices(field?.options?.choices);
  const text = value === null || value === undefined ? '' : String(value);
  if (choices.length) {
    return (
      <TextField
        select
        size="small"
        label={label}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        sx={{ minWidth: 150, flex: 1 }}
        data-testid={testId}
      >
        {choices.map((choice) => (
          <MenuItem key={choice.value} value={choice.value}>
            {choice.label}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  if (field?.type === 'boolean' || field?.type === 'prevailing-wage') {
    return (
      <TextField
        select
        size="small"
        label={label}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        sx={{ minWidth: 120 }}
        data-testid={testId}
      >
        <MenuItem value="true">Yes</MenuItem>
        <MenuItem value="false">No</MenuItem>
      </TextField>
    );
  }
  const kind = operandKind(field);
  const type = kind === 'number' ? 'number' : kind === 'date' ? 'date' : 'text';
  return (
    <TextField
      size="small"
      type={type}
      label={label}
      value={text}
      onChange={(event) => onChange(event.target.value)}
      sx={{ minWidth: 150, flex: 1 }}
      slotProps={{
        htmlInput: { 'data-testid': testId, step: type === 'number' ? 'any' : undefined },
        inputLabel: type === 'date' ? { shrink: true } : undefined,
      }}
    />
  );
}

type Draft = Pick<LogicBlock, 'description' | 'trigger'> & {
  match: NonNullable<LogicBlock['match']>;
  clear_hidden: boolean;
  conditions: LogicCondition[];
  actions: LogicAction[];
};

const emptyDraft = (fields: readonly SchemaField[]): Draft => ({
  description: '',
  trigger: 'always',
  match: 'all',
  clear_hidden: false,
  conditions: [{ source: fields[0] ? fieldRef(fields[0].id) : '', operator: 'equals', value: '' }],
  actions: [{ target: fields[1] ? fieldRef(fields[1].id) : '', action: 'show-field' }],
});

function BlockEditor({
  schema,
  block,
  onDone,
  index,
}: {
  schema: RecordSchema;
  block?: LogicBlock;
  onDone: () => void;
  index: number;
}) {
  const writes = useSchemaWrites();
  const fields = schema.fields;
  const [draft, setDraft] = useState<Draft>(() =>
    block
      ? {
          description: block.description ?? '',
          trigger: block.trigger,
          match: block.match ?? 'all',
          clear_hidden: Boolean(block.clear_hidden),
          conditions: block.conditions.map(({ source, operator, value }) => ({ source, operator, value })),
          actions: block.actions.map(({ target, action, value }) => ({ target, action, value })),
        }
      : emptyDraft(fields),
  );
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  const save = async () => {
    setBusy(true);
    const body = {
      description: draft.description || null,
      trigger: draft.trigger,
      match: draft.match,
      clear_hidden: draft.clear_hidden,
      conditions: draft.conditions.map((condition) => ({
        source: condition.source,
        operator: condition.operator,
        value: FORM_OPERATORS[condition.operator]?.value === 'none' ? null : (condition.value ?? ''),
      })),
      actions: draft.actions.map((action) =>
        action.action === 'set-value'
          ? { target: action.target, action: action.action, value: action.value ?? '' }
          : { target: action.target, action: action.action },
      ),
    };
    const outcome = block?.id
      ? await writes.updateBlock(block.id, body, block)
      : await writes.createBlock({ ...body, schema_id: schema.id });
    setBusy(false);
    if (outcome.record) {
      setErrors([]);
      onDone();
    } else setErrors(Object.values(outcome.errors ?? {}));
  };

  return (
    <Card variant="outlined" data-testid={`rule-${index}`}>
      <CardContent>
        <Stack spacing={1.5}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <TextField
              size="small"
              label="What this rule is for (optional)"
              value={draft.description ?? ''}
              onChange={(event) => set({ description: event.target.value })}
              sx={{ flex: 1 }}
            />
            <TextField
              select
              size="small"
              label="Runs"
              value={draft.trigger}
              onChange={(event) => set({ trigger: event.target.value as Draft['trigger'] })}
              sx={{ minWidth: 200, width: { sm: 240 }, flexShrink: 0 }}
            >
              {TRIGGER_CHOICES.map((choice) => (
                <MenuItem key={choice.id} value={choice.id}>
                  {choice.name}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="overline" color="text.secondary">
              When
            </Typography>
            {draft.conditions.length > 1 && (
              <TextField
                select
                size="small"
                label="Must hold"
                value={draft.match}
                onChange={(event) => set({ match: event.target.value as Draft['match'] })}
                sx={{ width: 200 }}
                data-testid={`rule-${index}-match`}
              >
                {MATCH_CHOICES.map((choice) => (
                  <MenuItem key={choice.id} value={choice.id}>
                    {choice.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </Stack>
          {draft.conditions.map((condition, i) => {
            const field = fieldOf(fields, condition.source);
            const change = (patch: Partial<LogicCondition>) =>
              set({ conditions: draft.conditions.map((item, j) => (j === i ? { ...item, ...patch } : item)) });
            return (
              <Stack key={i} direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ alignItems: { md: 'center' } }}>
                <FieldSelect
                  fields={fields}
                  label="Field"
                  value={condition.source}
                  testId={`rule-${index}-when-field-${i}`}
                  onChange={(source) => {
                    // Another kind of field may not offer the operator chosen: back to equals.
                    const offered = operatorsFor(operandKind(fieldOf(fields, source)));
                    change({
                      source,
                      value: '',
                      operator: offered.includes(condition.operator) ? condition.operator : 'equals',
                    });
                  }}
                />
                <TextField
                  select
                  size="small"
                  label="Operator"
                  value={condition.operator}
                  onChange={(event) => change({ operator: event.target.value as LogicOperator })}
                  sx={{ minWidth: 150, width: { md: 180 }, flexShrink: 0 }}
                  data-testid={`rule-${index}-when-operator-${i}`}
                >
                  {operatorChoices(field, condition.operator).map((choice) => (
                    <MenuItem key={choice.id} value={choice.id}>
                      {choice.name}
                    </MenuItem>
                  ))}
                </TextField>
                {FORM_OPERATORS[condition.operator]?.value !== 'none' && (
                  <ValueInput
                    field={field}
                    label="Value"
                    value={condition.value}
                    testId={`rule-${index}-when-value-${i}`}
                    onChange={(value) => change({ value })}
                  />
                )}
                <IconButton
                  aria-label="Remove this condition"
                  onClick={() => set({ conditions: draft.conditions.filter((_item, j) => j !== i) })}
                >
                  <RemoveIcon />
                </IconButton>
              </Stack>
            );
          })}
          <Box>
            <Button
              size="small"
              startIcon={<AddIcon />}
              onClick={() =>
                set({
                  conditions: [
                    ...draft.conditions,
                    { source: fields[0] ? fieldRef(fields[0].id) : '', operator: 'equals', value: '' },
                  ],
                })
              }
            >
              {draft.match === 'any' && draft.conditions.length > 1 ? 'Or when…' : 'And when…'}
            </Button>
          </Box>
          <Typography variant="overline" color="text.secondary">
            Then
          </Typography>
          {draft.actions.map((action, i) => (
            <Stack key={i} direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ alignItems: { md: 'center' } }}>
              <TextField
                select
                size="small"
                label="Do"
                value={action.action}
                onChange={(event) =>
                  set({
                    actions: draft.actions.map((item, j) =>
                      j === i ? { ...item, action: event.target.value as LogicAction['action'] } : item,
                    ),
                  })
                }
                sx={{ minWidth: 110, width: { md: 120 }, flexShrink: 0 }}
                data-testid={`rule-${index}-then-action-${i}`}
              >
                {ACTION_CHOICES.map((choice) => (
                  <MenuItem key={choice.id} value={choice.id}>
                    {choice.name}
                  </MenuItem>
                ))}
              </TextField>
              <FieldSelect
                fields={fields}
                label="Field"
                value={action.target}
                testId={`rule-${index}-then-field-${i}`}
                onChange={(target) =>
                  set({ actions: draft.actions.map((item, j) => (j === i ? { ...item, target } : item)) })
                }
              />
              {action.action === 'set-value' && (
                <ValueInput
                  field={fieldOf(fields, action.target)}
                  label="To"
                  value={action.value}
                  testId={`rule-${index}-then-value-${i}`}
                  onChange={(value) =>
                    set({ actions: draft.actions.map((item, j) => (j === i ? { ...item, value } : item)) })
                  }
                />
              )}
              <IconButton
                aria-label="Remove this action"
                onClick={() => set({ actions: draft.actions.filter((_item, j) => j !== i) })}
              >
                <RemoveIcon />
              </IconButton>
            </Stack>
          ))}
          <Box>
            <Button
              size="small"
              startIcon={<AddIcon />}
              onClick={() =>
                set({
                  actions: [
                    ...draft.actions,
                    { target: fields[0] ? fieldRef(fields[0].id) : '', action: 'show-field' },
                  ],
                })
              }
            >
              And…
            </Button>
          </Box>
          {draft.actions.some((action) => action.action === 'show-field' || action.action === 'hide-field') && (
            <FormControlLabel
              control={
                <Checkbox
                  checked={draft.clear_hidden}
                  onChange={(event) => set({ clear_hidden: event.target.checked })}
                  size="small"
                />
              }
              label="Clear what the fields this rule hides hold (off: hidden fields keep their values)"
            />
          )}
          <Typography variant="body2" color="text.secondary" data-testid={`rule-${index}-summary`}>
            {describeBlock(draft, fields)}
          </Typography>
          {errors.length > 0 && <Alert severity="error">{errors.join(' ')}</Alert>}
          <Stack direction="row" spacing={1}>
            <Button
              variant="contained"
              size="small"
              onClick={() => void save()}
              disabled={busy || !draft.actions.length}
              data-testid={`rule-${index}-save`}
            >
              Save rule
            </Button>
            {block?.id ? (
              <Button
                size="small"
                color="error"
                startIcon={<DeleteIcon />}
                onClick={async () => {
                  setBusy(true);
                  await writes.deleteBlock({ id: block.id! });
                  setBusy(false);
                  onDone();
                }}
              >
                Delete rule
              </Button>
            ) : (
              <Button size="small" onClick={onDone}>
                Cancel
              </Button>
            )}
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  );
}

export function LogicEditor({ schema }: { schema: RecordSchema }) {
  const [adding, setAdding] = useState(false);
  return (
    <Stack spacing={2} data-testid="logic-editor">
      {schema.actions.length === 0 && !adding && (
        <Typography variant="body2" color="text.secondary">
          No rules yet: every field is always shown.
        </Typography>
      )}
      {schema.actions.map((block, index) => (
        <BlockEditor
          key={`${block.id}:${(block as { updated_at?: string }).updated_at ?? ''}`}
          schema={schema}
          block={block}
          index={index}
          onDone={() => undefined}
        />
      ))}
      {adding && <BlockEditor schema={schema} index={schema.actions.length} onDone={() => setAdding(false)} />}
      {!adding && (
        <Box>
          <Button
            variant="outlined"
            startIcon={<AddIcon />}
            onClick={() => setAdding(true)}
            disabled={schema.fields.length < 2}
            data-testid="add-rule"
          >
            Add a rule
          </Button>
        </Box>
      )}
    </Stack>
  );
}
