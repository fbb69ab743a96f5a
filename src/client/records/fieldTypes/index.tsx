/**
 * THE per-field-type table (SPEC section 3): every field type's module (`ui/`: its form Input, its view, its filters,
 * its in-place editor, its history) with its display Field and its list Column; its filters (describe.ts) give the
 * grid column's kind of value and the map's filters, and the filter builder's operators follow its kind (views/filterBuilder.ts). The generated
 * screens use nothing else; a new type is a new module in `ui/`. Type options (which relation, which choices, which
 * number format) are worked out in describe.ts.
 */
import type { ComponentType } from 'react';
import type { SchemaFieldType } from '../../../common/schema-types';
import type { FieldDescriptor } from './describe';
import * as Displays from './displays';
import type * as Inputs from './inputs';
import { FIELD_TYPE_UIS, type FieldTypeUI as FieldTypeModuleUI } from './ui';

export interface ColumnSpec {
  /** The record key (DataTable `source`; also what the list sorts by). */
  source: string;
  label: string;
  disableSort: boolean;
  descriptor: FieldDescriptor;
}

export interface FieldTypeUI extends FieldTypeModuleUI {
  /** The value of the current record (show pages, cards): the module's view in a record context. */
  Field: ComponentType<Displays.DisplayProps>;
  Column: (descriptor: FieldDescriptor) => ColumnSpec;
}

const column = (descriptor: FieldDescriptor): ColumnSpec => ({
  source: descriptor.slug,
  label: descriptor.label,
  disableSort: !descriptor.sortable,
  descriptor,
});

/** Each type's screens as the generated pages use them: its module's input and view, and its column. */
export const FIELD_TYPES: Readonly<Record<SchemaFieldType, FieldTypeUI>> = Object.fromEntries(
  Object.entries(FIELD_TYPE_UIS).map(([type, ui]) => [
    type,
    { ...ui, Field: Displays.displayOf(ui.Value), Column: column },
  ]),
) as Record<SchemaFieldType, FieldTypeUI>;

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
