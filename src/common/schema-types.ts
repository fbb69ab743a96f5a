/**
 * Record types (schemas) as the server sends them and the client builds screens from (docs/records.md).
 * Shared by both sides: the field types of SPEC section 3, their options, the logic blocks of SPEC sections
 * 4 and 5, and the relation targets with the options list that feeds each searchable input.
 */
import type { LogicMatch, LogicOperator } from './rule-engine/form-operators.js';

/** Field types of SPEC section 3. `relation` covers every typed relation; its target is in `options.target`. */
export const SCHEMA_FIELD_TYPES = [
  'text',
  'textarea',
  'email',
  'phone',
  'link',
  'date',
  'datetime',
  'boolean',
  'dropdown',
  'color',
  'note',
  'attachment',
  'addresses',
  'slug',
  'radios',
  'social-link',
  'prevailing-wage',
  'estimated-hours',
  'relation',
] as const;
export type SchemaFieldType = (typeof SCHEMA_FIELD_TYPES)[number];

export const FIELD_CATEGORIES = ['internal', 'importer', 'custom'] as const;
export type FieldCategory = (typeof FIELD_CATEGORIES)[number];

/**
 * What a relation field may point at. `value: 'id'` stores the id (or ids when `multiple`) of a record of
 * `resource`; `value: 'text'` stores a text value (site address parts: the distinct values of that column of
 * the sites the person may read). `options` is the path of the searchable options list: GET /api/options/{options}?q=.
 */
export const RELATION_TARGETS = {
  site: { resource: 'sites', options: 'sites', value: 'id' },
  contractor: { resource: 'contractors', options: 'contractors', value: 'id' },
  member: { resource: 'members', options: 'members', value: 'id' },
  grievance: { resource: 'grievances', options: 'grievances', value: 'id' },
  contact: { resource: 'contacts', options: 'contacts', value: 'id' },
  trade: { resource: 'trades', options: 'trades', value: 'id' },
  union: { resource: 'unions', options: 'unions', value: 'id' },
  classification: { resource: 'classifications', options: 'classifications', value: 'id' },
  'classification-type': { resource: 'classification-types', options: 'classification-types', value: 'id' },
  region: { resource: 'regions', options: 'regions', value: 'id' },
  'building-type': { resource: 'building-types', options: 'building-types', value: 'id' },
  'dispatch-type': { resource: 'dispatch-types', options: 'dispatch-types', value: 'id' },
  'site-phase': { resource: 'site-phases', options: 'site-phases', value: 'id' },
  'site-status': { resource: 'site-statuses', options: 'site-statuses', value: 'id' },
  recruit: { resource: 'recruits', options: 'recruits', value: 'id' },
  team: { resource: 'teams', options: 'teams', value: 'id' },
  user: { resource: 'users', options: 'users', value: 'id' },
  tag: { resource: 'tags', options: 'tags', value: 'id' },
  'site-street': { resource: 'sites', options: 'site-streets', value: 'text' },
  'site-city': { resource: 'sites', options: 'site-cities', value: 'text' },
  'site-county': { resource: 'sites', options: 'site-counties', value: 'text' },
  'site-state': { resource: 'sites', options: 'site-states', value: 'text' },
  'site-postal-code': { resource: 'sites', options: 'site-postal-codes', value: 'text' },
} as const satisfies Record<string, { resource: string; options: string; value: 'id' | 'text' }>;
export type RelationTarget = keyof typeof RELATION_TARGETS;

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
  /** relation: what it points at. */
  target?: RelationTarget;
  /** relation, dropdown: several values (an array). */
  multiple?: boolean;
  /** text-like: the longest value; estimated-hours: the largest number. */
  max?: number;
  /** Shown under the input. */
  help?: string;
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
export { LOGIC_MATCHES, LOGIC_OPERATORS, type LogicMatch, type LogicOperator } from './rule-engine/form-operators.js';
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
      if (typeof choice === 'string' || typeof choice === 'number') return { value: String(choice), label: String(choice) };
      if (choice && typeof choice === 'object' && 'value' in choice) {
        const value = String((choice as { value: unknown }).value);
        const label = (choice as { label?: unknown }).label;
        return { value, label: typeof label === 'string' && label ? label : value };
      }
      return null;
    })
    .filter((choice): choice is FieldChoice => choice !== null && choice.value !== '');
}
