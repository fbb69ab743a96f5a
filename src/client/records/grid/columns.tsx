/**
 * The grid's columns, made from the field-type table: the header is the field's label, the cell is the type's
 * view of the row's value (fieldTypes `Value`: a function of the value, no record context and no hook per cell;
 * relations by the names the list's answer carries), and its column type follows the kind of value of the type's
 * filters (fieldTypes/describe.ts `filters`). A new field type or record type gets its column with no code here.
 */
import {
  GRID_BOOLEAN_COL_DEF,
  GRID_DATE_COL_DEF,
  GRID_DATETIME_COL_DEF,
  GRID_NUMERIC_COL_DEF,
  GRID_SINGLE_SELECT_COL_DEF,
  GRID_STRING_COL_DEF,
  type GridColDef,
  GridEditSingleSelectCell,
  type GridRenderCellParams,
  type GridRenderEditCellParams,
} from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import { type FieldDescriptor, type FilterKind, fieldTypeUI } from '../fieldTypes';
import type { FilterValueKind } from './gridQuery';

/** The grid filter of a field: the kind of its first filter-bar filter that the grid can express. */
const GRID_FILTER: Partial<Record<FilterKind, (descriptor: FieldDescriptor) => FilterValueKind>> = {
  text: () => 'string',
  'number-from': () => 'number',
  'date-from': (descriptor) => (descriptor.type === 'datetime' ? 'dateTime' : 'date'),
  boolean: () => 'boolean',
  select: () => 'singleSelect',
};

/** A relation to one record, edited in place as a choice among the target's records. */
export const isSingleRelation = (descriptor: FieldDescriptor) =>
  !descriptor.readOnly && fieldTypeUI(descriptor.type).editor(descriptor) === 'relation';

/** How a field's cell edits in place (its type's `editor`), or undefined when it does not (read-only, no choices loaded). */
export function gridEditKind(
  descriptor: FieldDescriptor,
  relationChoices?: readonly unknown[],
): FilterValueKind | undefined {
  if (descriptor.readOnly) return undefined;
  const editor = fieldTypeUI(descriptor.type).editor(descriptor);
  if (editor === 'relation') return relationChoices ? 'singleSelect' : undefined;
  return editor ?? undefined;
}

export function gridFilterKind(descriptor: FieldDescriptor): FilterValueKind | undefined {
  for (const spec of descriptor.filters) {
    const kind = GRID_FILTER[spec.kind]?.(descriptor);
    if (kind) return kind;
  }
  return undefined;
}

const COLUMN_TYPE: Record<FilterValueKind, GridColDef['type']> = {
  string: 'string',
  number: 'number',
  date: 'date',
  dateTime: 'dateTime',
  boolean: 'boolean',
  singleSelect: 'singleSelect',
};

const GRID_COLUMN_DEFAULTS: Record<FilterValueKind, Pick<GridColDef, 'renderEditCell'>> = {
  string: GRID_STRING_COL_DEF,
  number: GRID_NUMERIC_COL_DEF,
  date: GRID_DATE_COL_DEF,
  dateTime: GRID_DATETIME_COL_DEF,
  boolean: GRID_BOOLEAN_COL_DEF,
  singleSelect: GRID_SINGLE_SELECT_COL_DEF,
};

export interface ColumnOptions {
  /** The column whose cell is the link that opens the record. */
  linkField: string | undefined;
  /** Whether the person may edit records of this list. */
  canEdit: boolean;
  /** Whether the person may read the records a relation column points at (asked once per column): its names link to them. */
  readsTarget?: boolean;
  /** The records a single relation may point at (loaded by the grid), as select options. */
  relationChoices?: Array<{ value: unknown; label: string }>;
  /** The server's message for a refused edit of this cell. */
  renderEditError?: (params: GridRenderEditCellParams, input: ReactNode) => ReactNode;
}

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The API's value as the grid's editor holds it (dates as Date objects), and back. */
function toGridValue(kind: FilterValueKind | undefined, value: unknown): unknown {
  if (value === null || value === undefined || value === '')
    return kind === 'date' || kind === 'dateTime' || kind === 'number' ? null : value;
  if (kind === 'date') return new Date(`${String(value).slice(0, 10)}T00:00:00`);
  if (kind === 'dateTime') return new Date(String(value));
  if (kind === 'number') return Number(value);
  return value;
}

function toApiValue(kind: FilterValueKind | undefined, value: unknown): unknown {
  if (value === undefined || value === '' || (value instanceof Date && Number.isNaN(value.getTime()))) return null;
  if (kind === 'date' && value instanceof Date) return isoDay(value);
  if (kind === 'dateTime' && value instanceof Date) return value.toISOString();
  return value;
}

/**
 * The cell's editor: the grid's own for the kind, except that a choice is saved as soon as it is picked (the grid's
 * select otherwise waits for Enter or a click elsewhere, and a picked option looks saved when it is not).
 */
function editor(
  kind: FilterValueKind | undefined,
  params: GridRenderEditCellParams,
  render: NonNullable<GridColDef['renderEditCell']>,
): ReactNode {
  if (kind !== 'singleSelect') return render(params);
  return (
    <GridEditSingleSelectCell
      {...params}
      onValueChange={() => params.api.stopCellEditMode({ id: params.id, field: params.field })}
    />
  );
}

export function gridColumn(
  descriptor: FieldDescriptor,
  { linkField, canEdit, readsTarget = false, renderEditError, relationChoices }: ColumnOptions,
): GridColDef {
  const { Column, Value } = fieldTypeUI(descriptor.type);
  const spec = Column(descriptor);
  const kind = gridFilterKind(descriptor);
  const editKind = descriptor.slug === linkField || !canEdit ? undefined : gridEditKind(descriptor, relationChoices);
  const base = editKind ? GRID_COLUMN_DEFAULTS[editKind] : undefined;
  return {
    field: spec.source,
    headerName: spec.label,
    type: kind ? COLUMN_TYPE[kind] : editKind === 'singleSelect' ? 'singleSelect' : 'string',
    ...(kind === 'singleSelect'
      ? { valueOptions: descriptor.choices.map((choice) => ({ value: choice.id, label: choice.name })) }
      : {}),
    ...(relationChoices && editKind === 'singleSelect'
      ? { valueOptions: [{ value: null, label: '—' }, ...relationChoices] }
      : {}),
    // Sorting and filtering run on the server; values reach the cell as the API gives them.
    valueGetter: (_value, row) => toGridValue(kind, row[spec.source]),
    valueSetter: (value, row) => ({ ...row, [spec.source]: toApiValue(kind, value) }),
    editable: Boolean(editKind),
    ...(base?.renderEditCell && renderEditError
      ? {
          renderEditCell: (params: GridRenderEditCellParams) =>
            renderEditError(params, editor(editKind, params, base.renderEditCell!)),
        }
      : {}),
    sortable: !spec.disableSort,
    filterable: false,
    minWidth: 120,
    flex: 1,
    // A cell that edits in place shows its relation as text: a click there starts the edit, not a page change.
    renderCell: (params: GridRenderCellParams) =>
      Value({
        descriptor,
        value: params.row[spec.source],
        record: params.row,
        variant: 'list',
        link: readsTarget && !editKind,
      }),
  };
}
