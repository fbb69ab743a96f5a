/**
 * The rules of one record type for a role: which records its people see (every one, or those picked: their own, their
 * team's, in their turf, on records they may see, where a condition holds; any or all of them), which of those they
 * may change and delete, and each field visible, read-only or hidden. The sentence at the top says it in words as it
 * is edited; "Apply" puts it in the role's form (saved with the role).
 */

import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { ConditionItem, FieldRule, RolePolicy, RowRule } from '../../common/access-rules';
import {
  type AccessType,
  accessMatrix,
  draftOf,
  type RuleDraft,
  type RuleKind,
  ruleOf,
  withTypePolicy,
} from './access';

const KIND_LABELS: Record<RuleKind, string> = {
  own: 'Their own (created by them, assigned to them, or naming them)',
  team: "Their team's",
  turf: 'In their turf (the regions assigned to them or their team)',
  parent: 'On records they may see',
  condition: 'Where…',
};

const OPS: Array<{ op: string; label: string; value: boolean }> = [
  { op: 'eq', label: 'is', value: true },
  { op: 'neq', label: 'is not', value: true },
  { op: 'in', label: 'is one of (comma separated)', value: true },
  { op: 'contains', label: 'contains', value: true },
  { op: 'gt', label: 'is more than', value: true },
  { op: 'lt', label: 'is less than', value: true },
  { op: 'empty', label: 'is empty', value: false },
  { op: 'not_empty', label: 'is not empty', value: false },
];

/** Changing and deleting: the same records as seeing, or only some of them. */
const WRITE_CHOICES: Array<{ value: string; label: string; rule?: RowRule }> = [
  { value: 'same', label: 'The same records they see' },
  { value: 'own', label: 'Only their own', rule: 'own' },
  { value: 'team', label: "Only their team's", rule: 'team' },
];
const writeChoiceOf = (rule: RowRule | undefined) =>
  WRITE_CHOICES.find((choice) => JSON.stringify(choice.rule) === JSON.stringify(rule))?.value ?? 'same';

