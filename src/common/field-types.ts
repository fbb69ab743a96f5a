/**
 * THE field-type table: the schema field types of SPEC section 3 are the one vocabulary of what a field holds.
 * Each row gives the type's name in the schema editor and the kind of value it holds: the server validates
 * (records/fields.ts), stores, filters, sorts, indexes and imports a value by its kind. Adding a field type is
 * adding a row here; TypeScript then asks for its screens in the client's table (records/fieldTypes/index.tsx).
 */

/**
 * The kinds of value the server checks and stores. Every resource's fields have one (records/resource.ts
 * FieldSpec); a schema field's kind comes from its type and options (`valueKind`).
 */
export type ValueKind =
  | 'text'
  | 'email'
  | 'phone'
  | 'url'
  | 'color'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'enum'
  | 'enum[]'
  | 'integer[]'
  | 'json';

/** The options that decide a value's kind (the rest of SchemaFieldOptions is for the screens). */
export interface KindOptions {
  /** text: typed as a number or an amount of money (a numeric column); the value is a number. */
  input?: unknown;
  /** number: `integer` (a whole number), `decimal` or `currency` (an amount of money). */
  format?: unknown;
  /** dropdown: several choices; relation: several ids. */
  multiple?: unknown;
  /** dropdown: the choices are the slugs of a list (`site-types`) an administrator extends; the value is that slug. */
  choices_from?: unknown;
  /** relation: [{contractor_id, trade_id}] pairs (the site's contractors) instead of ids. */
  with_trade?: unknown;
}

/** What a relation target holds: ids of records, or text (the distinct values of a column, e.g. site cities). */
export type RelationValue = 'id' | 'text';

interface FieldTypeRow {
  /** Its name in the schema editor. */
  label: string;
  /** The kind of value; `target` is what a relation points at (undefined when unknown). */
  kind: ValueKind | ((options: KindOptions, target?: RelationValue) => ValueKind);
  /** A text value: the most characters, unless `options.max` says. */
  maxLength?: number;
  /** A number value: its range, unless `options.min` / `options.max` say. */
  range?: { min?: number; max?: number };
}

const numericInput = (options: KindOptions) => options.input === 'number' || options.input === 'money';

export const FIELD_TYPE_TABLE = {
  text: { label: 'Text', kind: (options) => (numericInput(options) ? 'number' : 'text'), maxLength: 2_000 },
  textarea: { label: 'Text area', kind: 'text', maxLength: 20_000 },
  number: {
    label: 'Number',
    kind: (options) => (options.format === 'integer' ? 'integer' : 'number'),
    range: { min: -1e14, max: 1e14 },
  },
  email: { label: 'Email', kind: 'email' },
  phone: { label: 'Phone', kind: 'phone' },
  link: { label: 'Link', kind: 'url' },
  date: { label: 'Date', kind: 'date' },
  datetime: { label: 'Date and time', kind: 'datetime' },
  boolean: { label: 'Yes / no', kind: 'boolean' },
  dropdown: {
    label: 'Dropdown',
    kind: (options) => (options.choices_from ? 'text' : options.multiple ? 'enum[]' : 'enum'),
    maxLength: 60,
  },
  color: { label: 'Color', kind: 'color' },
  note: { label: 'Note', kind: 'text', maxLength: 20_000 },
  attachment: { label: 'Attachment', kind: 'integer[]' },
  addresses: { label: 'Addresses', kind: 'json' },
  slug: { label: 'Slug', kind: 'text', maxLength: 200 },
  radios: { label: 'Radio buttons', kind: 'enum' },
  'social-link': { label: 'Social link', kind: 'url' },
  'prevailing-wage': { label: 'Prevailing wage', kind: 'boolean' },
  'estimated-hours': { label: 'Estimated hours', kind: 'number', range: { min: 0, max: 1e9 } },
  'head-count': { label: 'Head count', kind: 'json' },
  relation: {
    label: 'Relation',
    kind: (options, target) =>
      options.with_trade ? 'json' : target === 'text' ? 'text' : options.multiple ? 'integer[]' : 'integer',
    maxLength: 200,
  },
} as const satisfies Record<string, FieldTypeRow>;

/** Field types of SPEC section 3. `relation` covers every typed relation; its target is in `options.target`. */
export type SchemaFieldType = keyof typeof FIELD_TYPE_TABLE;
export const SCHEMA_FIELD_TYPES = Object.keys(FIELD_TYPE_TABLE) as [SchemaFieldType, ...SchemaFieldType[]];

export function isFieldType(type: unknown): type is SchemaFieldType {
  return typeof type === 'string' && Object.hasOwn(FIELD_TYPE_TABLE, type);
}

function rowOf(type: string): FieldTypeRow {
  return isFieldType(type) ? FIELD_TYPE_TABLE[type] : FIELD_TYPE_TABLE.text;
}

/** The kind of value a field of `type` with these options holds (an unknown type holds text). */
export function valueKind(type: string, options: KindOptions = {}, target?: RelationValue): ValueKind {
  const { kind } = rowOf(type);
  return typeof kind === 'function' ? kind(options, target) : kind;
}

/**
 * The limits of a value of `kind` held by a field of `type`: the longest text, or the range of a number;
 * `options.min` / `options.max` over the type's own.
 */
export function valueLimits(
  type: string,
  kind: ValueKind,
  options: { min?: unknown; max?: unknown; step?: unknown; format?: unknown } = {},
): { min?: number; max?: number; step?: number } {
  const row = rowOf(type);
  const given = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const limits =
    kind === 'text'
      ? { max: given(options.max) ?? row.maxLength }
      : kind === 'number' || (kind === 'integer' && row.range)
        ? { min: given(options.min) ?? row.range?.min, max: given(options.max) ?? row.range?.max }
        : {};
  const step =
    kind === 'number' || (kind === 'integer' && row.range)
      ? (given(options.step) ?? (options.format === 'currency' ? 0.01 : undefined))
      : undefined;
  return Object.fromEntries(Object.entries({ ...limits, step }).filter(([, value]) => value !== undefined));
}

/** The formats of a number field (`options.format`): what the value is and how the screens show it. */
export const NUMBER_FORMATS = ['integer', 'decimal', 'currency'] as const;
export type NumberFieldFormat = (typeof NUMBER_FORMATS)[number];

export function fieldTypeLabel(type: SchemaFieldType): string {
  return FIELD_TYPE_TABLE[type].label;
}
