/**
 * THE field types (SPEC section 3): the list of the modules of `field-types/`, one per type. Each module says
 * everything about its type that does not draw on screens (`field-types/define.ts`): its options, the kind of value it
 * holds, its checks, its import and export cells, its filter operators with their SQL, its sort and indexes, its words;
 * the client's table (`client/records/fieldTypes/ui/`) has one module per type for the screens. Adding a type is
 * adding its two modules and listing them here and there (tests/unit/field-type-modules.test.ts checks both lists).
 */
import { addresses } from './field-types/addresses.js';
import { attachment } from './field-types/attachment.js';
import { autonumber } from './field-types/autonumber.js';
import { boolean } from './field-types/boolean.js';
import { color } from './field-types/color.js';
import { createdAt } from './field-types/created-at.js';
import { createdBy } from './field-types/created-by.js';
import { date } from './field-types/date.js';
import { datetime } from './field-types/datetime.js';
import type { FieldSpec, FieldTypeModule, RelationValue, ValueKind } from './field-types/define.js';
import { dropdown } from './field-types/dropdown.js';
import { email } from './field-types/email.js';
import { estimatedHours } from './field-types/estimated-hours.js';
import { formula } from './field-types/formula.js';
import { geoPoint } from './field-types/geo-point.js';
import { headCount } from './field-types/head-count.js';
import { json } from './field-types/json.js';
import { link } from './field-types/link.js';
import { lookup } from './field-types/lookup.js';
import { note } from './field-types/note.js';
import { number } from './field-types/number.js';
import { person } from './field-types/person.js';
import { phone } from './field-types/phone.js';
import { prevailingWage } from './field-types/prevailing-wage.js';
import { radios } from './field-types/radios.js';
import { rating } from './field-types/rating.js';
import { relation } from './field-types/relation.js';
import { richText } from './field-types/rich-text.js';
import { rollup } from './field-types/rollup.js';
import { slug } from './field-types/slug.js';
import { socialLink } from './field-types/social-link.js';
import { text } from './field-types/text.js';
import { textarea } from './field-types/textarea.js';
import { updatedAt } from './field-types/updated-at.js';
import { updatedBy } from './field-types/updated-by.js';

export type {
  FieldSpec,
  FieldTypeModule,
  FilterOperator,
  FilterOperators,
  PivotStorage,
  RelationValue,
  SiblingField,
  ValidationOption,
  ValueKind,
} from './field-types/define.js';
export { type FieldForFormula, formulaCheck, formulaPreview } from './field-types/formula.js';
export { NUMBER_FORMATS, type NumberFieldFormat } from './field-types/number.js';

/** Every field type, by its name in schemas; the order is the schema editor's. */
export const FIELD_TYPE_MODULES = {
  text,
  textarea,
  number,
  email,
  phone,
  link,
  date,
  datetime,
  boolean,
  dropdown,
  color,
  note,
  attachment,
  addresses,
  slug,
  radios,
  'social-link': socialLink,
  'prevailing-wage': prevailingWage,
  'estimated-hours': estimatedHours,
  'head-count': headCount,
  relation,
  rating,
  json,
  'rich-text': richText,
  person,
  autonumber,
  'created-at': createdAt,
  'updated-at': updatedAt,
  'created-by': createdBy,
  'updated-by': updatedBy,
  'geo-point': geoPoint,
  formula,
  lookup,
  rollup,
} as const satisfies Record<string, FieldTypeModule<Record<string, unknown>>>;

/** Field types of SPEC section 3. `relation` covers every typed relation; its target is in `options.target`. */
export type SchemaFieldType = keyof typeof FIELD_TYPE_MODULES;
export const SCHEMA_FIELD_TYPES = Object.keys(FIELD_TYPE_MODULES) as [SchemaFieldType, ...SchemaFieldType[]];

export function isFieldType(type: unknown): type is SchemaFieldType {
  return typeof type === 'string' && Object.hasOwn(FIELD_TYPE_MODULES, type);
}

/** The module of a field type (an unknown type is text). */
export function fieldTypeModule(type: string): FieldTypeModule {
  return (isFieldType(type) ? FIELD_TYPE_MODULES[type] : FIELD_TYPE_MODULES.text) as FieldTypeModule;
}

/** The field type whose values a field a resource describes itself (no schema type) holds, by its kind. */
const TYPE_OF_KIND: Record<ValueKind, SchemaFieldType> = {
  text: 'text',
  email: 'email',
  phone: 'phone',
  url: 'link',
  color: 'color',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  date: 'date',
  datetime: 'datetime',
  enum: 'dropdown',
  'enum[]': 'dropdown',
  'integer[]': 'relation',
  json: 'addresses',
};

/** The module that filters, sorts, imports and exports a field: its schema type's, or that of its kind. */
export function moduleOfSpec(spec: Pick<FieldSpec, 'type' | 'kind' | 'references'>): FieldTypeModule {
  if (spec.type) return fieldTypeModule(spec.type);
  if (spec.kind === 'integer' && spec.references) return FIELD_TYPE_MODULES.relation as FieldTypeModule;
  return fieldTypeModule(TYPE_OF_KIND[spec.kind]);
}

/** The kind of value a field of `type` with these options holds (an unknown type holds text). */
export function valueKind(type: string, options: Record<string, unknown> = {}, target?: RelationValue): ValueKind {
  return fieldTypeModule(type).kind(options, target);
}

/** The option keys a field type takes (its strict options object's). */
export function optionKeys(type: string): string[] {
  const schema = fieldTypeModule(type).options as unknown as { _zod: { def: { shape?: Record<string, unknown> } } };
  return Object.keys(schema._zod.def.shape ?? {});
}

/** The options of another type that a field of `type` takes (a field changing type keeps those). */
export function optionsKeptBy(type: string, options: Record<string, unknown> | null | undefined) {
  const keys = optionKeys(type);
  return Object.fromEntries(Object.entries(options ?? {}).filter(([key]) => keys.includes(key)));
}

export function fieldTypeLabel(type: SchemaFieldType): string {
  return FIELD_TYPE_MODULES[type].label;
}
