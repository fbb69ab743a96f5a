import { type FieldErrors, ValidationError } from '../http/errors.js';
import { fieldSchema, humanise, isBlank } from './fields.js';
import type { FieldSpec } from './resource.js';

const ALWAYS_READ_ONLY = ['id', 'created_at', 'updated_at', 'deleted_at'];

export interface ValidatedInput {
  /** Values keyed by field name, blanks as null; only the keys that were sent (on update). */
  values: Record<string, any>;
}

/**
 * Checks a create or update payload against the fields of a record type. On create every required field must
 * be present; on update only the fields sent are checked. Unknown keys are refused by name so a typo never
 * silently drops data; keys the client may echo back (`readOnly`) are ignored. `hidden` names fields the
 * form logic hides: they are never required, and a value sent for one that the field refuses is left out (the record
 * keeps what it holds).
 */
export function validateInput(
  body: unknown,
  fields: Record<string, FieldSpec>,
  options: {
    mode: 'create' | 'update';
    readOnly?: string[];
    hidden?: ReadonlySet<string>;
    existing?: Record<string, unknown>;
    /** Fields the form logic gave their value (set-value): written even when read-only. */
    setByLogic?: ReadonlySet<string>;
  },
): ValidatedInput {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError({ body: ['Send the record as a JSON object.'] });
  }
  const ignored = new Set([...ALWAYS_READ_ONLY, ...(options.readOnly ?? [])]);
  const errors: FieldErrors = {};
  const values: Record<string, any> = {};
  for (const [key, raw] of Object.entries(body as Record<string, unknown>)) {
    if (ignored.has(key)) continue;
    const spec = fields[key];
    if (!spec) {
      errors[key] = [`The field "${key}" is not known for this record type.`];
      continue;
    }
    // A computed value (a formula, a rollup: kept by the server) is never written by people: what a form sends back
    // for it is left aside.
    if (spec.computed || spec.computedOver) continue;
    if (spec.readOnly && !options.setByLogic?.has(key)) {
      // Shown, never written by people: what the record holds (or its default, on create) may be sent back.
      const held = options.mode === 'create' ? spec.default : options.existing?.[key];
      if (!sameValue(key, raw, held, spec)) errors[key] = [`The ${spec.label ?? humanise(key)} is read-only.`];
      continue;
    }
    if (isBlank(raw)) {
      values[key] = blankValue(spec);
      continue;
    }
    const parsed = fieldSchema(key, spec).safeParse(raw);
    if (parsed.success) values[key] = parsed.data;
    // What a hidden field holds is not checked while hidden: a value it cannot take is left out, not refused.
    else if (options.hidden?.has(key)) continue;
    else if (options.existing && key in options.existing) {
      // What the record already holds stays editable: a choice removed from the field since, a limit lowered.
      const kept = keptValue(key, spec, raw, options.existing[key]);
      if (kept.keep) {
        if (kept.value !== undefined) values[key] = kept.value;
      } else errors[key] = [parsed.error.issues[0]?.message ?? `The ${humanise(key)} is invalid.`];
    } else errors[key] = [parsed.error.issues[0]?.message ?? `The ${humanise(key)} is invalid.`];
  }
  // A new record gets each field's default (`options.default`) unless the field was sent.
  if (options.mode === 'create')
    for (const [key, spec] of Object.entries(fields))
      if (spec.default !== undefined && !(key in values) && !errors[key]) values[key] = spec.default;
  for (const [key, spec] of Object.entries(fields)) {
    if (!spec.required || errors[key] || options.hidden?.has(key)) continue;
    const sent = key in values;
    if ((options.mode === 'create' && !sent) || (sent && isBlank(values[key]))) {
      errors[key] = [`The ${spec.label ?? humanise(key)} field is required.`];
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { values };
}

/**
 * A value that fails its field's check on an update but is what the record already holds is kept as it is (no
 * change); a list of choices may keep the choices it held while others are added or removed.
 */
function keptValue(key: string, spec: FieldSpec, raw: unknown, stored: unknown): { keep: boolean; value?: unknown } {
  if (JSON.stringify(raw) === JSON.stringify(stored) || (typeof stored === 'number' && Number(raw) === stored))
    return { keep: true };
  if (spec.kind === 'enum[]' && Array.isArray(raw) && Array.isArray(stored)) {
    const held = stored.map(String);
    const parsed = fieldSchema(key, { ...spec, options: [...(spec.options ?? []), ...held] }).safeParse(raw);
    if (parsed.success) return { keep: true, value: parsed.data };
  }
  return { keep: false };
}

/** A value sent back is the one held (blanks alike; a number sent as text is the number). */
function sameValue(key: string, raw: unknown, held: unknown, spec: FieldSpec): boolean {
  if (isBlank(raw) && (isBlank(held) || held === blankValue(spec))) return true;
  const parsed = fieldSchema(key, spec).safeParse(raw);
  return JSON.stringify(parsed.success ? parsed.data : raw) === JSON.stringify(held ?? null);
}

/** What an empty value of a field is stored as: an empty list, false, or null. */
export function blankValue(spec: FieldSpec): unknown {
  return spec.kind.endsWith('[]') ? [] : spec.kind === 'boolean' ? false : null;
}
