/**
 * Add or edit one field of a record type: its name, type (not for built-in fields), whether it is required, a help
 * text, and the options its type takes (choices, several values, orientation, what a relation points at).
 */

import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { NUMBER_FORMATS, type NumberFieldFormat, valueKind } from '../../common/field-types';
import { type FieldChoice, normaliseChoices, type SchemaField, type SchemaFieldType } from '../../common/schema-types';
import type { RecordSchema } from '../records/schema';
import { type ChangeImpact, ChoiceMapping, fieldImpact, ImpactSummary } from './impact';
import { FIELD_TYPE_CHOICES, relationTargetChoices, slugifyField } from './shared';
import { useSchemaWrites } from './useSchemaEditor';

const CHOICE_TYPES = new Set<SchemaFieldType>(['dropdown', 'radios']);
const FORMAT_LABELS: Record<NumberFieldFormat, string> = {
  integer: 'Whole number',
  decimal: 'Decimal',
  currency: 'Currency ($)',
};
/** The kinds of value `search=` can look in (the server's SEARCHABLE_KINDS). */
const SEARCHABLE_KINDS = new Set(['text', 'email', 'phone', 'url']);
const numberText = (value: unknown) => (typeof value === 'number' ? String(value) : '');
const numberOf = (text: string) => (text.trim() === '' ? undefined : Number(text));

