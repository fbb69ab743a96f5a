/**
 * The grid's column menu with "Move left" and "Move right" (the MIT grid has no dragging of columns): the person's
 * column order is kept with their other column choices (preferences.ts), so it is reached by keyboard as well.
 */

import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import {
  GridColumnMenu,
  type GridColumnMenuItemProps,
  type GridColumnMenuProps,
  gridVisibleColumnFieldsSelector,
  useGridApiContext,
} from '@mui/x-data-grid';

/** Moves a column one shown column left (-1) or right (1). */
export type MoveColumn = (field: string, direction: -1 | 1) => void;

function MoveItem({
  colDef,
  onClick,
  direction,
  onMove,
}: GridColumnMenuItemProps & { direction: -1 | 1; onMove?: MoveColumn }) {
  const apiRef = useGridApiContext();
  const shown = gridVisibleColumnFieldsSelector(apiRef).filter((field) => !field.startsWith('__'));
  const at = shown.indexOf(colDef.field);
  const disabled = !onMove || at === -1 || (direction === -1 ? at === 0 : at === shown.length - 1);
  return (
    <MenuItem
      disabled={disabled}
      onClick={(event) => {
        onMove?.(colDef.field, direction);
        onClick(event);
      }}
    >
      <ListItemIcon>
        {direction === -1 ? <ArrowBackIcon fontSize="small" /> : <ArrowForwardIcon fontSize="small" />}
      </ListItemIcon>
      <ListItemText>{direction === -1 ? 'Move left' : 'Move right'}</ListItemText>
    </MenuItem>
  );
}

/** Both moves as one group of the menu (the grid puts a divider between groups), as its hide/manage group is. */
const MoveItems = (props: GridColumnMenuItemProps & { onMove?: MoveColumn }) => (
  <>
    <MoveItem {...props} direction={-1} />
    <MoveItem {...props} direction={1} />
  </>
);

export function ColumnMenu({ onMove, ...props }: GridColumnMenuProps & { onMove?: MoveColumn }) {
  return (
    <GridColumnMenu
      {...props}
      slots={{ columnMenuMoveItem: MoveItems }}
      slotProps={{ columnMenuMoveItem: { displayOrder: 15, onMove } }}
    />
  );
}
