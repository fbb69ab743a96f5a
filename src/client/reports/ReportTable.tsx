/** A report's table: scrolls sideways on a phone, the first column stays in view, numbers link to their lists. */
import type { ReactNode } from 'react';
import Card from '@mui/material/Card';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

export interface Column<T> {
  header: string;
  align?: 'left' | 'right';
  render: (row: T) => ReactNode;
}

const sticky = { position: 'sticky', left: 0, bgcolor: 'background.paper', zIndex: 1 } as const;

export function ReportTable<T>({ columns, rows, rowKey, footer, testId, rowTestId, empty = 'Nothing to show for these filters.' }: {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  footer?: T | null;
  testId?: string;
  rowTestId?: string;
  /** Said under the table when there are no rows; null when the page says it elsewhere. */
  empty?: string | null;
}) {
  return (
    <Card variant="outlined">
      <TableContainer sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid={testId} sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
          <TableHead>
            <TableRow>
              {columns.map((column, i) => (
                <TableCell key={column.header} align={column.align ?? (i === 0 ? 'left' : 'right')} sx={i === 0 ? sticky : undefined}>
                  {column.header}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={rowKey(row)} hover data-testid={rowTestId}>
                {columns.map((column, i) => (
                  <TableCell key={column.header} align={column.align ?? (i === 0 ? 'left' : 'right')} component={i === 0 ? 'th' : 'td'} scope={i === 0 ? 'row' : undefined} sx={i === 0 ? { ...sticky, maxWidth: { xs: 140, sm: 300 }, overflow: 'hidden', textOverflow: 'ellipsis' } : undefined}>
                    {column.render(row)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
            {footer && (
              <TableRow sx={{ '& td, & th': { fontWeight: 600, borderTop: 2, borderColor: 'divider' } }}>
                {columns.map((column, i) => (
                  <TableCell key={column.header} align={column.align ?? (i === 0 ? 'left' : 'right')} sx={i === 0 ? sticky : undefined}>
                    {column.render(footer)}
                  </TableCell>
                ))}
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {rows.length === 0 && empty !== null && (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {empty}
        </Typography>
      )}
    </Card>
  );
}
