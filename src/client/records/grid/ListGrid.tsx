/**
 * A list as a data grid (@mui/x-data-grid, MIT) inside react-admin's list controller: the grid's sort and page
 * models are the controller's state (gridQuery.ts), so the data provider asks the API for one page; rows selected
 * in the grid are the controller's selection, which the bulk actions act on; each person's columns (shown, order,
 * widths, density) are kept with them (preferences.ts; the column menu moves a column left or right). The link column's cell opens the record (Enter on it too). Record
 * lists (RecordGrid) add editing in place; the other lists (users, roles) give their columns. The grid has no filter
 * panel: a record list's filters are its filter builder's (views/FilterBuilder.tsx).
 */

import Box from '@mui/material/Box';
import type { Theme } from '@mui/material/styles';
import { useEventCallback } from '@mui/material/utils';
import {
  DataGrid,
  type DataGridProps,
  type GridApi,
  type GridCellModesModel,
  type GridCellParams,
  type GridColDef,
  type GridColumnResizeParams,
  type GridColumnVisibilityModel,
  type GridDensity,
  type GridPaginationModel,
  type GridRenderCellParams,
  type GridRowCheckboxProps,
  type GridRowId,
  type GridRowSelectionModel,
  type GridSortModel,
  type MuiEvent,
  useGridApiContext,
  useGridApiRef,
} from '@mui/x-data-grid';
import { forwardRef, type ReactNode, type RefObject, useCallback, useMemo, useRef, useState } from 'react';
import { BulkActionsToolbar, type Identifier, useListContext, useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { layoutClasses } from '../../layout/layoutStyles';
import { LIST_LINK } from '../fieldTypes/displays';
import { recordLabel } from '../label';
import { OutsideTurfNote } from '../OutsideTurfNote';
import { type RecordPage, recordPath } from '../recordPath';
import { ColumnMenu } from './ColumnMenu';
import {
  displayedRows,
  listSortToSortModel,
  listToPaginationModel,
  PER_PAGE_CHOICES,
  paginationModelToList,
  sortModelToListSort,
} from './gridQuery';
import { moveColumn, orderedFields, useGridPreferences, visibilityModel } from './preferences';

/**
 * A row's checkbox named after the row ("Select row Acme Tower"), so each is told apart by a screen reader. A page
 * has a hundred of them: a native checkbox (styled once for the grid, `ROW_CHECKBOX`) instead of Material's, whose
 * styled button, ripple and icon per row cost more than the rest of the row.
 */
const RowCheckbox = forwardRef<HTMLButtonElement, GridRowCheckboxProps>(function RowCheckbox(
  { rowId, checked, disabled, tabIndex, className, onChange, onClick, onKeyDown, onMouseDown },
  ref,
) {
  const apiRef = useGridApiContext();
  const label = `${checked ? 'Unselect' : 'Select'} row ${recordLabel(apiRef.current.getRow(rowId))}`;
  return (
    <input
      ref={ref as never}
      type="checkbox"
      name="select_row"
      className={className ? `${ROW_CHECKBOX} ${className}` : ROW_CHECKBOX}
      aria-label={label}
      checked={Boolean(checked)}
      disabled={disabled}
      tabIndex={tabIndex}
      onChange={onChange as never}
      onClick={onClick as never}
      onKeyDown={onKeyDown as never}
      onMouseDown={onMouseDown as never}
    />
  );
});

const ROW_CHECKBOX = 'om-row-checkbox';
/** The link that opens a row's record, styled once for the grid (a Material Link per row costs its styles each render). */
const RECORD_LINK = 'om-record-link';
/** The link's text, which is cut short in a narrow column so that the note after it stays whole. */
const RECORD_LINK_TEXT = 'om-record-link-text';

const SLOTS = { rowCheckbox: RowCheckbox, columnMenu: ColumnMenu };
const NO_ROWS: never[] = [];
const AUTO_ROW_HEIGHT = () => 'auto' as const;

/**
 * `value` while `settled`; the last settled value while not. The list keeps showing the rows it has while it fetches
 * another page (react-admin's placeholder data): the grid keeps the page and the footer those rows belong to, and
 * takes the new ones with the new rows, in one render. Each render of the grid with a prop changed renders every
 * cell in view again (they read the grid's props), so a page change renders the cells once, not once per step of the
 * fetch (the click, the fetch starting, the rows coming).
 */
function useSettled<T>(value: T, settled: boolean): T {
  const [kept, setKept] = useState(value);
  if (settled && kept !== value) setKept(value);
  return settled ? value : kept;
}

/** The column whose cell links to the record (an empty value shows the record's number). */
function linkColumn(column: GridColDef, resource: string, page: RecordPage): GridColDef {
  const render = column.renderCell;
  return {
    ...column,
    renderCell: (params: GridRenderCellParams) => {
      const empty = params.value === null || params.value === undefined || params.value === '';
      return (
        <RouterLink
          className={RECORD_LINK}
          to={recordPath(resource, params.id, page)}
          tabIndex={params.tabIndex}
          onClick={(event) => event.stopPropagation()}
        >
          <span className={RECORD_LINK_TEXT}>
            {empty ? `#${String(params.id)}` : render ? render(params) : String(params.formattedValue ?? params.value)}
          </span>
          <OutsideTurfNote record={params.row} />
        </RouterLink>
      );
    },
  };
}

/** The next (or previous) shown cell of the row that the person may edit, if any. */
function nextEditableField(api: GridApi, id: GridRowId, field: string, direction: -1 | 1): string | undefined {
  const columns = api.getVisibleColumns();
  for (
    let at = columns.findIndex((column) => column.field === field) + direction;
    at >= 0 && at < columns.length;
    at += direction
  ) {
    const candidate = columns[at].field;
    if (api.isCellEditable(api.getCellParams(id, candidate))) return candidate;
  }
  return undefined;
}

export interface ListGridProps {
  resource: string;
  /** Every column the person may show, in order. */
  columns: GridColDef[];
  /** The columns shown until the person chooses. */
  defaults: readonly string[];
  /** The column whose cell opens the record; the first column when not given. */
  linkField?: string;
  /** The record page a row opens; false: rows open nothing (deleted records). */
  opens?: RecordPage | false;
  /** Whose column choices these are, when not the resource's main list (`sites.deleted`). */
  listKey?: string;
  bulkActionButtons?: ReactNode;
  /** The page sizes offered (the lists' usual choices when not given). */
  pageSizeOptions?: number[];
  /** Rows as tall as their content (several lines of text), not one line each. */
  autoRowHeight?: boolean;
  /** The grid's accessible name; the resource's plural when not given. */
  label?: string;
  /** Editing in place (RecordGrid). */
  editing?: Pick<DataGridProps, 'isCellEditable' | 'processRowUpdate' | 'onProcessRowUpdateError'> & {
    apiRef: RefObject<GridApi | null>;
  };
}

export default function ListGrid({
  resource,
  columns,
  defaults,
  linkField: linkProp,
  opens = 'show',
  listKey = resource,
  bulkActionButtons,
  editing,
  pageSizeOptions = PER_PAGE_CHOICES,
  autoRowHeight = false,
  label,
}: ListGridProps) {
  const {
    data,
    total,
    meta,
    isPending,
    isFetching,
    isPlaceholderData,
    page,
    perPage,
    setPage,
    setPerPage,
    sort,
    setSort,
    selectedIds,
    onSelect,
  } = useListContext();
  const translate = useTranslate();
  const navigate = useNavigate();
  const ownApiRef = useGridApiRef();
  const focusAfterEdit = useRef<{ id: GridRowId; field: string; next: string | undefined } | null>(null);
  const apiRef = editing?.apiRef ?? ownApiRef;
  const linkField = opens === false ? undefined : (linkProp ?? columns[0]?.field);
  const [preferences, setPreferences] = useGridPreferences(listKey);
  // react-admin goes back to page 1 itself when the sort or filters change; the grid then also asks for its first
  // page a moment later, from a list state that predates the change, and obeying it would undo the new filter.
  const queryChangedAt = useRef(0);
  const pageResetByGrid = (model: GridPaginationModel) =>
    model.page === 0 && Date.now() - queryChangedAt.current < 1_000;
  const fields = useMemo(() => columns.map((column) => column.field), [columns]);
  const widths = preferences.widths;
  const order = useMemo(() => orderedFields(fields, preferences.order), [fields, preferences.order]);
  const shownColumns = useMemo(() => {
    const byField = new Map(columns.map((column) => [column.field, column]));
    return order.map((field) => {
      const column = byField.get(field)!;
      const linked = opens !== false && column.field === linkField ? linkColumn(column, resource, opens) : column;
      const width = widths?.[column.field];
      return width ? { ...linked, width, flex: undefined } : linked;
    });
  }, [columns, order, linkField, resource, opens, widths]);
  const columnVisibility = useMemo(
    () => visibilityModel(fields, defaults, preferences),
    [fields, defaults, preferences],
  );
  const onMove = useCallback(
    (field: string, direction: -1 | 1) => {
      const shown = new Set(
        Object.entries(columnVisibility)
          .filter(([, visible]) => visible)
          .map(([slug]) => slug),
      );
      setPreferences({ ...preferences, order: moveColumn(order, shown, field, direction) });
    },
    [columnVisibility, order, preferences, setPreferences],
  );

  const settled = !isPlaceholderData;
  const rows = useSettled(data ?? NO_ROWS, settled);
  const count = total ?? 0;
  const selection = useMemo<GridRowSelectionModel>(
    () => ({ type: 'include', ids: new Set(selectedIds) }),
    [selectedIds],
  );
  // The grid's handlers keep their identity (useEventCallback) like its other props: the grid is a memo, and each
  // time it renders with a prop changed, every cell in view renders again (they read the grid's props).
  const onSelectionChange = useEventCallback((model: GridRowSelectionModel) => {
    const ids: Identifier[] =
      model.type === 'include'
        ? ([...model.ids] as Identifier[])
        : rows.map((row) => row.id).filter((id) => !model.ids.has(id));
    onSelect(ids);
  });
  const onCellKeyDown = useEventCallback((params: GridCellParams, event: MuiEvent<React.KeyboardEvent>) => {
    if (opens !== false && event.key === 'Enter' && params.field === linkField && params.cellMode === 'view') {
      event.defaultMuiPrevented = true;
      void navigate(recordPath(resource, params.id, opens));
    }
    if (event.key === 'Tab' && params.cellMode === 'edit') {
      // As in a spreadsheet: the value is saved and the next cell the person may edit in this row takes the focus
      // once the save is done (onCellModesModelChange); a refused value keeps the cell in edit mode and the focus.
      const api = apiRef.current;
      if (!api) return;
      event.defaultMuiPrevented = true;
      event.preventDefault();
      focusAfterEdit.current = {
        id: params.id,
        field: params.field,
        next: nextEditableField(api, params.id, params.field, event.shiftKey ? -1 : 1),
      };
      api.stopCellEditMode({ id: params.id, field: params.field });
    }
  });
  const onCellModesModelChange = useEventCallback((model: GridCellModesModel) => {
    const pending = focusAfterEdit.current;
    if (!pending) return;
    const mode = model[pending.id]?.[pending.field]?.mode;
    if (mode === 'view') return; // still saving
    focusAfterEdit.current = null;
    if (mode === undefined && pending.next) apiRef.current?.setCellFocus(pending.id, pending.next);
  });
  const onPaginationModelChange = useEventCallback((model: GridPaginationModel) => {
    const next = paginationModelToList(model);
    if (pageResetByGrid(model) && next.perPage === perPage) return;
    if (next.perPage !== perPage) setPerPage(next.perPage);
    else if (next.page !== page) setPage(next.page);
  });
  const onSortModelChange = useEventCallback((model: GridSortModel) => {
    const next = sortModelToListSort(model);
    // The grid has no column for a list's default order (`id`) and reports it dropped: that is not the person's
    // choice, and a URL change made for it would undo a redirect (a refused list going to /access-denied).
    if (next.field === sort.field && next.order === sort.order) return;
    if (!next.field && !shownColumns.some((column) => column.field === sort.field)) return;
    queryChangedAt.current = Date.now();
    setSort(next);
  });
  const onColumnVisibilityModelChange = useEventCallback((model: GridColumnVisibilityModel) =>
    setPreferences({
      ...preferences,
      visible: Object.keys(model).length ? fields.filter((field) => model[field] !== false) : undefined,
    }),
  );
  const onColumnWidthChange = useEventCallback((params: GridColumnResizeParams) =>
    setPreferences({
      ...preferences,
      widths: { ...preferences.widths, [params.colDef.field]: Math.round(params.width) },
    }),
  );
  const onDensityChange = useEventCallback((density: GridDensity) => setPreferences({ ...preferences, density }));
  const shown = displayedRows(page, perPage, count);
  // The grid's props that are objects keep their identity between renders (a list refetch, a realtime event): a new
  // object each time would make the grid work out its state again and render every row.
  const paginationModel = useSettled(
    useMemo(() => listToPaginationModel(page, perPage), [page, perPage]),
    settled,
  );
  const sortModel = useMemo(
    () => listSortToSortModel(sort).filter((item) => shownColumns.some((column) => column.field === item.field)),
    [sort, shownColumns],
  );
  const slotProps = useMemo(
    () => ({
      toolbar: {
        showQuickFilter: false,
        csvOptions: { disableToolbarButton: true },
        printOptions: { disableToolbarButton: true },
      },
      columnMenu: { onMove } as never,
    }),
    [onMove],
  );
  const displayed = translate('ra.navigation.page_range_info', {
    offsetBegin: shown.from,
    offsetEnd: shown.to,
    total: meta?.total_estimated ? translate('app.datatable.about', { total: shown.total }) : shown.total,
  });
  const localeText = useSettled(
    useMemo(() => ({ paginationDisplayedRows: () => displayed }), [displayed]),
    settled,
  );
  const sx = useMemo(
    () => ({
      border: 0,
      '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', py: autoRowHeight ? 1 : undefined },
      [`& .${ROW_CHECKBOX}`]: {
        width: 18,
        height: 18,
        m: 0,
        cursor: 'pointer',
        accentColor: (theme: Theme) => theme.palette.primary.main,
      },
      [`& .${RECORD_LINK}, & .${LIST_LINK}`]: { color: 'primary.main', textDecoration: 'none' },
      // The record link is underlined through its text alone: as a flex row it would underline the note too.
      [`& .${LIST_LINK}:hover, & .${LIST_LINK}:focus-visible, & .${RECORD_LINK}:hover .${RECORD_LINK_TEXT}, & .${RECORD_LINK}:focus-visible .${RECORD_LINK_TEXT}`]:
        { textDecoration: 'underline' },
      // The note goes under the name when both do not fit on one line, so neither is cut to a letter.
      [`& .${RECORD_LINK}`]: {
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        columnGap: 1,
        rowGap: '2px',
        minWidth: 0,
        maxWidth: '100%',
        lineHeight: 1.25,
      },
      [`& .${RECORD_LINK_TEXT}`]: { minWidth: 0, maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis' },
      [`& .${RECORD_LINK} .MuiChip-root`]: { flexShrink: 0, ml: 0, height: 18 },
    }),
    [autoRowHeight],
  );

  return (
    <Box className={layoutClasses.listGrid} sx={{ width: '100%', minWidth: 0 }}>
      {bulkActionButtons ? <BulkActionsToolbar>{bulkActionButtons}</BulkActionsToolbar> : null}
      <DataGrid
        apiRef={apiRef}
        isCellEditable={editing?.isCellEditable}
        processRowUpdate={editing?.processRowUpdate}
        onProcessRowUpdateError={editing?.onProcessRowUpdateError}
        aria-label={label ?? translate(`resources.${resource}.name`, { smart_count: 2, _: resource })}
        rows={rows}
        columns={shownColumns}
        rowCount={count}
        loading={isPending || (isFetching && rows.length === 0)}
        paginationMode="server"
        sortingMode="server"
        filterMode="server"
        disableColumnFilter
        paginationModel={paginationModel}
        onPaginationModelChange={onPaginationModelChange}
        pageSizeOptions={pageSizeOptions}
        sortModel={sortModel}
        onSortModelChange={onSortModelChange}
        checkboxSelection={Boolean(bulkActionButtons)}
        disableRowSelectionOnClick
        keepNonExistentRowsSelected
        rowSelectionModel={selection}
        onRowSelectionModelChange={onSelectionChange}
        columnVisibilityModel={columnVisibility}
        onColumnVisibilityModelChange={onColumnVisibilityModelChange}
        onColumnWidthChange={onColumnWidthChange}
        density={preferences.density ?? 'standard'}
        onDensityChange={onDensityChange}
        getRowHeight={autoRowHeight ? AUTO_ROW_HEIGHT : undefined}
        onCellKeyDown={onCellKeyDown}
        onCellModesModelChange={onCellModesModelChange}
        showToolbar
        slots={SLOTS}
        slotProps={slotProps}
        localeText={localeText}
        sx={sx}
      />
    </Box>
  );
}
