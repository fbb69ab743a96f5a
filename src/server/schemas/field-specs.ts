import { z } from 'zod';
import { isFieldType, NUMBER_FORMATS, SCHEMA_FIELD_TYPES, valueKind, valueLimits } from '../../common/field-types.js';
import { HEAD_COUNT_NUMBERS, headCountProblem } from '../../common/head-count.js';
import {
  normaliseChoices,
  type RelationTarget,
  type RelationTargetInfo,
  type SchemaField,
  type SchemaFieldOptions,
  type SchemaFieldType,
} from '../../common/schema-types.js';
import type { FieldSpec } from '../records/resource.js';

/**
 * The table of the records an id relation target points at: its resource's path (`site-statuses` -> `site_statuses`),
 * or the rows of its schema in `custom_records` for a type made in the app.
 */
export function relationTable(info: RelationTargetInfo | undefined): NonNullable<FieldSpec['references']> | null {
  if (info?.value !== 'id') return null;
  if (info.schema_id !== undefined)
    return { table: 'custom_records', softDelete: true, scope: { column: 'schema_id', value: info.schema_id } };
  return { table: info.resource.replace(/-/g, '_'), softDelete: true };
}

/** The form of a slug (lower-case letters, digits, single dashes): every slug written is checked against it. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const address = z
  .object({
    label: z.string().max(100).optional().nullable(),
    street: z.string().max(200).optional().nullable(),
    city: z.string().max(100).optional().nullable(),
    county: z.string().max(100).optional().nullable(),
    state: z.string().max(100).optional().nullable(),
    postal_code: z.string().max(20).optional().nullable(),
    latitude: z.number().min(-90).max(90).optional().nullable(),
    longitude: z.number().min(-180).max(180).optional().nullable(),
  })
  .strict();
const addresses = z
  .array(address, {
    error: 'The addresses must be a list of {street, city, county, state, postal_code, latitude, longitude}.',
  })
  .max(50);

const count = z.number({ error: 'Each count must be a whole number, 0 or more.' });
const headCountRow = z
  .object({
    contractor_id: z.number({ error: 'Each row of the head count needs its contractor.' }).int().positive(),
    trade_ids: z
      .array(z.number().int().positive(), { error: 'The trades of a head count row must be a list of ids.' })
      .max(20)
      .default([]),
    ...Object.fromEntries(HEAD_COUNT_NUMBERS.map((key) => [key, count.default(0)])),
  })
  .strict();
/** A head count (common/head-count.ts): rows of counts by contractor, each row's counts consistent. */
const headCounts = z
  .array(headCountRow, {
    error:
      'The head count must be a list of {contractor_id, trade_ids, workers, union_workers, non_union_workers, talked_to, cards_signed, contacts_made, recruits_signed}.',
  })
  .max(200)
  .superRefine((rows, check) => {
    rows.forEach((row, index) => {
      const problem = headCountProblem(row as Record<string, unknown>, `Row ${index + 1}`);
      if (problem) check.addIssue({ code: 'custom', message: problem, path: [index] });
    });
  });

/**
 * "Favorite Color" -> "favorite color" as Laravel-style messages want ("The favorite color must be ..."): each
 * capitalised word in lower case, acronyms and words of mixed case ("PLA", "iPhone") as written.
 */
function labelOf(name: string) {
  return name.replace(/\b[A-Z][a-z]+\b/g, (word) => word.toLowerCase());
}

/**
 * The validation of a schema field, built-in or custom: its kind and limits from the field-type table
 * (common/field-types.ts), its label from its name, and what only the server checks (slug patterns, the shape of
 * addresses, that related records exist). `targets` are the relation targets (relationTargets). Values of fields
 * that are not columns live in `custom`.
 */
/** The kinds of value `search=` can look in. */
const SEARCHABLE_KINDS = new Set(['text', 'email', 'phone', 'url']);

