/**
 * The grid's columns, made from the field-type table: the header is the field's label, the cell is the type's
 * display (fieldTypes `Field`), and the filter is the one the type offers in the filter bar (fieldTypes/describe.ts
 * `filters`), with the grid operators the list query can answer (gridQuery.ts OPERATORS). A new field type or
 * record type gets its column with no code here.
 */
import { Link as RouterLink } from 'react-router-dom';
import Link from '@mui/material/Link';
import {
  getGridBooleanOperators,
  getGridDateOperators,
  getGridNumericOperators,
  getGridSingleSelectOperators,
  getGridStringOperators,
  type GridColDef,
  type GridFilterOperator,
  type GridRenderCellParams,
} from '@mui/x-data-grid';
import { RecordContextProvider } from 'react-admin';
import { FieldDisplay, fieldTypeUI, type FieldDescriptor, type FilterKind } from '../fieldTypes';
import { OPERATORS, type FilterableColumn, type FilterValueKind } from './gridQuery';

/** The grid filter of a field: the kind of its first filter-bar filter that the grid can express. */
const GRID_FILTER: Partial<Record<FilterKind, (descriptor: FieldDescriptor) => FilterValueKind>> = {
  text: () => 'string',
  'number-from': () => 'number',
  'date-from': (descriptor) => (descriptor.type === 'datetime' ? 'dateTime' : 'date'),
  boolean: () => 'boolean',
  select: () => 'singleSelect',
};

export function gridFilterKind(descriptor: FieldDescriptor): FilterValueKind | undefined {
  for (const spec of descriptor.filters) {
    const kind = GRID_FILTER[spec.kind]?.(descriptor);
    if (kind) return kind;
  }
  return undefined;
}

const GRID_OPERATORS: Record<FilterValueKind, () => GridFilterOperator[]> = {
  string: () => getGridStringOperators() as GridFilterOperator[],
  number: () => getGridNumericOperators() as GridFilterOperator[],
  date: () => getGridDateOperators() as GridFilterOperator[],
  dateTime: () => getGridDateOperators(true) as GridFilterOperator[],
  boolean: () => getGridBooleanOperators() as GridFilterOperator[],
  singleSelect: () => getGridSingleSelectOperators(),
};

const COLUMN_TYPE: Record<FilterValueKind, GridColDef['type']> = {
  string: 'string',
  number: 'number',
  date: 'date',
  dateTime: 'dateTime',
  boolean: 'boolean',
  singleSelect: 'singleSelect',
};

/** The columns the grid can filter by, for the model <-> query mapping. */
export function filterableColumns(descriptors: readonly FieldDescriptor[]): FilterableColumn[] {
  return descriptors.flatMap((descriptor) => {
    const kind = gridFilterKind(descriptor);
    return kind ? [{ field: descriptor.slug, kind }] : [];
  });
}

function Cell({ descriptor, row }: { descriptor: FieldDescriptor; row: Record<string, unknown> }) {
  return (
    <RecordContextProvider value={row as never}>
      <FieldDisplay descriptor={descriptor} variant="list" />
    </RecordContextProvider>
  );
}

/** The path that opens a record (its show page). */
export const recordPath = (resource: string, id: unknown) => `/${resource}/${encodeURIComponent(String(id))}/show`;

export interface ColumnOptions {
  resource: string;
  /** The column whose cell is the link that opens the record. */
  linkField: string | undefined;
}

export function gridColumn(descriptor: FieldDescriptor, { resource, linkField }: ColumnOptions): GridColDef {
  const spec = fieldTypeUI(descriptor.type).Column(descriptor);
  const kind = gridFilterKind(descriptor);
  const render = (params: GridRenderCellParams) => {
    const cell = <Cell descriptor={descriptor} row={params.row} />;
    if (descriptor.slug !== linkField) return cell;
    const empty = params.value === null || params.value === undefined || params.value === '';
    return (
      <Link component={RouterLink} to={recordPath(resource, params.id)} tabIndex={params.tabIndex} underline="hover" onClick={(event) => event.stopPropagation()}>
        {empty ? `#${String(params.id)}` : cell}
      </Link>
    );
  };
  const operators = kind ? GRID_OPERATORS[kind]().filter((operator) => OPERATORS[kind].includes(operator.value)) : [];
  return {
    field: spec.source,
    headerName: spec.label,
    type: kind ? COLUMN_TYPE[kind] : 'string',
    ...(kind === 'singleSelect' ? { valueOptions: descriptor.choices.map((choice) => ({ value: choice.id, label: choice.name })) } : {}),
    // Sorting and filtering run on the server; values reach the cell as the API gives them.
    valueGetter: (_value, row) => row[spec.source],
    sortable: !spec.disableSort,
    filterable: operators.length > 0,
    filterOperators: operators,
    minWidth: 120,
    flex: 1,
    renderCell: render,
  };
}
