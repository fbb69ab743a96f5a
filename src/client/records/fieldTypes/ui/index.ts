/** The client's field-type modules, one per type of the common list (src/common/field-types.ts). */
import type { SchemaFieldType } from '../../../../common/schema-types';
import { addresses } from './addresses';
import { attachment } from './attachment';
import { autonumber } from './autonumber';
import { boolean } from './boolean';
import { color } from './color';
import { date } from './date';
import { datetime } from './datetime';
import type { FieldTypeUI } from './define';
import { dropdown } from './dropdown';
import { email } from './email';
import { estimatedHours } from './estimated-hours';
import { formula } from './formula';
import { geoPoint } from './geo-point';
import { headCount } from './head-count';
import { json } from './json';
import { link } from './link';
import { lookup } from './lookup';
import { note } from './note';
import { number } from './number';
import { person } from './person';
import { phone } from './phone';
import { prevailingWage } from './prevailing-wage';
import { radios } from './radios';
import { rating } from './rating';
import { createdAt, createdBy, updatedAt, updatedBy } from './record-stamps';
import { relation } from './relation';
import { richText } from './rich-text';
import { rollup } from './rollup';
import { slug } from './slug';
import { socialLink } from './social-link';
import { text } from './text';
import { textarea } from './textarea';

export type { CellEditor, FieldTypeUI } from './define';

export const FIELD_TYPE_UIS: Readonly<Record<SchemaFieldType, FieldTypeUI>> = {
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
};

/** The screens of a field type (an unknown type reads as text). */
export function fieldTypeUIOf(type: string): FieldTypeUI {
  return FIELD_TYPE_UIS[type as SchemaFieldType] ?? FIELD_TYPE_UIS.text;
}
