import { z } from 'zod';
import { normaliseChoices, RELATION_TARGETS, type RelationTarget, type SchemaField, type SchemaFieldOptions, type SchemaFieldType } from '../../common/schema-types.js';
import type { FieldSpec } from '../records/resource.js';

/** Tables of the relation targets whose value is an id (checked to exist on write). */
export function relationTable(target: RelationTarget): { table: string; softDelete: boolean } | null {
  const info = RELATION_TARGETS[target];
  if (!info || info.value !== 'id') return null;
  const table = info.resource.replace(/-/g, '_');
  return { table, softDelete: !['features'].includes(table) };
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

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
const addresses = z.array(address, { error: 'The addresses must be a list of {street, city, county, state, postal_code, latitude, longitude}.' }).max(50);

/** "Favorite Color" -> "favorite Color" as Laravel-style messages want ("The favorite Color must be ..."). */
function labelOf(name: string) {
  return /^[A-Z][a-z]/.test(name) ? name.charAt(0).toLowerCase() + name.slice(1) : name;
}

/**
 * The validation of a schema field (SPEC section 3 types) as a FieldSpec kind of the one validation path
 * (records/fields.ts). Values of fields that are not columns live in `custom`.
 */
export function fieldSpecFor(field: Pick<SchemaField, 'slug' | 'name' | 'type' | 'required' | 'options' | 'column'>): FieldSpec {
  const options: SchemaFieldOptions = field.options ?? {};
  const base: FieldSpec = { kind: 'text', label: labelOf(field.name), required: field.required, storage: field.column ? 'column' : 'custom' };
  const type = field.type as SchemaFieldType;
  switch (type) {
    case 'text':
      return { ...base, kind: 'text', max: options.max ?? 2_000 };
    case 'textarea':
    case 'note':
      return { ...base, kind: 'text', max: options.max ?? 20_000 };
    case 'slug':
      return { ...base, kind: 'text', max: 200, pattern: SLUG, patternMessage: `The ${base.label} may only hold lower-case letters, digits and single dashes.` };
    case 'email':
      return { ...base, kind: 'email' };
    case 'phone':
      return { ...base, kind: 'phone' };
    case 'link':
    case 'social-link':
      return { ...base, kind: 'url' };
    case 'date':
      return { ...base, kind: 'date' };
    case 'datetime':
      return { ...base, kind: 'datetime' };
    case 'boolean':
    case 'prevailing-wage':
      return { ...base, kind: 'boolean' };
    case 'color':
      return { ...base, kind: 'color' };
    case 'dropdown':
    case 'radios': {
      const choices = normaliseChoices(options.choices).map((choice) => choice.value);
      return { ...base, kind: type === 'dropdown' && options.multiple ? 'enum[]' : 'enum', options: choices };
    }
    case 'attachment':
      return { ...base, kind: 'integer[]', references: { table: 'documents', softDelete: true } };
    case 'addresses':
      return { ...base, kind: 'json', shape: addresses, sortable: false };
    case 'estimated-hours':
      return { ...base, kind: 'number', min: 0, max: options.max ?? 1e9 };
    case 'relation': {
      const target = options.target as RelationTarget;
      const info = RELATION_TARGETS[target];
      if (info?.value === 'text') return { ...base, kind: 'text', max: 200 };
      const references = relationTable(target) ?? undefined;
      return options.multiple ? { ...base, kind: 'integer[]', references } : { ...base, kind: 'integer', min: 1, references };
    }
    default:
      return { ...base, kind: 'text' };
  }
}

/** Checks the options of a field of `type`; returns them normalised, or an error message. */
export function checkFieldOptions(type: SchemaFieldType, raw: unknown): { options: SchemaFieldOptions } | { error: string } {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) return { error: 'The options must be an object.' };
  const options: SchemaFieldOptions = { ...((raw as SchemaFieldOptions) ?? {}) };
  if (options.max !== undefined && !(typeof options.max === 'number' && options.max > 0)) return { error: 'The options.max must be a positive number.' };
  if (type === 'dropdown' || type === 'radios') {
    const choices = normaliseChoices(options.choices);
    if (!choices.length) return { error: `A ${type} field needs its choices (options.choices: ["a", "b"] or [{value, label}]).` };
    if (new Set(choices.map((c) => c.value)).size !== choices.length) return { error: 'The choices must be different from each other.' };
    if (choices.length > 500) return { error: 'A field may have at most 500 choices.' };
    options.choices = choices;
  }
  if (type === 'radios') {
    options.orientation ??= 'vertical';
    if (!['horizontal', 'vertical'].includes(options.orientation)) return { error: 'The orientation must be horizontal or vertical.' };
  }
  if (type === 'relation') {
    if (!options.target || !(options.target in RELATION_TARGETS)) return { error: `A relation needs its target (options.target), one of: ${Object.keys(RELATION_TARGETS).join(', ')}.` };
    if (options.multiple && RELATION_TARGETS[options.target].value === 'text') return { error: 'A relation to a site address part holds one value.' };
  }
  if (options.multiple !== undefined && typeof options.multiple !== 'boolean') return { error: 'The options.multiple must be true or false.' };
  if (JSON.stringify(options).length > 50_000) return { error: 'The options are too large.' };
  return { options };
}