export function FieldDialog({
  schema,
  field,
  onClose,
}: {
  schema: RecordSchema;
  field?: SchemaField;
  onClose: () => void;
}) {
  const writes = useSchemaWrites();
  const builtIn = Boolean(field?.column);
  const options = (field?.options ?? {}) as Record<string, unknown>;
  const [name, setName] = useState(field?.name ?? '');
  const [slug, setSlug] = useState(field?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(false);
  const [type, setType] = useState<SchemaFieldType>(field?.type ?? 'text');
  const [required, setRequired] = useState(Boolean(field?.required));
  const [help, setHelp] = useState(typeof options.help === 'string' ? options.help : '');
  const [choices, setChoices] = useState<FieldChoice[]>(() => {
    const list = normaliseChoices(options.choices);
    return list.length ? list : [{ value: '', label: '' }];
  });
  const [multiple, setMultiple] = useState(Boolean(options.multiple));
  const [orientation, setOrientation] = useState(options.orientation === 'horizontal' ? 'horizontal' : 'vertical');
  const [target, setTarget] = useState(typeof options.target === 'string' ? options.target : 'contact');
  const [format, setFormat] = useState<NumberFieldFormat>(
    (NUMBER_FORMATS as readonly unknown[]).includes(options.format) ? (options.format as NumberFieldFormat) : 'decimal',
  );
  // A number field's range and step; another type's min and max (a text's length) are not a range to offer.
  const wasNumber = field?.type === 'number';
  const [limits, setLimits] = useState({
    min: wasNumber ? numberText(options.min) : '',
    max: wasNumber ? numberText(options.max) : '',
    step: wasNumber ? numberText(options.step) : '',
  });
  const [searchable, setSearchable] = useState(options.searchable === true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  /** What the change affects, shown before it is saved (an existing field whose change touches something). */
  const [impact, setImpact] = useState<ChangeImpact | null>(null);
  const [choiceMap, setChoiceMap] = useState<Record<string, string | null>>({});

  // A change edited after its impact was shown is asked about again.
  useEffect(() => setImpact(null), [type, choices, multiple, target, format, limits]);
  // Where the removed choices go changes what the change does: the impact is asked again with the mapping.
  const mapping = JSON.stringify(choiceMap);
  useEffect(() => {
    if (!field || !impact?.choices?.length) return;
    let current = true;
    fieldImpact(field.id, { ...(builtIn ? {} : { type }), options: buildOptions(), choice_map: choiceMap })
      .then((next) => current && setImpact(next))
      .catch(() => undefined);
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mapping]);

  const effectiveSlug = field ? field.slug : slugTouched ? slug : slugifyField(name);
  const canSearch = !builtIn && SEARCHABLE_KINDS.has(valueKind(type, { input: options.input }));

  const buildOptions = () => {
    const next: Record<string, unknown> = { ...options };
    for (const key of [
      'choices',
      'multiple',
      'orientation',
      'target',
      'help',
      'format',
      'min',
      'max',
      'step',
      'searchable',
    ])
      delete next[key];
    // Another type's own limits stay; a number field's range goes with its type.
    if (type !== 'number' && !wasNumber)
      for (const key of ['min', 'max', 'step'] as const) if (options[key] !== undefined) next[key] = options[key];
    if (type === 'number') {
      next.format = format;
      for (const key of ['min', 'max', 'step'] as const)
        if (numberOf(limits[key]) !== undefined) next[key] = numberOf(limits[key]);
    }
    if (canSearch && searchable) next.searchable = true;
    if (help.trim()) next.help = help.trim();
    if (CHOICE_TYPES.has(type)) {
      next.choices = choices
        .filter((choice) => choice.value.trim() || choice.label.trim())
        .map((choice) => {
          const value = choice.value.trim() || slugifyField(choice.label).replace(/_/g, '-');
          return { value, label: choice.label.trim() || value };
        });
    }
    if (type === 'dropdown' && multiple) next.multiple = true;
    if (type === 'radios') next.orientation = orientation;
    if (type === 'relation') {
      next.target = target;
      if (multiple && !target.startsWith('site-')) next.multiple = true;
    }
    return next;
  };

  const save = async () => {
    setBusy(true);
    const data: Record<string, unknown> = { name: name.trim(), required, options: buildOptions() };
    if (!builtIn) data.type = type;
    if (field && !impact) {
      const proposed = await fieldImpact(field.id, { ...(builtIn ? {} : { type }), options: data.options }).catch(
        () => null,
      );
      if (proposed && (proposed.summary.length > 0 || (proposed.choices ?? []).length > 0)) {
        setImpact(proposed);
        setBusy(false);
        return;
      }
    }
    if (impact?.choices?.length) data.choice_map = choiceMap;
    let outcome;
    if (field) outcome = await writes.updateField(field.id, data, field);
    else
      outcome = await writes.createField({
        ...data,
        schema_id: schema.id,
        slug: effectiveSlug || undefined,
        category: 'custom',
      });
    setBusy(false);
    if (outcome.record) onClose();
    else
      setErrors({
        ...(outcome.errors ?? {}),
        ...(outcome.errors?.choice_map ? { options: outcome.errors.choice_map } : {}),
      });
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="field-dialog-title">
      <DialogTitle id="field-dialog-title">
        {field ? `Edit field “${field.name}”` : `Add a field to ${schema.name_plural}`}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Field name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
            autoFocus
            error={Boolean(errors.name)}
            helperText={errors.name}
            size="small"
          />
          {!field && (
            <TextField
              label="Slug (where the value is stored)"
              value={effectiveSlug}
              onChange={(event) => {
                setSlugTouched(true);
                setSlug(event.target.value);
              }}
              error={Boolean(errors.slug)}
              helperText={errors.slug ?? 'Lower-case letters, digits and underscores. It cannot change later.'}
              size="small"
            />
          )}
          <TextField
            select
            label="Type"
            value={type}
            onChange={(event) => setType(event.target.value as SchemaFieldType)}
            disabled={builtIn}
            error={Boolean(errors.type)}
            helperText={errors.type ?? (builtIn ? 'The type of a built-in field cannot change.' : undefined)}
            size="small"
            data-testid="field-type"
          >
            {FIELD_TYPE_CHOICES.map((choice) => (
              <MenuItem key={choice.id} value={choice.id}>
                {choice.name}
              </MenuItem>
            ))}
          </TextField>
          {CHOICE_TYPES.has(type) && (
            <Box>
              <Typography variant="subtitle2" sx={{ mb: 1 }}>
                Choices
              </Typography>
              <Stack spacing={1}>
                {choices.map((choice, index) => (
                  <Stack direction="row" spacing={1} key={index} sx={{ alignItems: 'center' }}>
                    <TextField
                      label="Label"
                      size="small"
                      value={choice.label}
                      onChange={(event) =>
                        setChoices(
                          choices.map((item, i) => (i === index ? { ...item, label: event.target.value } : item)),
                        )
                      }
                      slotProps={{ htmlInput: { 'data-testid': `choice-label-${index}` } }}
                      sx={{ flex: 1 }}
                    />
                    <TextField
                      label="Value (stored)"
                      size="small"
                      value={choice.value}
                      placeholder={choice.label ? slugifyField(choice.label).replace(/_/g, '-') : ''}
                      onChange={(event) =>
                        setChoices(
                          choices.map((item, i) => (i === index ? { ...item, value: event.target.value } : item)),
                        )
                      }
                      slotProps={{ htmlInput: { 'data-testid': `choice-value-${index}` } }}
                      sx={{ flex: 1 }}
                    />
                    <IconButton
                      aria-label="Remove this choice"
                      onClick={() => setChoices(choices.filter((_item, i) => i !== index))}
                      disabled={choices.length === 1}
                    >
                      <RemoveIcon />
                    </IconButton>
                  </Stack>
                ))}
              </Stack>
              <Button
                size="small"
                startIcon={<AddIcon />}
                onClick={() => setChoices([...choices, { value: '', label: '' }])}
                sx={{ mt: 1 }}
              >
                Add a choice
              </Button>
            </Box>
          )}
          {type === 'radios' && (
            <TextField
              select
              label="Layout"
              value={orientation}
              onChange={(event) => setOrientation(event.target.value as 'horizontal' | 'vertical')}
              size="small"
            >
              <MenuItem value="vertical">One under another</MenuItem>
              <MenuItem value="horizontal">Side by side</MenuItem>
            </TextField>
          )}
          {type === 'relation' && (
            <TextField
              select
              label="Points at"
              value={target}
              onChange={(event) => setTarget(event.target.value)}
              size="small"
              disabled={builtIn}
            >
              {relationTargetChoices().map((choice) => (
                <MenuItem key={choice.id} value={choice.id}>
                  {choice.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          {(type === 'dropdown' || (type === 'relation' && !target.startsWith('site-'))) && (
            <FormControlLabel
              control={
                <Switch checked={multiple} onChange={(event) => setMultiple(event.target.checked)} disabled={builtIn} />
              }
              label="Several values"
            />
          )}
          {type === 'number' && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <TextField
                select
                label="Format"
                value={format}
                onChange={(event) => setFormat(event.target.value as NumberFieldFormat)}
                size="small"
                sx={{ minWidth: 190 }}
                data-testid="number-format"
              >
                {NUMBER_FORMATS.map((id) => (
                  <MenuItem key={id} value={id}>
                    {FORMAT_LABELS[id]}
                  </MenuItem>
                ))}
              </TextField>
              {(['min', 'max', 'step'] as const).map((key) => (
                <TextField
                  key={key}
                  label={{ min: 'Smallest', max: 'Largest', step: 'Step' }[key]}
                  type="number"
                  value={limits[key]}
                  onChange={(event) => setLimits({ ...limits, [key]: event.target.value })}
                  size="small"
                  slotProps={{ htmlInput: { 'data-testid': `number-${key}` } }}
                />
              ))}
            </Stack>
          )}
          {canSearch && (
            <FormControlLabel
              control={<Switch checked={searchable} onChange={(event) => setSearchable(event.target.checked)} />}
              label="Searchable (the list's search finds records by it)"
            />
          )}
          <TextField
            label="Help text (shown under the input)"
            value={help}
            onChange={(event) => setHelp(event.target.value)}
            size="small"
          />
          <FormControlLabel
            control={<Switch checked={required} onChange={(event) => setRequired(event.target.checked)} />}
            label="Required"
          />
          {impact && (
            <Stack spacing={1.5} sx={{ borderTop: 1, borderColor: 'divider', pt: 2 }}>
              <Typography variant="subtitle2">What this change affects</Typography>
              <ImpactSummary impact={impact} />
              <ChoiceMapping
                impact={impact}
                choices={(buildOptions().choices as FieldChoice[] | undefined) ?? []}
                value={choiceMap}
                onChange={setChoiceMap}
              />
            </Stack>
          )}
          {errors.options && (
            <Typography color="error" variant="body2">
              {errors.options}
            </Typography>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void save()} disabled={busy || !name.trim()}>
          {impact ? 'Save the change' : field ? 'Save field' : 'Add field'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
