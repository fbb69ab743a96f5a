/**
 * What the screens need to know about one schema field (SPEC section 3), worked out once and without React:
 * its label, whether it is read-only, its choices, what a relation points at, how it sorts, and which list
 * filters it offers (their `source` names follow the list query of docs/api.md: `city_like`, `bid_date_gte`...).
 * The React side (fieldTypes/index.tsx) maps each type to its Input, Field, Column and Filter from this.
 */

import type { NumberFieldFormat, ValueKind } from '../../../common/field-types';
import {
  normaliseChoices,
  type RelationTarget,
  type SchemaField,
  type SchemaFieldOptions,
  type SchemaFieldType,
} from '../../../common/schema-types';
import { relationTarget } from '../../resources/names';
import { fieldTypeUIOf } from './ui';

export interface Choice {
  id: string;
  name: string;
}

export interface ReferenceInfo {
  target: RelationTarget;
  /** react-admin resource of the records (for `value: 'text'`, the resource whose column the values come from). */
  resource: string;
  /** GET /api/options/{options}?q= for text relations. */
  options: string;
  value: 'id' | 'text';
  /** Permission entity to read the target (`site-status`, `user`, `site`). */
  entity: string;
}

export type FilterKind =
  | 'text'
  | 'select'
  | 'boolean'
  | 'date-from'
  | 'date-to'
  | 'number-from'
  | 'number-to'
  | 'reference'
  | 'reference-text'
  | 'has-value';

export interface FilterSpec {
  /** Key in the list filter (and the URL): a field name with an optional operator suffix. */
  source: string;
  kind: FilterKind;
  label: string;
}

/** How a number is entered and shown: text fields typed as numbers (number, money), estimated hours, and number fields' formats. */
export type NumberFormat = 'number' | 'money' | 'hours' | NumberFieldFormat;

export interface FieldDescriptor {
  id: number | string;
  slug: string;
  label: string;
  type: SchemaFieldType;
  required: boolean;
  help?: string;
  /** Shown, never edited in the form (the built-in `attachments` list). */
  readOnly: boolean;
  multiple: boolean;
  choices: Choice[];
  orientation: 'horizontal' | 'vertical';
  reference?: ReferenceInfo;
  /** A text field entered as a number (`options.input`: number or money), or estimated hours. */
  number?: NumberFormat;
  step?: number;
  /** A number's smallest and largest values (`options.min`, `options.max`). */
  min?: number;
  max?: number;
  /** The site contractors list: [{contractor_id, trade_id}]. */
  withTrade: boolean;
  sortable: boolean;
  /** Part of the default list columns (others can be added with the Columns button). */
  listDefault: boolean;
  filters: FilterSpec[];
  /**
   * A computed field (formula): the kind of value it gives (its filters and display follow it) and its value worked
   * out from the form's values as they are typed (null: it cannot be worked out here).
   */
  computed?: { kind: ValueKind; live: ((values: Readonly<Record<string, unknown>>) => unknown) | null };
}

/** A field as its type's describe sees the other fields of its record type. */
export type DescribedField = Pick<SchemaField, 'slug' | 'name' | 'type'> & Partial<SchemaField>;

function relationInfo(target: unknown): ReferenceInfo | undefined {
  const info = relationTarget(target);
  if (!info) return undefined;
  return {
    target: target as RelationTarget,
    resource: info.resource,
    options: info.options,
    value: info.value,
    entity: info.type,
  };
}

function fieldType(field: Pick<SchemaField, 'type'>): SchemaFieldType {
  return (field.type ?? 'text') as SchemaFieldType;
}

/** A field as the screens show it; `all`: the fields of its type (a formula names them; `fields.map(describeField)` gives them). */
export function describeField(
  field: DescribedField,
  _index?: number,
  all?: readonly DescribedField[],
): FieldDescriptor {
  const options = (field.options ?? {}) as Record<string, unknown>;
  const type = fieldType(field);
  const label = field.name || field.slug;
  const multiple = Boolean(options.multiple);
  const withTrade = type === 'relation' && Boolean(options.with_trade);
  const readOnly = Boolean(options.read_only);
  const ui = fieldTypeUIOf(type);
  const reference = relationInfo(type === 'relation' ? options.target : ui.target);
  const number = ui.numberFormat(options as SchemaFieldOptions);
  const given = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const step = given(options.step) ?? (number === 'integer' ? 1 : number === 'currency' ? 0.01 : undefined);
  const choices = normaliseChoices(options.choices).map((choice) => ({ id: choice.value, name: choice.label }));

  const descriptor: FieldDescriptor = {
    id: field.id ?? field.slug,
    slug: field.slug,
    label,
    type,
    required: Boolean(field.required),
    help: typeof options.help === 'string' ? options.help : undefined,
    readOnly,
    multiple,
    choices,
    orientation: options.orientation === 'horizontal' ? 'horizontal' : 'vertical',
    reference,
    number,
    step,
    min: number ? given(options.min) : undefined,
    // A text typed as a number has a longest length, not a largest value.
    max: number && type !== 'text' ? given(options.max) : undefined,
    withTrade,
    sortable: true,
    listDefault: true,
    filters: [],
  };
  const computed = ui.computed?.(options as SchemaFieldOptions, field.slug, all ?? [field]);
  if (computed) descriptor.computed = computed;
  const structured = ui.structured(descriptor);
  descriptor.sortable = !structured && !readOnly;
  descriptor.listDefault = !ui.wide(descriptor) && !structured && !options.hide_in_list;
  descriptor.filters = ui.filters(descriptor);
  return descriptor;
}

/** How many columns a list shows before the person adds more. */
export const DEFAULT_COLUMN_COUNT = 6;

/** Slugs of the columns shown by default: the first fields that make good columns. */
export function defaultColumns(descriptors: readonly FieldDescriptor[], count = DEFAULT_COLUMN_COUNT): string[] {
  return descriptors
    .filter((descriptor) => descriptor.listDefault)
    .slice(0, count)
    .map((descriptor) => descriptor.slug);
}

export { addressLine, choiceLabel, formatNumber, socialNetwork } from './format';
