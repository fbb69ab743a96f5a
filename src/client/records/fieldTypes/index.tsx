/**
 * THE per-field-type table (SPEC section 3): for every field type, its form Input, its display Field, its list
 * Column (react-admin DataTable columns as data) and its list Filters. The generated screens use nothing else,
 * so a new type is added here once. Type options (which relation, which choices, which number format, which
 * filter operators) are worked out in describe.ts.
 */
import type { ComponentType, ReactElement } from 'react';
import type { SchemaFieldType } from '../../../common/schema-types';
import type { FieldDescriptor } from './describe';
import * as Inputs from './inputs';
import * as Displays from './displays';
import { filterElement } from './filters';
import { HeadCountDisplay } from './HeadCountDisplay';

export interface ColumnSpec {
  /** The record key (DataTable `source`; also what the list sorts by). */
  source: string;
  label: string;
  disableSort: boolean;
  descriptor: FieldDescriptor;
}

export interface FieldTypeUI {
  Input: ComponentType<Inputs.InputComponentProps>;
  Field: ComponentType<Displays.DisplayProps>;
  Column: (descriptor: FieldDescriptor) => ColumnSpec;
  Filters: (descriptor: FieldDescriptor) => ReactElement[];
}

const column = (descriptor: FieldDescriptor): ColumnSpec => ({ source: descriptor.slug, label: descriptor.label, disableSort: !descriptor.sortable, descriptor });
const filters = (descriptor: FieldDescriptor) => descriptor.filters.map((spec) => filterElement(descriptor, spec));
const entry = (Input: FieldTypeUI['Input'], Field: FieldTypeUI['Field']): FieldTypeUI => ({ Input, Field, Column: column, Filters: filters });

export const FIELD_TYPES: Readonly<Record<SchemaFieldType, FieldTypeUI>> = {
  text: entry(Inputs.TextFieldInput, Displays.TextDisplay),
  textarea: entry(Inputs.TextareaInput, Displays.LongTextDisplay),
  number: entry(Inputs.NumberFieldInput, Displays.TextDisplay),
  email: entry(Inputs.EmailInput, Displays.EmailDisplay),
  phone: entry(Inputs.PhoneInput, Displays.PhoneDisplay),
  link: entry(Inputs.LinkInput, Displays.LinkDisplay),
  date: entry(Inputs.DateFieldInput, Displays.DateDisplay),
  datetime: entry(Inputs.DateTimeFieldInput, Displays.DateTimeDisplay),
  boolean: entry(Inputs.BooleanFieldInput, Displays.BooleanDisplay),
  dropdown: entry(Inputs.DropdownInput, Displays.ChoiceDisplay),
  color: entry(Inputs.ColorFieldInput, Displays.ColorDisplay),
  note: entry(Inputs.NoteInput, Displays.LongTextDisplay),
  attachment: entry(Inputs.LazyAttachmentInput, Displays.AttachmentDisplay),
  addresses: entry(Inputs.LazyAddressesInput, Displays.AddressesDisplay),
  slug: entry(Inputs.SlugInput, Displays.TextDisplay),
  radios: entry(Inputs.RadiosInput, Displays.ChoiceDisplay),
  'social-link': entry(Inputs.LinkInput, Displays.SocialLinkDisplay),
  'prevailing-wage': entry(Inputs.BooleanFieldInput, Displays.BooleanDisplay),
  'estimated-hours': entry(Inputs.HoursInput, Displays.TextDisplay),
  'head-count': entry(Inputs.LazyHeadCountInput, HeadCountDisplay),
  relation: entry(Inputs.RelationFieldInput, Displays.RelationDisplay),
};

export function fieldTypeUI(type: string): FieldTypeUI {
  return FIELD_TYPES[type as SchemaFieldType] ?? FIELD_TYPES.text;
}

/** The input of a field (nothing for read-only fields). */
export function FieldInput({ descriptor }: Inputs.InputComponentProps) {
  if (descriptor.readOnly) return null;
  const { Input } = fieldTypeUI(descriptor.type);
  return <Input descriptor={descriptor} />;
}

/** The value of a field of the current record. */
export function FieldDisplay({ descriptor, variant }: Displays.DisplayProps) {
  const { Field } = fieldTypeUI(descriptor.type);
  return <Field descriptor={descriptor} variant={variant} />;
}

export { filterElement };
export * from './describe';
