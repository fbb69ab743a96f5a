import { z } from 'zod';
import type { FieldSpec } from './resource.js';

const DEFAULT_TEXT_MAX = 2_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

// Building a zod schema costs far more than checking a value with it (imports check millions): keep each one.
const built = new WeakMap<FieldSpec, Map<string, z.ZodType>>();

/** One zod schema per field kind; the data service, imports and schema fields all validate through here. */
export function fieldSchema(name: string, spec: FieldSpec): z.ZodType {
  let byName = built.get(spec);
  if (!byName) built.set(spec, (byName = new Map()));
  let schema = byName.get(name);
  if (!schema) byName.set(name, (schema = buildFieldSchema(name, spec)));
  return schema;
}

function buildFieldSchema(name: string, spec: FieldSpec): z.ZodType {
  const schema = kindSchema(name, spec);
  const { pattern } = spec;
  // A pattern (a slug's, or the administrator's `options.pattern` with their message) holds for text of any kind.
  if (!pattern || spec.kind === 'text' || !TEXT_KINDS.has(spec.kind)) return schema;
  const message = spec.patternMessage ?? `The ${spec.label ?? humanise(name)} format is invalid.`;
  return schema.refine((value) => typeof value !== 'string' || value === '' || pattern.test(value), message);
}

const TEXT_KINDS = new Set(['text', 'email', 'phone', 'url', 'color']);

function kindSchema(name: string, spec: FieldSpec): z.ZodType {
  const label = spec.label ?? humanise(name);
  const max = spec.max;
  switch (spec.kind) {
    case 'text': {
      const text = z
        .string({ error: `The ${label} must be text.` })
        .trim()
        .min(spec.min ?? 0, `The ${label} must be at least ${spec.min} characters.`)
        .max(max ?? DEFAULT_TEXT_MAX, `The ${label} may not be longer than ${max ?? DEFAULT_TEXT_MAX} characters.`);
      const checked = spec.pattern
        ? text.regex(spec.pattern, spec.patternMessage ?? `The ${label} format is invalid.`)
        : text;
      const { clean } = spec;
      return clean ? checked.transform((value) => clean(value)) : checked;
    }
    case 'email':
      return z
        .string({ error: `The ${label} must be text.` })
        .trim()
        .max(254, `The ${label} may not be longer than 254 characters.`)
        .email(`The ${label} must be a valid email address.`);
    case 'phone':
      return z
        .string({ error: `The ${label} must be text.` })
        .trim()
        .max(40, `The ${label} may not be longer than 40 characters.`)
        .regex(/^[0-9+().\-\s#x*ext]*$/i, `The ${label} must be a phone number (digits, spaces, + - ( ) only).`);
    case 'url':
      return z
        .string({ error: `The ${label} must be text.` })
        .trim()
        .max(max ?? 2_048)
        .refine(isUrl, `The ${label} must be a valid link starting with http:// or https://.`);
    case 'color':
      return z
        .string()
        .trim()
        .regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, `The ${label} must be a colour like #1e88e5.`);
    case 'integer':
      return inSteps(
        z.coerce
          .number({ error: `The ${label} must be a whole number.` })
          .int(`The ${label} must be a whole number.`)
          .min(spec.min ?? -2_147_483_648, `The ${label} is too small.`)
          .max(spec.max ?? 2_147_483_647, `The ${label} is too large.`),
        label,
        spec,
      );
    case 'number':
      return inSteps(
        z.coerce
          .number({ error: `The ${label} must be a number.` })
          .refine(Number.isFinite, `The ${label} must be a number.`)
          .min(spec.min ?? -1e14, `The ${label} is too small.`)
          .max(spec.max ?? 1e14, `The ${label} is too large.`),
        label,
        spec,
      );
    case 'boolean':
      return z.preprocess(toBoolean, z.boolean({ error: `The ${label} must be true or false.` }));
    case 'date':
      return z
        .string({ error: `The ${label} must be a date (YYYY-MM-DD).` })
        .transform((v) => v.trim().slice(0, 10))
        .refine((v) => ISO_DATE.test(v), `The ${label} must be a date (YYYY-MM-DD).`)
        .refine(isRealDate, {
          error: (issue) => `The ${label} must be a real date: ${String(issue.input)} is not a day of the calendar.`,
        });
    case 'datetime':
      return z
        .string({ error: `The ${label} must be a date and time.` })
        .refine((v) => !Number.isNaN(Date.parse(v)), `The ${label} must be a date and time (ISO 8601).`)
        .refine((v) => !ISO_DATE.test(v.trim().slice(0, 10)) || isRealDate(v.trim().slice(0, 10)), {
          error: (issue) =>
            `The ${label} must be a real date and time: ${String(issue.input).trim().slice(0, 10)} is not a day of the calendar.`,
        })
        .transform((v) => new Date(v).toISOString());
    case 'enum': {
      const options = spec.options ?? [];
      return z
        .string({ error: `The ${label} must be one of: ${options.join(', ')}.` })
        .refine((v) => options.includes(v), `The ${label} must be one of: ${options.join(', ')}.`);
    }
    case 'enum[]': {
      const options = spec.options ?? [];
      return z
        .array(z.string())
        .max(500)
        .refine(
          (values) => values.every((v) => options.includes(v)),
          `Each ${label} must be one of: ${options.join(', ')}.`,
        );
    }
    case 'integer[]':
      return z.array(z.coerce.number().int().positive(), { error: `The ${label} must be a list of ids.` }).max(10_000);
    case 'json':
      return (spec.shape ? z.unknown().pipe(spec.shape as unknown as z.ZodType) : z.unknown()).refine(
        (v) => JSON.stringify(v ?? null).length <= (max ?? 100_000),
        `The ${label} is too large.`,
      );
  }
}

/** A number in whole steps from 0: 0.01 for money, 5 for "in fives". */
function inSteps(schema: z.ZodType<number, unknown>, label: string, spec: FieldSpec): z.ZodType {
  const { step } = spec;
  if (!step) return schema;
  return schema.refine((value) => {
    const steps = value / step;
    return Math.abs(steps - Math.round(steps)) <= 1e-9 * Math.max(1, Math.abs(steps));
  }, `The ${label} must be a multiple of ${step}.`);
}

/**
 * `2026-02-30` is not a day: JavaScript's Date would roll it over to March 2 and PostgreSQL would refuse it with
 * "date/time field value out of range". A real date reads back as itself (years 1 to 9999).
 */
export function isRealDate(text: string): boolean {
  if (!ISO_DATE.test(text) || text.startsWith('0000')) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

function toBoolean(value: unknown) {
  if (value === 'true' || value === '1' || value === 1) return true;
  if (value === 'false' || value === '0' || value === 0) return false;
  return value;
}

function isUrl(value: string) {
  if (value === '') return true;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A field's name as people see it: its schema name, else its label or key with a capital ("Estimated value"). */
export function displayName(key: string, spec: FieldSpec | undefined): string {
  if (spec?.name) return spec.name;
  const label = spec?.label ?? (key === 'id' ? 'ID' : humanise(key));
  return label.charAt(0).toUpperCase() + label.slice(1);
}

export function humanise(name: string) {
  return name.replace(/_id$/, '').replace(/_ids$/, 's').replace(/[_-]+/g, ' ').trim().toLowerCase();
}

export function isBlank(value: unknown) {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}