/** Which of the records they see a person may edit (or delete). */
function WriteScope({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <TextField select size="small" label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      {WRITE_CHOICES.map((choice) => (
        <MenuItem key={choice.value} value={choice.value}>
          {choice.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function RuleEditor({
  type,
  role,
  onClose,
  onApply,
}: {
  type: AccessType;
  role: { name: string; permissions: string[]; policy: RolePolicy };
  onClose: () => void;
  onApply: (policy: RolePolicy) => void;
}) {
  const { policy } = role;
  const current = policy[type.type] ?? {};
  const [read, setRead] = useState<RuleDraft>(draftOf(current.read));
  const [update, setUpdate] = useState(writeChoiceOf(current.update));
  const [remove, setRemove] = useState(writeChoiceOf(current.delete));
  const [fields, setFields] = useState<Record<string, FieldRule>>(current.fields ?? {});
  const kinds = (['own', 'team', 'turf', 'parent', 'condition'] as RuleKind[]).filter(
    (kind) => kind === 'condition' || type.reach[kind],
  );
  const items = ('all' in read.condition ? read.condition.all : read.condition.any) as ConditionItem[];
  const setItems = (next: ConditionItem[]) => setRead({ ...read, condition: { all: next } });
  const next = withTypePolicy(policy, type.type, {
    read: ruleOf(read),
    update: WRITE_CHOICES.find((choice) => choice.value === update)?.rule,
    delete: WRITE_CHOICES.find((choice) => choice.value === remove)?.rule,
    fields,
  });
  const [preview] = accessMatrix({ ...role, policy: next }, [type]);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="rule-editor-title" scroll="paper">
      <DialogTitle id="rule-editor-title">Rules for {type.plural}</DialogTitle>
      <DialogContent dividers>
        <Typography sx={{ mb: 2 }} role="status" data-testid="rule-sentence">
          {preview.sentence}
        </Typography>
        <Typography variant="subtitle2" component="h3">
          Which {type.plural.toLowerCase()} they see
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Nothing ticked: every one.
        </Typography>
        <Stack>
          {kinds.map((kind) => (
            <FormControlLabel
              key={kind}
              control={
                <Checkbox
                  size="small"
                  checked={read.kinds.includes(kind)}
                  onChange={(event) =>
                    setRead({
                      ...read,
                      kinds: event.target.checked ? [...read.kinds, kind] : read.kinds.filter((k) => k !== kind),
                    })
                  }
                  slotProps={{ input: { 'data-kind': kind } as object }}
                />
              }
              label={<Typography variant="body2">{KIND_LABELS[kind]}</Typography>}
            />
          ))}
        </Stack>
        {read.kinds.includes('condition') && (
          <Stack spacing={1} sx={{ ml: 4, my: 1 }}>
            {items.map((item, index) => {
              const op = OPS.find((o) => o.op === item.op) ?? OPS[0];
              return (
                <Stack key={index} direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                  <TextField
                    select
                    size="small"
                    label="Field"
                    value={item.field}
                    onChange={(e) =>
                      setItems(items.map((it, i) => (i === index ? { ...it, field: e.target.value } : it)))
                    }
                    sx={{ minWidth: 160 }}
                  >
                    {type.fields.map((field) => (
                      <MenuItem key={field.slug} value={field.slug}>
                        {field.name}
                      </MenuItem>
                    ))}
                  </TextField>
                  <TextField
                    select
                    size="small"
                    label="Is"
                    value={op.op}
                    onChange={(e) => setItems(items.map((it, i) => (i === index ? { ...it, op: e.target.value } : it)))}
                    sx={{ minWidth: 140 }}
                  >
                    {OPS.map((o) => (
                      <MenuItem key={o.op} value={o.op}>
                        {o.label}
                      </MenuItem>
                    ))}
                  </TextField>
                  {op.value && (
                    <TextField
                      size="small"
                      label="Value"
                      value={Array.isArray(item.value) ? item.value.join(', ') : String(item.value ?? '')}
                      onChange={(e) => {
                        const text = e.target.value;
                        const value =
                          op.op === 'in'
                            ? text
                                .split(',')
                                .map((v) => v.trim())
                                .filter(Boolean)
                            : text;
                        setItems(items.map((it, i) => (i === index ? { ...it, value } : it)));
                      }}
                    />
                  )}
                  <IconButton
                    aria-label="Remove this condition"
                    onClick={() => setItems(items.filter((_, i) => i !== index))}
                  >
                    ×
                  </IconButton>
                </Stack>
              );
            })}
            <Button
              size="small"
              sx={{ alignSelf: 'flex-start' }}
              onClick={() => setItems([...items, { field: type.fields[0]?.slug ?? 'name', op: 'eq', value: '' }])}
            >
              Add a condition
            </Button>
          </Stack>
        )}
        {read.kinds.length > 1 && (
          <RadioGroup
            row
            value={read.join}
            onChange={(e) => setRead({ ...read, join: e.target.value as 'any' | 'all' })}
            sx={{ ml: 1 }}
          >
            <FormControlLabel value="any" control={<Radio size="small" />} label="Any of these" />
            <FormControlLabel value="all" control={<Radio size="small" />} label="All of these" />
          </RadioGroup>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ my: 2 }}>
          <WriteScope label="Which they may edit" value={update} onChange={setUpdate} />
          <WriteScope label="Which they may delete" value={remove} onChange={setRemove} />
        </Stack>
        <Typography variant="subtitle2" component="h3">
          Fields
        </Typography>
        <Stack spacing={0.5} sx={{ mt: 1 }}>
          {type.fields.map((field) => (
            <Stack key={field.slug} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="body2" sx={{ flex: 1 }}>
                {field.name}
              </Typography>
              <TextField
                select
                size="small"
                value={fields[field.slug] ?? 'visible'}
                onChange={(e) => {
                  const { [field.slug]: _, ...rest } = fields;
                  setFields(
                    e.target.value === 'visible' ? rest : { ...rest, [field.slug]: e.target.value as FieldRule },
                  );
                }}
                slotProps={{ htmlInput: { 'aria-label': `${field.name}: visible, read-only or hidden` } }}
                sx={{ minWidth: 140 }}
              >
                <MenuItem value="visible">Visible</MenuItem>
                <MenuItem value="read_only">Read-only</MenuItem>
                <MenuItem value="hidden">Hidden</MenuItem>
              </TextField>
            </Stack>
          ))}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => onApply(next)}>
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}
