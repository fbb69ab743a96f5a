/**
 * What a field type is made of on screen (docs/client-records.md "The field type table"): one module per type in
 * this folder, beside the type's common module (src/common/field-types/). The generated screens ask these and nothing
 * else: the form's input, the value as it reads (list cells, show pages, cards), the filters of the list, how a grid
 * cell edits it in place, how the history writes it.
 */
import type { ComponentType } from 'react';
import type { RelationTarget, SchemaFieldOptions, SchemaFieldType } from '../../../../common/schema-types';
import type { FilterValueKind } from '../../grid/gridQuery';
import type { DescribedField, FieldDescriptor, FilterSpec, NumberFormat } from '../describe';
import type { ValueView } from '../displays';
import type { InputComponentProps } from '../inputs';
import type { OptionsEditorProps } from './options/props';

/** How a grid cell edits a value in place: with the grid's editor of that kind, or a choice of the related records. */
export type CellEditor = FilterValueKind | 'relation';

export interface FieldTypeUI {
  type: SchemaFieldType;
  /** What its values point at when it is not a relation choosing its target (a person: `user`). */
  target?: RelationTarget;
  /** The record form's input. */
  Input: ComponentType<InputComponentProps>;
  /** The value as it reads, a plain function of the value and its record (list cells: no record context, no hook). */
  Value: ValueView;
  /** The list's filters (the filter bar; their sources follow the list query, docs/api.md). */
  filters(descriptor: FieldDescriptor): FilterSpec[];
  /** How a grid cell edits it in place; null: the cell opens the record's form. */
  editor(descriptor: FieldDescriptor): CellEditor | null;
  /** One value (not a list) as the history writes it. */
  history(value: unknown, descriptor: FieldDescriptor): string;
  /** The form and the details give it both columns. */
  wide(descriptor: FieldDescriptor): boolean;
  /** Holds a list or a structure: no sort, not a default column. */
  structured(descriptor: FieldDescriptor): boolean;
  /** How its numbers are typed and shown, when it holds one. */
  numberFormat(options: SchemaFieldOptions): NumberFormat | undefined;
  /** The schema editor's editor of its own options (choices, what it points at, a format); null: it has none. */
  Options: ComponentType<OptionsEditorProps> | null;
  /** Computed types (formula): what the value is and how the form works it out (FieldDescriptor `computed`). */
  computed?(
    options: SchemaFieldOptions,
    self: string,
    fields: readonly DescribedField[],
  ): FieldDescriptor['computed'] | undefined;
}

export const plainHistory = (value: unknown) => String(value);
export const never = () => false;
export const always = () => true;
export const noNumber = () => undefined;