export function fieldSpecFor(
  field: Pick<SchemaField, 'slug' | 'name' | 'type' | 'required' | 'options' | 'column'>,
  targets: Record<RelationTarget, RelationTargetInfo>,
): FieldSpec {
  const options: SchemaFieldOptions = field.options ?? {};
  const type = field.type as SchemaFieldType;
  const target = type === 'relation' && typeof options.target === 'string' ? targets[options.target] : undefined;
  const kind = valueKind(type, options, target?.value);
  const label = labelOf(field.name);
  const spec: FieldSpec = {
    kind,
    label,
    name: field.name,
    required: field.required,
    storage: field.column ? 'column' : 'custom',
    ...valueLimits(type, kind, options),
  };
  switch (kind) {
    case 'enum':
    case 'enum[]': {
      const choices = normaliseChoices(options.choices);
      spec.options = choices.map((choice) => choice.value);
      spec.choiceLabels = Object.fromEntries(choices.map((choice) => [choice.value, choice.label]));
      break;
    }
    case 'json':
      spec.sortable = false;
      if (type === 'addresses') spec.shape = addresses;
      if (type === 'head-count') spec.shape = headCounts;
      break;
    case 'integer':
      if (type === 'relation') spec.min = 1;
      break;
  }
  if (options.searchable === true && !field.column && SEARCHABLE_KINDS.has(kind)) spec.searchable = true;
  if (type === 'slug')
    Object.assign(spec, {
      pattern: SLUG,
      patternMessage: `The ${label} may only hold lower-case letters, digits and single dashes.`,
    });
  if (type === 'dropdown' && typeof options.choices_from === 'string')
    spec.slugOf = options.choices_from.replace(/-/g, '_');
  if (type === 'attachment') spec.references = { table: 'documents', softDelete: true };
  if (type === 'relation' && (kind === 'integer' || kind === 'integer[]'))
    spec.references = relationTable(target) ?? undefined;
  return spec;
}

/** A number field's format, range and step; an error message, or nothing when they hold together. */
function checkNumberOptions(options: SchemaFieldOptions): string | undefined {
  options.format ??= 'decimal';
  if (!(NUMBER_FORMATS as readonly unknown[]).includes(options.format))
    return `The options.format must be one of: ${NUMBER_FORMATS.join(', ')}.`;
  const finite = (value: unknown) =>
    value === undefined || (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= 1e14);
  if (!finite(options.max)) return 'The options.max must be a number.';
  if (typeof options.min === 'number' && typeof options.max === 'number' && options.min > options.max)
    return 'The options.min may not be greater than the options.max.';
  if (
    options.step !== undefined &&
    !(typeof options.step === 'number' && options.step > 0 && Number.isFinite(options.step))
  )
    return 'The options.step must be a positive number.';
  if (
    options.format === 'integer' &&
    [options.min, options.max, options.step].some((value) => value !== undefined && !Number.isInteger(value))
  )
    return 'A whole number field needs whole numbers for its min, max and step.';
  return undefined;
}

/** Checks the options of a field of `type`; returns them normalised, or an error message. */
export function checkFieldOptions(
  type: SchemaFieldType,
  raw: unknown,
  targets: Record<RelationTarget, RelationTargetInfo>,
): { options: SchemaFieldOptions } | { error: string } {
  if (!isFieldType(type)) return { error: `The type must be one of: ${SCHEMA_FIELD_TYPES.join(', ')}.` };
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw)))
    return { error: 'The options must be an object.' };
  const options: SchemaFieldOptions = { ...((raw as SchemaFieldOptions) ?? {}) };
  if (options.min !== undefined && !(typeof options.min === 'number' && Number.isFinite(options.min)))
    return { error: 'The options.min must be a number.' };
  if (type === 'number') {
    const checked = checkNumberOptions(options);
    if (checked) return { error: checked };
  } else if (options.max !== undefined && !(typeof options.max === 'number' && options.max > 0))
    return { error: 'The options.max must be a positive number.' };
  if (options.searchable !== undefined && typeof options.searchable !== 'boolean')
    return { error: 'The options.searchable must be true or false.' };
  if (options.searchable === true && !SEARCHABLE_KINDS.has(valueKind(type, options, undefined)))
    return { error: 'Only text fields can be searchable.' };
  if (type === 'dropdown' || type === 'radios') {
    const choices = normaliseChoices(options.choices);
    if (!choices.length)
      return { error: `A ${type} field needs its choices (options.choices: ["a", "b"] or [{value, label}]).` };
    if (new Set(choices.map((c) => c.value)).size !== choices.length)
      return { error: 'The choices must be different from each other.' };
    if (choices.length > 500) return { error: 'A field may have at most 500 choices.' };
    options.choices = choices;
  }
  if (type === 'radios') {
    options.orientation ??= 'vertical';
    if (!['horizontal', 'vertical'].includes(options.orientation))
      return { error: 'The orientation must be horizontal or vertical.' };
  }
  if (type === 'relation') {
    const target = typeof options.target === 'string' ? targets[options.target] : undefined;
    if (!target)
      return { error: `A relation needs its target (options.target), one of: ${Object.keys(targets).join(', ')}.` };
    if (options.multiple && target.value === 'text')
      return { error: 'A relation to a site address part holds one value.' };
  }
  if (options.multiple !== undefined && typeof options.multiple !== 'boolean')
    return { error: 'The options.multiple must be true or false.' };
  if (JSON.stringify(options).length > 50_000) return { error: 'The options are too large.' };
  return { options };
}
