/**
 * Add or edit one field of a record type: its name, type (not for built-in fields), the options its type takes (its
 * module's own editor: choices, what a relation points at, a number's format), and the validation options its type
 * offers (common/field-types/ `validation`): required, a pattern with its message, unique, a default, a range or a
 * length, read-only. Options the type does not take are dropped; those the dialog does not edit are kept.
 */

import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Suspense, useEffect, useState } from 'react';
import { fieldTypeModule, optionKeys, valueKind } from '../../common/field-types';
import type { ValidationOption } from '../../common/field-types/define';
import { type FieldChoice, normaliseChoices, type SchemaField, type SchemaFieldType } from '../../common/schema-types';
import { fieldTypeUIOf } from '../records/fieldTypes/ui';
import { useAppDataProvider } from '../records/hooks';
import type { RecordSchema } from '../records/schema';
import { type ChangeImpact, ChoiceMapping, ImpactSummary, RetargetChoice } from './impact';
import { FIELD_TYPE_CHOICES, slugifyField } from './shared';
import { useSchemaWrites } from './useSchemaEditor';

/** The kinds of value `search=` can look in (the server's SEARCHABLE_KINDS). */
const SEARCHABLE_KINDS = new Set(['text', 'email', 'phone', 'url']);
/** The options the dialog itself edits (the type's own editor edits the others). */
const DIALOG_KEYS = new Set([
  'help',
  'searchable',
  'min',
  'max',
  'step',
  'pattern',
  'pattern_message',
  'unique',
  'default',
  'read_only',
]);
/** The types whose options editor shows the server's messages about its options beside their inputs. */
const EDITORS_SHOWING_ERRORS = new Set(['lookup', 'rollup']);
const numberText = (value: unknown) => (typeof value === 'number' ? String(value) : '');
const numberOf = (text: string) => (text.trim() === '' ? undefined : Number(text));

/** A default as the dialog shows it, and back as the field holds it (by the kind of value). */
const defaultText = (value: unknown) =>
  value === undefined || value === null ? '' : Array.isArray(value) ? String(value[0] ?? '') : String(value);
