/**
 * What the screens need to know about one schema field (SPEC section 3), worked out once and without React:
 * its label, whether it is read-only, its choices, what a relation points at, how it sorts, and which list
 * filters it offers (their `source` names follow the list query of docs/api.md: `city_like`, `bid_date_gte`...).
 * The React side (fieldTypes/index.tsx) maps each type to its Input, Field, Column and Filter from this.
 */

import { NUMBER_FORMATS, type NumberFieldFormat } from '../../../common/field-types';
import {
  normaliseChoices,
  type RelationTarget,
  type SchemaField,
  type SchemaFieldType,
} from '../../../common/schema-types';
import { relationTarget } from '../../resources/names';

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
}

const TEXT_LIKE = new Set<SchemaFieldType>([
  'text',
  'textarea',
  'email',
  'phone',
  'link',
  'social-link',
  'slug',
  'note',
  'color',
  'addresses',
]);
/** Types that make poor default columns (long or structured values). */
const NOT_DEFAULT_COLUMNS = new Set<SchemaFieldType>(['textarea', 'note', 'addresses', 'attachment']);

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

export function describeField(
  field: Pick<SchemaField, 'slug' | 'name' | 'type'> & Partial<SchemaField>,
): FieldDescriptor {
  const options = (field.options ?? {}) as Record<string, unknown>;
  const type = fieldType(field);
  const label = field.name || field.slug;
  const multiple = Boolean(options.multiple);
  const withTrade = type === 'relation' && Boolean(options.with_trade);
  const readOnly = Boolean(options.read_only);
  const reference = type === 'relation' ? relationInfo(options.target) : undefined;
  const input = typeof options.input === 'string' ? options.input : undefined;
  const format = (NUMBER_FORMATS as readonly unknown[]).includes(options.format)
    ? (options.format as NumberFieldFormat)
    : 'decimal';
  const number: NumberFormat | undefined =
    type === 'number'
      ? format
      : type === 'estimated-hours'
        ? 'hours'
        : type === 'text' && input === 'money'
          ? 'money'
          : type === 'text' && input === 'number'
            ? 'number'
            : undefined;
  const given = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const step = given(options.step) ?? (number === 'integer' ? 1 : number === 'currency' ? 0.01 : undefined);
  const choices = normaliseChoices(options.choices).map((choice) => ({ id: choice.value, name: choice.label }));

  const filters: FilterSpec[] = [];
  const slug = field.slug;
  if (withTrade) {
    filters.push({ source: 'contractor_ids', kind: 'reference', label });
  } else if (number) {
    filters.push(
      { source: `${slug}_gte`, kind: 'number-from', label: `${label} from` },
      { source: `${slug}_lte`, kind: 'number-to', label: `${label} to` },
    );
  } else if (TEXT_LIKE.has(type)) {
    filters.push({ source: `${slug}_like`, kind: 'text', label });
  } else if (type === 'date' || type === 'datetime') {
    filters.push(
      { source: `${slug}_gte`, kind: 'date-from', label: `${label} from` },
      { source: `${slug}_lte`, kind: 'date-to', label: `${label} to` },
    );
  } else if (type === 'boolean' || type === 'prevailing-wage') {
    filters.push({ source: slug, kind: 'boolean', label });
  } else if (type === 'dropdown' || type === 'radios') {
    filters.push({ source: slug, kind: 'select', label });
  } else if (type === 'attachment') {
    if (!readOnly) filters.push({ source: `${slug}_null`, kind: 'has-value', label });
  } else if (type === 'relation' && reference) {
    filters.push({ source: slug, kind: reference.value === 'text' ? 'reference-text' : 'reference', label });
  }

  const structured =
    type === 'addresses' ||
    type === 'attachment' ||
    type === 'head-count' ||
    withTrade ||
    (type === 'relation' && multiple) ||
    (type === 'dropdown' && multiple);
  return {
    id: field.id ?? slug,
    slug,
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
    max: type === 'number' ? given(options.max) : undefined,
    withTrade,
    sortable: !structured && !readOnly,
    listDefault: !NOT_DEFAULT_COLUMNS.has(type) && !structured && !options.hide_in_list,
    filters,
  };
}

/** The label of a choice value ('non-union' -> 'Non-Union'); the value itself when unknown. */
export function choiceLabel(descriptor: Pick<FieldDescriptor, 'choices'>, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const found = descriptor.choices.find((choice) => choice.id === String(value));
  return found ? found.name : String(value);
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

/** Formats a number for display: money as dollars, hours with an 'h', others with grouping. */
export function formatNumber(value: unknown, format: NumberFormat = 'number'): string {
  if (value === null || value === undefined || value === '') return '';
  const number = Number(value);
  if (!Number.isFinite(number)) return String(value);
  if (format === 'money')
    return number.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
  if (format === 'currency') return number.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  if (format === 'integer') return number.toLocaleString('en-US', { maximumFractionDigits: 0 });
  if (format === 'hours') return `${number.toLocaleString('en-US', { maximumFractionDigits: 2 })} h`;
  return number.toLocaleString('en-US', { maximumFractionDigits: 6 });
}

/** The network a social link points at, for its icon and label ('https://twitter.com/x' -> 'twitter'). */
export function socialNetwork(url: unknown): string | null {
  if (typeof url !== 'string' || !url) return null;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
  const networks: Array<[RegExp, string]> = [
    [/(^|\.)facebook\.com$|(^|\.)fb\.com$/, 'facebook'],
    [/(^|\.)twitter\.com$|(^|\.)x\.com$/, 'twitter'],
    [/(^|\.)instagram\.com$/, 'instagram'],
    [/(^|\.)linkedin\.com$/, 'linkedin'],
    [/(^|\.)youtube\.com$|(^|\.)youtu\.be$/, 'youtube'],
    [/(^|\.)tiktok\.com$/, 'tiktok'],
  ];
  for (const [pattern, name] of networks) if (pattern.test(host)) return name;
  return host;
}

/** One address as one line: '291 Main St, Los Angeles, CA 90026'. */
export function addressLine(address: Record<string, unknown> | null | undefined): string {
  if (!address) return '';
  const text = (key: string) => (typeof address[key] === 'string' ? (address[key] as string).trim() : '');
  const statePostal = [text('state'), text('postal_code')].filter(Boolean).join(' ');
  return [text('street'), text('city'), statePostal].filter(Boolean).join(', ');
}
