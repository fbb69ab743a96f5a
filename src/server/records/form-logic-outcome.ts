import { isBlank } from './fields.js';
import type { FieldSpec } from './resource.js';
import { blankValue } from './validate.js';

/**
 * What a record type's form logic does with the values of one write, worked out by the schemas feature on the one
 * rule engine (the form in the browser runs the same blocks): the values its set-value actions give, by field, and
 * the fields it hides, which are never required and are stored empty.
 */
export interface FormLogicOutcome {
  setValues: Readonly<Record<string, unknown>>;
  hidden: ReadonlySet<string>;
  /** Hidden fields whose rule says to clear them (`clear_hidden`): stored empty. The other hidden fields keep their value. */
  cleared: ReadonlySet<string>;
}

export const NO_FORM_LOGIC: FormLogicOutcome = { setValues: {}, hidden: new Set(), cleared: new Set() };

const writable = (key: string, fields: Record<string, FieldSpec>, readOnly: readonly string[] = []) =>
  key in fields && fields[key].storage !== 'virtual' && !readOnly.includes(key);

/** The body of a write with the set-value results in it, so they are validated and stored like typed values. */
export function withSetValues(
  body: Record<string, unknown>,
  outcome: FormLogicOutcome,
  fields: Record<string, FieldSpec>,
  readOnly?: readonly string[],
) {
  const keys = Object.keys(outcome.setValues).filter((key) => writable(key, fields, readOnly));
  if (!keys.length) return body;
  const next = { ...body };
  for (const key of keys) next[key] = outcome.setValues[key];
  return next;
}

/**
 * Validated values with every field a rule hides and says to clear (`clear_hidden`) emptied, where it holds something
 * (sent now, or stored before on an update). Hidden is not erased otherwise: a field hidden by a rule that does not
 * say so keeps its value. A value a set-value action gave stays (the logic's own value), and a built-in required
 * field is left alone (its column must hold a value).
 */
export function emptyHidden(
  values: Record<string, any>,
  outcome: FormLogicOutcome,
  fields: Record<string, FieldSpec>,
  existing?: Record<string, any>,
  readOnly?: readonly string[],
) {
  let next = values;
  for (const key of outcome.cleared) {
    const spec = fields[key];
    if (!writable(key, fields, readOnly) || key in outcome.setValues || (spec.required && spec.storage !== 'custom'))
      continue;
    const held = key in values ? values[key] : existing?.[key];
    if (isBlank(held) || held === false) continue;
    if (next === values) next = { ...values };
    next[key] = blankValue(spec);
  }
  return next;
}
