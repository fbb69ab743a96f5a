/**
 * A record list as a data grid (@mui/x-data-grid, MIT) inside react-admin's list controller: the grid's sort,
 * filter and page models are the controller's state (gridQuery.ts), so the data provider asks the API for one
 * page; rows selected in the grid are the controller's selection, which the bulk actions act on. The row's first
 * column is the link that opens the record (Enter on its cell opens it too).
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import {
  DataGrid,
  type GridCellParams,
  type GridColumnVisibilityModel,
  type GridDensity,
  type GridFilterModel,
  type GridRowSelectionModel,
  type MuiEvent,
  useGridApiRef,
} from '@mui/x-data-grid';
import { BulkActionsToolbar, useListContext, useTranslate, type Identifier } from 'react-admin';
import type { FieldDescriptor } from '../fieldTypes';
import { defaultColumns } from '../fieldTypes';
import { filterableColumns, gridColumn, recordPath } from './columns';
import {
  displayedRows,
  filterModelToFilterValues,
  filterValuesToFilterModel,
  listSortToSortModel,
  listToPaginationModel,
  paginationModelToList,
  PER_PAGE_CHOICES,
  sortModelToListSort,
  type GridFilterModelLike,
} from './gridQuery';
import { useGridPreferences, visibilityModel } from './preferences';
import { useCellEditing } from './useCellEditing';
import { useRelationChoices } from './useRelationChoices';
import type { RecordSchema } from '../schema';

export interface RecordGridProps {
  schema: RecordSchema;
  descriptors: FieldDescriptor[];
  bulkActionButtons?: ReactNode;
}

/**
 * The grid's filter model, kept while the person edits it in the panel (an item without a value yet asks the API
 * nothing) and set again from the list's filter values when they change elsewhere (filter bar, URL).
 */
function useFilterModel(columns: ReturnType<typeof filterableColumns>) {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const [model, setModel] = useState<GridFilterModelLike>(() => filterValuesToFilterModel(filterValues, columns));
  useEffect(() => {
    setModel((current) => {
      const mapped = filterModelToFilterValues(current, filterValues, columns);
      return JSON.stringify(mapped) === JSON.stringify(filterValues ?? {}) ? current : filterValuesToFilterModel(filterValues, columns);
    });
  }, [filterValues, columns]);
  const onChange = useCallback(
    (next: GridFilterModel) => {
      setModel(next as GridFilterModelLike);
      const values = filterModelToFilterValues(next as GridFilterModelLike, filterValues, columns);
      if (JSON.stringify(values) !== JSON.stringify(filterValues ?? {})) setFilters(values, displayedFilters);
    },
    [filterValues, columns, setFilters, displayedFilters],
  );
  return [model as GridFilterModel, onChange] as const;
}

export default function RecordGrid({ schema, descriptors, bulkActionButtons }: RecordGridProps) {
  const resource = schema.resource;
  const { data, total, isPending, isFetching, page, perPage, setPage, setPerPage, sort, setSort, selectedIds, onSelect } = useListContext();
  const translate = useTranslate();
  const navigate = useNavigate();
  const defaults = useMemo(() => defaultColumns(descriptors), [descriptors]);
  const linkField = defaults[0] ?? descriptors[0]?.slug;
  const [preferences, setPreferences] = useGridPreferences(resource);
  const apiRef = useGridApiRef();
  const { canEdit, isCellEditable, processRowUpdate, renderEditError, conflict } = useCellEditing(schema, apiRef);
  const relationChoices = useRelationChoices(descriptors, canEdit);
  const widths = preferences.widths;
  const columns = useMemo(
    () =>
      descriptors.map((descriptor) => {
        const column = gridColumn(descriptor, { resource, linkField, canEdit, renderEditError, relationChoices: relationChoices[descriptor.slug] });
        const width = widths?.[descriptor.slug];
        return width ? { ...column, width, flex: undefined } : column;
      }),
    [descriptors, resource, linkField, widths, canEdit, renderEditError, relationChoices],
  );
  const filterable = useMemo(() => filterableColumns(descriptors), [descriptors]);
  const [filterModel, onFilterModelChange] = useFilterModel(filterable);
  const columnVisibility = useMemo(() => visibilityModel(descriptors, defaults, preferences), [descriptors, defaults, preferences]);

  const rows = data ?? [];
  const count = total ?? 0;
  const selection = useMemo<GridRowSelectionModel>(() => ({ type: 'include', ids: new Set(selectedIds) }), [selectedIds]);
  const onSelectionChange = (model: GridRowSelectionModel) => {
    const ids: Identifier[] = model.type === 'include' ? [...model.ids] as Identifier[] : rows.map((row) => row.id).filter((id) => !model.ids.has(id));
    onSelect(ids);
  };
  const onCellKeyDown = (params: GridCellParams, event: MuiEvent<React.KeyboardEvent>) => {
    if (event.key === 'Enter' && params.field === linkField && params.cellMode === 'view') {
      event.defaultMuiPrevented = true;
      navigate(recordPath(resource, params.id));
    }
  };
  const shown = displayedRows(page, perPage, count);

  return (
    <Box sx={{ width: '100%', minWidth: 0 }}>
      {bulkActionButtons ? <BulkActionsToolbar>{bulkActionButtons}</BulkActionsToolbar> : null}
      {conflict}
      <DataGrid
        apiRef={apiRef}
        isCellEditable={isCellEditable}
        processRowUpdate={processRowUpdate}
        onProcessRowUpdateError={() => undefined}
        aria-label={translate(`resources.${resource}.name`, { smart_count: 2, _: resource })}
        rows={rows}
        columns={columns}
        rowCount={count}
        loading={isPending || (isFetching && rows.length === 0)}
        paginationMode="server"
        sortingMode="server"
        filterMode="server"
        paginationModel={listToPaginationModel(page, perPage)}
        onPaginationModelChange={(model) => {
          const next = paginationModelToList(model);
          if (next.perPage !== perPage) setPerPage(next.perPage);
          else if (next.page !== page) setPage(next.page);
        }}
        pageSizeOptions={PER_PAGE_CHOICES}
        sortModel={listSortToSortModel(sort)}
        onSortModelChange={(model) => setSort(sortModelToListSort(model))}
        filterModel={filterModel}
        onFilterModelChange={onFilterModelChange}
        checkboxSelection={Boolean(bulkActionButtons)}
        disableRowSelectionOnClick
        keepNonExistentRowsSelected
        rowSelectionModel={selection}
        onRowSelectionModelChange={onSelectionChange}
        columnVisibilityModel={columnVisibility}
        onColumnVisibilityModelChange={(model: GridColumnVisibilityModel) => setPreferences({ ...preferences, visible: Object.keys(model).length ? descriptors.map((d) => d.slug).filter((slug) => model[slug] !== false) : undefined })}
        onColumnWidthChange={(params) => setPreferences({ ...preferences, widths: { ...preferences.widths, [params.colDef.field]: Math.round(params.width) } })}
        density={preferences.density ?? 'standard'}
        onDensityChange={(density: GridDensity) => setPreferences({ ...preferences, density })}
        onCellKeyDown={onCellKeyDown}
        showToolbar
        slotProps={{ toolbar: { showQuickFilter: false, csvOptions: { disableToolbarButton: true }, printOptions: { disableToolbarButton: true } } }}
        localeText={{ paginationDisplayedRows: () => translate('ra.navigation.page_range_info', { offsetBegin: shown.from, offsetEnd: shown.to, total: shown.total }) }}
        sx={{ border: 0, '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' } }}
      />
    </Box>
  );
}
