/**
 * The columns of a kanban: one per value of the field it is grouped by (a choice's options, a status's or a
 * person's records, any relation's records), plus "None" for records without a value. Each column's records are
 * the list's own with one more filter (`filter[field]=value`, or `field_null` for None).
 */
import { useGetList } from 'react-admin';
import type { FieldDescriptor } from '../../records/fieldTypes';
import { recordLabel } from '../../records/schema';

export interface KanbanColumn {
  /** The value a card in this column has (null: none). */
  value: string | number | null;
  label: string;
  /** The column's filter added to the list's. */
  filter: Record<string, unknown>;
}

/** A card's record. */
export type CardRecord = { id: number | string } & Record<string, unknown>;

/** A column's key: its value, `none` for the column of records without one. */
export const columnKey = (value: KanbanColumn['value']) => (value === null ? 'none' : String(value));

/** At most this many columns of related records (the first by name). */
const MAX_RELATED_COLUMNS = 30;

/** Whether a kanban can be grouped by this field: one choice, or one related record kept by id. */
export function isKanbanField(descriptor: FieldDescriptor): boolean {
  if (descriptor.multiple || descriptor.readOnly || descriptor.computed) return false;
  if (descriptor.choices.length) return true;
  return descriptor.reference?.value === 'id';
}

export function useKanbanColumns(descriptor: FieldDescriptor | undefined): {
  columns: KanbanColumn[];
  isPending: boolean;
} {
  const reference = descriptor?.reference?.value === 'id' && !descriptor.choices.length ? descriptor.reference : null;
  const related = useGetList(
    reference?.resource ?? 'users',
    { pagination: { page: 1, perPage: MAX_RELATED_COLUMNS }, sort: { field: 'id', order: 'ASC' } },
    { enabled: Boolean(reference) },
  );
  if (!descriptor) return { columns: [], isPending: false };
  const none: KanbanColumn = {
    value: null,
    label: `No ${descriptor.label.toLowerCase()}`,
    filter: { [`${descriptor.slug}_null`]: true },
  };
  if (!reference)
    return {
      isPending: false,
      columns: [
        ...descriptor.choices.map((choice) => ({
          value: choice.id,
          label: choice.name,
          filter: { [descriptor.slug]: choice.id },
        })),
        ...(descriptor.required ? [] : [none]),
      ],
    };
  return {
    isPending: related.isPending,
    columns: [
      ...(related.data ?? []).map((record) => ({
        value: record.id as number,
        label: recordLabel(record) || `#${record.id}`,
        filter: { [descriptor.slug]: record.id },
      })),
      ...(descriptor.required ? [] : [none]),
    ],
  };
}