function defaultValue(text: string, kind: string): unknown {
  if (text.trim() === '') return undefined;
  if (kind === 'number' || kind === 'integer') return Number(text);
  if (kind === 'boolean') return text === 'true';
  if (kind === 'enum[]') return [text];
  return text;
}

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
  const dataProvider = useAppDataProvider();
  const builtIn = Boolean(field?.column);
  const options = (field?.options ?? {}) as Record<string, unknown>;
  const [name, setName] = useState(field?.name ?? '');
  const [slug, setSlug] = useState(field?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(false);
  const [type, setType] = useState<SchemaFieldType>(field?.type ?? 'text');
  const [required, setRequired] = useState(Boolean(field?.required));
  const [help, setHelp] = useState(typeof options.help === 'string' ? options.help : '');
  /** The options the type's own editor edits (and those no one edits here, kept). */
  const [typeOptions, setTypeOptions] = useState<Record<string, unknown>>(options);
  const [limits, setLimits] = useState({
    min: numberText(options.min),
    max: numberText(options.max),
    step: numberText(options.step),
  });
  const [pattern, setPattern] = useState(typeof options.pattern === 'string' ? options.pattern : '');
  const [patternMessage, setPatternMessage] = useState(
    typeof options.pattern_message === 'string' ? options.pattern_message : '',
  );
  const [unique, setUnique] = useState(options.unique === true);
  const [readOnly, setReadOnly] = useState(options.read_only === true);
  const [fallback, setFallback] = useState(defaultText(options.default));
  const [searchable, setSearchable] = useState(options.searchable === true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  /** What the change affects, shown before it is saved (an existing field whose change touches something). */
  const [impact, setImpact] = useState<ChangeImpact | null>(null);
  const [choiceMap, setChoiceMap] = useState<Record<string, string | null>>({});
  const [retarget, setRetarget] = useState<'archive' | 'empty' | undefined>(undefined);

  const module = fieldTypeModule(type);
  const ui = fieldTypeUIOf(type);
  const keys = optionKeys(type);
  const own = Object.fromEntries(Object.entries(typeOptions).filter(([key]) => keys.includes(key)));
  const offered = new Set<ValidationOption>(module.validation(own));
  const kind = valueKind(type, own);
  const choices = normaliseChoices(own.choices);

  // A change edited after its impact was shown is asked about again.
  useEffect(() => setImpact(null), [type, typeOptions, limits, unique]);
  // Where the removed choices go changes what the change does: the impact is asked again with the mapping.
  const mapping = JSON.stringify([choiceMap, retarget]);
  useEffect(() => {
    if (!field || !(impact?.choices?.length || impact?.retarget)) return;
    let current = true;
    dataProvider
      .fieldImpact(field.id, { ...(builtIn ? {} : { type }), options: buildOptions(), choice_map: choiceMap, retarget })
      .then((next: ChangeImpact) => current && setImpact(next))
      .catch(() => undefined);
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mapping]);

  const effectiveSlug = field ? field.slug : slugTouched ? slug : slugifyField(name);
  const canSearch = !builtIn && module.textual && SEARCHABLE_KINDS.has(kind);

  const buildOptions = () => {
    const next: Record<string, unknown> = {};
    // min, max and step are the dialog's limits where the type offers them; else its own options (a rating's stars).
    const limited = offered.has('range') || offered.has('length');
    const dialogKey = (key: string) => DIALOG_KEYS.has(key) && (limited || !['min', 'max', 'step'].includes(key));
    for (const [key, value] of Object.entries(own)) if (!dialogKey(key) && value !== undefined) next[key] = value;
    if (limited)
      for (const key of ['min', 'max', 'step'] as const)
        if (keys.includes(key) && numberOf(limits[key]) !== undefined) next[key] = numberOf(limits[key]);
    if (offered.has('pattern') && pattern.trim()) {
      next.pattern = pattern.trim();
      if (patternMessage.trim()) next.pattern_message = patternMessage.trim();
    }
    if (offered.has('unique') && unique) next.unique = true;
    if (offered.has('read_only') && readOnly) next.read_only = true;
    const value = offered.has('default') ? defaultValue(fallback, kind) : undefined;
    if (value !== undefined) next.default = value;
    if (canSearch && searchable) next.searchable = true;
    if (help.trim()) next.help = help.trim();
    return next;
  };

  const save = async () => {
    setBusy(true);
    const data: Record<string, unknown> = { name: name.trim(), required, options: buildOptions() };
    if (!builtIn) data.type = type;
    if (field && !impact) {
      const proposed: ChangeImpact | null = await dataProvider
        .fieldImpact(field.id, { ...(builtIn ? {} : { type }), options: data.options })
        .catch(() => null);
      if (proposed && (proposed.summary.length > 0 || (proposed.choices ?? []).length > 0 || proposed.retarget)) {
        setImpact(proposed);
        setBusy(false);
        return;
      }
    }
    if (impact?.choices?.length) data.choice_map = choiceMap;
    if (impact?.retarget && retarget) data.retarget = retarget;
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
    else setErrors({ ...(outcome.errors ?? {}) });
  };

  /** The type's own options editor shows the messages about the options it edits, beside their inputs. */
  const editorErrors = Object.fromEntries(
    Object.entries(errors).flatMap(([key, message]) =>
      ui.Options && key.startsWith('options.') && !DIALOG_KEYS.has(key.slice(8)) ? [[key.slice(8), message]] : [],
    ),
  );
  /** The server's message about one option (`options.<key>`). */
  const optionError = (key: string) => errors[`options.${key}`];
  const otherErrors = Object.entries(errors)
    .filter(
      ([key]) =>
        (key === 'options' || key.startsWith('options.') || key === 'choice_map' || key === 'retarget') &&
        !shownKey(key),
    )
    .map(([, message]) => message);
  function shownKey(key: string) {
    return (
      ['options.pattern', 'options.pattern_message', 'options.default', 'options.min', 'options.max'].includes(key) ||
      (key.startsWith('options.') && Object.hasOwn(editorErrors, key.slice(8)) && EDITORS_SHOWING_ERRORS.has(type))
    );
  }

  const Options = ui.Options;
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
          {Options && (
            <Suspense fallback={null}>
              <Options
                key={type}
                options={own}
                onChange={setTypeOptions}
                builtIn={builtIn}
                schema={schema}
                slug={effectiveSlug}
                errors={editorErrors}
              />
            </Suspense>
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
          <Typography variant="subtitle2">Rules for its values</Typography>
          {(offered.has('required') || required) && (
            <FormControlLabel
              control={<Switch checked={required} onChange={(event) => setRequired(event.target.checked)} />}
              label="Required"
            />
          )}
          {(offered.has('range') || offered.has('length')) && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              {(['min', 'max', 'step'] as const)
                .filter((key) => keys.includes(key) && (key !== 'step' || offered.has('range')))
                .map((key) => (
                  <TextField
                    key={key}
                    label={
                      offered.has('range')
                        ? { min: 'Smallest', max: 'Largest', step: 'Step' }[key]
                        : { min: 'Shortest (characters)', max: 'Longest (characters)', step: '' }[key]
                    }
                    type="number"
                    value={limits[key]}
                    onChange={(event) => setLimits({ ...limits, [key]: event.target.value })}
                    error={Boolean(optionError(key))}
                    helperText={optionError(key)}
                    size="small"
                    slotProps={{ htmlInput: { 'data-testid': `number-${key}` } }}
                  />
                ))}
            </Stack>
          )}
          {offered.has('pattern') && (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <TextField
                label="Pattern (the whole value must match)"
                placeholder="\d{7}"
                value={pattern}
                onChange={(event) => setPattern(event.target.value)}
                error={Boolean(optionError('pattern'))}
                helperText={optionError('pattern') ?? 'A regular expression, for example \\d{7} for seven digits.'}
                size="small"
                sx={{ flex: 1 }}
              />
              <TextField
                label="Message when it does not match"
                value={patternMessage}
                onChange={(event) => setPatternMessage(event.target.value)}
                disabled={!pattern.trim()}
                error={Boolean(optionError('pattern_message'))}
                helperText={optionError('pattern_message')}
                size="small"
                sx={{ flex: 1 }}
              />
            </Stack>
          )}
          {offered.has('default') && (
            <DefaultInput
              kind={kind}
              choices={choices}
              value={fallback}
              onChange={setFallback}
              error={optionError('default')}
            />
          )}
          {offered.has('unique') && (
            <FormControlLabel
              control={<Switch checked={unique} onChange={(event) => setUnique(event.target.checked)} />}
              label="Unique (no two records hold the same value)"
            />
          )}
          {offered.has('read_only') && !builtIn && (
            <FormControlLabel
              control={<Switch checked={readOnly} onChange={(event) => setReadOnly(event.target.checked)} />}
              label="Read-only (shown, never changed by people; a new record gets the default)"
            />
          )}
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
              <RetargetChoice impact={impact} value={retarget} onChange={setRetarget} />
            </Stack>
          )}
          {otherErrors.map((message) => (
            <Typography key={message} color="error" variant="body2">
              {message}
            </Typography>
          ))}
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

/** The default a new record gets, typed as the field's values are: yes / no, a choice, a number, a day, text. */
function DefaultInput({
  kind,
  choices,
  value,
  onChange,
  error,
}: {
  kind: string;
  choices: FieldChoice[];
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const common = {
    label: 'Default (what a new record gets)',
    value,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => onChange(event.target.value),
    error: Boolean(error),
    helperText: error,
    size: 'small' as const,
  };
  if (kind === 'boolean' || kind === 'enum' || kind === 'enum[]') {
    const items =
      kind === 'boolean'
        ? [
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]
        : choices;
    return (
      <TextField select {...common}>
        <MenuItem value="">No default</MenuItem>
        {items.map((item) => (
          <MenuItem key={item.value} value={item.value}>
            {item.label}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  const inputType =
    kind === 'number' || kind === 'integer' ? 'number' : kind === 'date' ? 'date' : kind === 'email' ? 'email' : 'text';
  return <TextField {...common} type={inputType} slotProps={{ inputLabel: { shrink: true } }} />;
}
