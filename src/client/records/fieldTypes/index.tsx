/**
 * THE per-field-type table (SPEC section 3): for every field type, its form Input, its display Field, its list
 * Column (react-admin DataTable columns as data) and its list Filters. The generated screens use nothing else,
 * so a new type is added here once. Type options (which relation, which choices, which number format, which
 * filter operators) are worked out in describe.ts.
 */
import type { ComponentType, ReactElement } from 'react';
import type { SchemaFieldType } from '../../../common/schema-types';
import type { FieldDescriptor } from './describe';
import * as Displays from './displays';
import { filterElement } from './filters';
import { HeadCountValue } from './HeadCountDisplay';
import * as Inputs from './inputs';

export interface ColumnSpec {
  /** The record key (DataTable `source`; also what the list sorts by). */
  source: string;
  label: string;
  disableSort: boolean;
  descriptor: FieldDescriptor;
}

export interface FieldTypeUI {
  Input: ComponentType<Inputs.InputComponentProps>;
  /** The value as it reads, from the value itself (list cells: no record context, no hook). */
  Value: Displays.ValueView;
  /** The same for the current record (show pages, cards). */
  Field: ComponentType<Displays.DisplayProps>;
  Column: (descriptor: FieldDescriptor) => ColumnSpec;
  Filters: (descriptor: FieldDescriptor) => ReactElement[];
}

const column = (descriptor: FieldDescriptor): ColumnSpec => ({
  source: descriptor.slug,
  label: descriptor.label,
  disableSort: !descriptor.sortable,
  descriptor,
});
const filters = (descriptor: FieldDescriptor) => descriptor.filters.map((spec) => filterElement(descriptor, spec));
const entry = (Input: FieldTypeUI['Input'], Value: FieldTypeUI['Value']): FieldTypeUI => ({
  Input,
  Value,
  Field: Displays.displayOf(Value),
  Column: column,
  Filters: filters,
});

export const FIELD_TYPES: Readonly<Record<SchemaFieldType, FieldTypeUI>> = {
  text: entry(Inputs.TextFieldInput, Displays.TextValue),
  textarea: entry(Inputs.TextareaInput, Displays.LongTextValue),
  number: entry(Inputs.NumberFieldInput, Displays.TextValue),
  email: entry(Inputs.EmailInput, Displays.EmailValue),
  phone: entry(Inputs.PhoneInput, Displays.PhoneValue),
  link: entry(Inputs.LinkInput, Displays.LinkValue),
  date: entry(Inputs.DateFieldInput, Displays.DateValue),
  datetime: entry(Inputs.DateTimeFieldInput, Displays.DateTimeValue),
  boolean: entry(Inputs.BooleanFieldInput, Displays.BooleanValue),
  dropdown: entry(Inputs.DropdownInput, Displays.ChoiceValue),
  color: entry(Inputs.ColorFieldInput, Displays.ColorValue),
  note: entry(Inputs.NoteInput, Displays.LongTextValue),
  attachment: entry(Inputs.LazyAttachmentInput, Displays.AttachmentValue),
  addresses: entry(Inputs.LazyAddressesInput, Displays.AddressesValue),
  slug: entry(Inputs.SlugInput, Displays.TextValue),
  radios: entry(Inputs.RadiosInput, Displays.ChoiceValue),
  'social-link': entry(Inputs.LinkInput, Displays.SocialLinkValue),
  'prevailing-wage': entry(Inputs.BooleanFieldInput, Displays.BooleanValue),
  'estimated-hours': entry(Inputs.HoursInput, Displays.TextValue),
  'head-count': entry(Inputs.LazyHeadCountInput, HeadCountValue),
  relation: entry(Inputs.RelationFieldInput, Displays.RelationValue),
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

export * from './describe';
export { filterElement };
