/**
 * Record types (schemas) as the server sends them and the client builds screens from (docs/records.md).
 * Shared by both sides: the field types of SPEC section 3, their options, the logic blocks of SPEC sections
 * 4 and 5, and the relation targets with the options list that feeds each searchable input. The field types
 * themselves are the table of field-types.ts.
 */
import type { RelationValue, SchemaFieldType } from './field-types.js';
import type { LogicMatch, LogicOperator } from './rule-engine/logic-names.js';

export { SCHEMA_FIELD_TYPES, type SchemaFieldType } from './field-types.js';

export const FIELD_CATEGORIES = ['internal', 'importer', 'custom'] as const;
export type FieldCategory = (typeof FIELD_CATEGORIES)[number];

/**
 * What a relation field may point at (`options.target`). `value: 'id'` stores the id (or ids when `multiple`) of
 * a record of `type`, served at /api/{resource}; `value: 'text'` stores a text value: the distinct values of one
 * field of the records of `type` the person may read (the site address parts). `options` is the searchable
 * options list that feeds the input: GET /api/options/{options}?q=.
 */
export interface RelationTargetInfo {
  /** The record type whose records (or values) it points at, and the permission entity to read them. */
  type: string;
  resource: string;
  options: string;
  value: RelationValue;
  /** Text targets: the field whose values they are (`city`), and its name with the type's ('Site city'). */
  field?: string;
  label?: string;
  /** A record type made in the app: its schema, whose records are the rows of `custom_records` with this schema_id. */
  schema_id?: number;
}
/** A relation target's key: a record type (`site`, `site-status`), `user`, `tag`, or a site address part (`site-city`). */
export type RelationTarget = string;

/** Resources every record type points at (its organizer, its tags) that are not record types themselves. */
const SHARED_TARGETS = ['user', 'tag'] as const;

/** What `relationTargets` reads of a record type: a schema as the API sends it, or a file of schemas/. */
export interface RelationSource {
  id?: number;
  type: string;
  name_singular: string;
  resource?: string;
  built_in?: boolean;
  fields: ReadonlyArray<{
    slug: string;
    name: string;
    category?: string;
    column?: boolean;
    options?: Record<string, unknown>;
  }>;
}

/**
 * The relation targets the record types offer, derived from their schemas (the server and the client read the
 * same answer of GET /api/schemas): every record type is a target, those made in the app included, and so is each
 * built-in field whose options name a `text_target` (the site's `city` is `site-city`, its options list
 * `site-cities`).
 */
export function relationTargets(schemas: readonly RelationSource[]): Record<RelationTarget, RelationTargetInfo> {
  const targets: Record<string, RelationTargetInfo> = {};
  for (const type of SHARED_TARGETS)
    targets[type] = { type, resource: pluralizeSlug(type), options: pluralizeSlug(type), value: 'id' };
  for (const schema of schemas) {
    const resource = schema.resource ?? pluralizeSlug(schema.type);
    targets[schema.type] = {
      type: schema.type,
      resource,
      options: resource,
      value: 'id',
      ...(schema.built_in === false && schema.id !== undefined ? { schema_id: schema.id } : {}),
    };
    if (schema.built_in === false) continue;
    for (const field of schema.fields) {
      const target = field.options?.text_target;
      const builtIn = field.column ?? (field.category ?? 'internal') === 'internal';
      if (typeof target !== 'string' || !builtIn) continue;
      targets[target] = {
        type: schema.type,
        resource,
        options: pluralizeSlug(target),
        value: 'text',
        field: field.slug,
        label: `${schema.name_singular} ${field.name.toLowerCase()}`,
      };
    }
  }
  return targets;
}

export interface FieldChoice {
  value: string;
  label: string;
}

/** `options` of a schema field; which keys matter depends on the type. */
export interface SchemaFieldOptions {
  /** dropdown, radios: the allowed values. */
  choices?: FieldChoice[];
  /** radios. */
  orientation?: 'horizontal' | 'vertical';
  /** relation: what it points at (relationTargets). */
  target?: RelationTarget;
  /** text (built-in): other fields may relate to this field's distinct values as this target (`site-city`). */
  text_target?: string;
  /** dropdown: the allowed values are the slugs of this list (`site-types`), which administrators extend. */
  choices_from?: string;
  /** relation, dropdown: several values (an array). */
  multiple?: boolean;
  /** text-like: the longest value; numbers (estimated-hours, text with `input`): the largest. */
  max?: number;
  /** numbers: the smallest. */
  min?: number;
  /** text: typed as a number or an amount of money; the value is a number (a numeric column). */
  input?: 'number' | 'money';
  /** number: a whole number, a decimal or an amount of money (field-types.ts NUMBER_FORMATS). */
  format?: 'integer' | 'decimal' | 'currency';
  /** number: the value is a multiple of the step (0.01 for currency unless given). */
  step?: number;
  /** Shown under the input. */
  help?: string;
  /** text-like custom fields: `search=` finds records by this field's value too (a trigram index is kept). */
  searchable?: boolean;
  /** Not shown in list screens unless the person adds the column. */
  hide_in_list?: boolean;
  [key: string]: unknown;
}

