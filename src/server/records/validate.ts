import { ValidationError, type FieldErrors } from '../http/errors.js';
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
 * form logic hides: they are never required.
 */
export function validateInput(
  body: unknown,
  fields: Record<string, FieldSpec>,
  options: { mode: 'create' | 'update'; readOnly?: string[]; hidden?: ReadonlySet<string> },
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
    if (isBlank(raw)) {
      values[key] = spec.kind.endsWith('[]') ? [] : spec.kind === 'boolean' ? false : null;
      continue;
    }
    const parsed = fieldSchema(key, spec).safeParse(raw);
    if (parsed.success) values[key] = parsed.data;
    else errors[key] = [parsed.error.issues[0]?.message ?? `The ${humanise(key)} is invalid.`];
  }
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
