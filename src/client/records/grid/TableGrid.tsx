/**
 * A table that is not a list of records (a report, an import's preview or failed rows) as the data grid in client
 * mode: every row is in the page, so the grid sorts them itself; the person hides columns from the column menu or
 * the toolbar; "Export" writes a CSV of what is shown (the shown columns, the rows in their sorted order, the totals
 * row last, the text as on screen, formulas defused). A totals row stays last whatever the sort.
 */

import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import {
  DataGrid,
  type GridColDef,
  type GridComparatorFn,
  GridRow,
  type GridRowProps,
  type GridSortDirection,
} from '@mui/x-data-grid';
import { forwardRef, type ReactNode, useMemo } from 'react';

export interface TableColumn<T> {
  header: string;
  align?: 'left' | 'right';
  /** What the cell shows (links, chips); the formatted value when not given. */
  render?: (row: T) => ReactNode;
  /** The value the column sorts by (numbers as numbers). */
  value: (row: T) => string | number | null | undefined;
  /** The value as text, on screen (without `render`) and in the CSV: numbers as formatted on screen. */
  format?: (value: string | number | null | undefined, row: T) => string;
  sortable?: boolean;
  minWidth?: number;
  /** Long text (an error message) wraps, and its row grows to show it. */
  wrap?: boolean;
}

/** The id of the totals row, which stays last. */
const TOTAL_ID = '__total__';

const compareValues = (a: unknown, b: unknown): number => {
  if (a === b) return 0;
  if (a === null || a === undefined || a === '') return -1;
  if (b === null || b === undefined || b === '') return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
};

/** Sorts by the value, in the direction asked, with the totals row last either way. */
export const totalsLastComparator =
  (direction: GridSortDirection): GridComparatorFn =>
  (v1, v2, p1, p2) => {
    if (p1.id === TOTAL_ID) return 1;
    if (p2.id === TOTAL_ID) return -1;
    return direction === 'desc' ? -compareValues(v1, v2) : compareValues(v1, v2);
  };

/** A row with the page's test id, except the totals row. */
const TableRow = forwardRef<HTMLDivElement, GridRowProps & { rowTestId?: string }>(function TableRow(
  { rowTestId, ...props },
  ref,
) {
  return <GridRow ref={ref} {...props} data-testid={props.rowId === TOTAL_ID ? 'table-total' : rowTestId} />;
});

interface Entry<T> {
  id: string;
  row: T;
}

export function TableGrid<T>({
  columns,
  rows,
  rowKey,
  footer,
  label,
  fileName,
  testId,
  rowTestId,
  empty = 'Nothing to show for these filters.',
  rowSx,
  below,
}: {
  columns: TableColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** The totals row, shown last and bold. */
  footer?: T | null;
  /** The grid's accessible name. */
  label: string;
  /** The CSV's file name, without `.csv`. */
  fileName: string;
  testId?: string;
  rowTestId?: string;
  /** Said in the table when there are no rows; null when the page says it elsewhere. */
  empty?: string | null;
  /** Rows marked (an import's rows with problems). */
  rowSx?: { when: (row: T) => boolean; className: string; sx: object };
  /** Under the grid, in its card (a server's pagination). */
  below?: ReactNode;
}) {
  const entries = useMemo<Entry<T>[]>(
    () => [...rows.map((row) => ({ id: rowKey(row), row })), ...(footer ? [{ id: TOTAL_ID, row: footer }] : [])],
    [rows, footer, rowKey],
  );
  const gridColumns = useMemo(
    (): GridColDef<Entry<T>>[] =>
      columns.map((column, index) => {
        const align = column.align ?? (index === 0 ? 'left' : 'right');
        const text = (row: T) =>
          column.format ? column.format(column.value(row), row) : String(column.value(row) ?? '');
        return {
          field: `c${index}`,
          headerName: column.header,
          align,
          headerAlign: align,
          minWidth: column.minWidth ?? (index === 0 ? 180 : 110),
          flex: index === 0 ? 2 : 1,
          sortable: column.sortable !== false,
          filterable: false,
          valueGetter: (_value, entry) => column.value(entry.row),
          valueFormatter: (_value, entry) => text(entry.row),
          getSortComparator: totalsLastComparator,
          renderCell: ({ row: entry }) =>
            column.render ? (
              column.render(entry.row)
            ) : column.wrap ? (
              <Box sx={{ whiteSpace: 'normal', py: 0.5 }}>{text(entry.row)}</Box>
            ) : (
              text(entry.row)
            ),
        };
      }),
    [columns],
  );
  return (
    <Card variant="outlined" data-testid={testId}>
      <Box sx={{ width: '100%', minWidth: 0 }}>
        <DataGrid
          aria-label={label}
          rows={entries}
          columns={gridColumns}
          density="compact"
          hideFooter
          getRowHeight={columns.some((column) => column.wrap) ? () => 'auto' : undefined}
          disableRowSelectionOnClick
          disableColumnFilter
          showToolbar
          slots={{ row: TableRow as never }}
          slotProps={{
            row: { rowTestId } as never,
            toolbar: {
              showQuickFilter: false,
              printOptions: { disableToolbarButton: true },
              csvOptions: { fileName, utf8WithBom: true, escapeFormulas: true },
            },
          }}
          localeText={{ noRowsLabel: empty ?? '' }}
          getRowClassName={({ id, row }) =>
            id === TOTAL_ID ? 'table-total' : rowSx?.when(row.row) ? rowSx.className : ''
          }
          sx={{
            border: 0,
            '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center' },
            '& .table-total': { fontWeight: 600 },
            '& .table-total .MuiDataGrid-cell': { borderTop: 2, borderColor: 'divider' },
            ...(rowSx ? { [`& .${rowSx.className}`]: rowSx.sx } : {}),
          }}
        />
      </Box>
      {below}
    </Card>
  );
}