export interface SchemaField {
  id: number;
  schema_id: number;
  slug: string;
  name: string;
  type: SchemaFieldType;
  category: FieldCategory;
  /** category === 'internal': a built-in field of the record type. */
  internal: boolean;
  /** A real column of the table (built in); otherwise the value lives in the record's `custom` JSON. */
  column: boolean;
  required: boolean;
  options: SchemaFieldOptions;
  position: number;
}

export const LOGIC_TRIGGERS = ['always', 'on-change', 'on-load'] as const;
export type LogicTrigger = (typeof LOGIC_TRIGGERS)[number];
export { LOGIC_MATCHES, LOGIC_OPERATORS, type LogicMatch, type LogicOperator } from './rule-engine/logic-names.js';
export const LOGIC_ACTIONS = ['show-field', 'hide-field', 'set-value'] as const;
export type LogicActionKind = (typeof LOGIC_ACTIONS)[number];

export interface LogicCondition {
  id?: number;
  logic_block_id?: number;
  /** `field:{id}` */
  source: string;
  operator: LogicOperator;
  value: string | null;
}

export interface LogicAction {
  id?: number;
  logic_block_id?: number;
  /** `field:{id}` */
  target: string;
  action: LogicActionKind;
  /** set-value: the value given to the field (any JSON value). */
  value?: unknown;
}

export interface LogicBlock {
  id?: number;
  schema_id?: number;
  description?: string | null;
  trigger: LogicTrigger;
  /** How the conditions combine: all must hold (missing: all) or any one. */
  match?: LogicMatch;
  /** The fields this block hides lose their value (off unless chosen: hidden is not erased). */
  clear_hidden?: boolean;
  position?: number;
  conditions: LogicCondition[];
  actions: LogicAction[];
}

/** One record type, as GET /api/schemas?per_page=-1 lists it. */
export interface RecordSchema {
  id: number;
  type: string;
  name_singular: string;
  name_plural: string;
  position: number;
  /** At least one field is not internal (SPEC section 3). */
  custom: boolean;
  /** Shipped with the product (files in schemas/); false for types created in the app. */
  built_in: boolean;
  /** The API path of its records: /api/{resource}. */
  resource: string;
  /** Deleted records can be restored: POST /api/{resource}/{id}/restore. */
  restorable: boolean;
  fields: SchemaField[];
  /** The logic blocks (SPEC calls them actions). */
  actions: LogicBlock[];
  created_at?: string;
  updated_at?: string;
}

/** `field:12` -> 12; anything else -> null. */
export function parseFieldRef(ref: unknown): number | null {
  if (typeof ref !== 'string') return null;
  const match = /^field:(\d{1,10})$/.exec(ref);
  return match ? Number(match[1]) : null;
}

export const fieldRef = (id: number | string) => `field:${id}`;

/** `site-status` -> `site-statuses`, `trade` -> `trades` (the URL of a record type created in the app). */
export function pluralizeSlug(slug: string): string {
  if (/(s|x|z|ch|sh)$/.test(slug)) return `${slug}es`;
  if (/[^aeiou]y$/.test(slug)) return `${slug.slice(0, -1)}ies`;
  return `${slug}s`;
}

/** Dropdown and radio choices, written as strings or {value, label}, always as {value, label}. */
export function normaliseChoices(choices: unknown): FieldChoice[] {
  if (!Array.isArray(choices)) return [];
  return choices
    .map((choice) => {
      if (typeof choice === 'string' || typeof choice === 'number')
        return { value: String(choice), label: String(choice) };
      if (choice && typeof choice === 'object' && 'value' in choice) {
        const value = String((choice as { value: unknown }).value);
        const label = (choice as { label?: unknown }).label;
        return { value, label: typeof label === 'string' && label ? label : value };
      }
      return null;
    })
    .filter((choice): choice is FieldChoice => choice !== null && choice.value !== '');
}
