/**
 * A kanban of a record type (docs/views.md "Kanban"): a column per value of a choice, status, relation or person
 * field, each with its count and its first 50 cards (50 more at a time), over the list's own filters and saved view.
 * Every column's first 50 cards and count come in one request (useBoard.ts); a column asks for more on its own.
 * A card dragged to another column (or moved with the keyboard: Ctrl+← / Ctrl+→ on a focused card, or its menu)
 * changes that one field through the data provider's update, the same write as the record's form: the server's
 * rules and validation apply, and a refused change snaps the card back with the server's reason. With an order
 * field (a number field, `rank`), cards are in its order and are reordered within their column the same ways
 * (dropped between two cards, Ctrl+↑ / Ctrl+↓, the menu), writing that field (kanbanOrder.ts).
 *
 * The board draws 250 cards at once, so a card is light: plain elements with classes made once, no ripple, one menu
 * for the whole board, and memoised so a drag or a lane's answer redraws only what changed.
 */
import { DndContext, type DragEndEvent, useDroppable } from '@dnd-kit/core';
import MoreIcon from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { styled } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { memo, useCallback, useRef, useState } from 'react';
import { useGetList, useListContext } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { FieldDescriptor } from '../../records/fieldTypes';
import { useRecordMutations } from '../../records/mutations';
import { recordPath } from '../../records/recordPath';
import { recordLabel } from '../../records/schema';
import { type CardRecord, columnKey, type KanbanColumn, useKanbanColumns } from './kanbanColumns';
import { MOVABLE_SX, useMovable, useMoveSensors, usePendingMoves } from './movable';
import { type BoardLane, useBoard } from './useBoard';
import { useCardOrder } from './useCardOrder';

/** Cards a column shows at first, and how many more each "Show more" adds. */
export const KANBAN_PAGE = 50;

/** Cards moved on this screen whose write has not been answered yet: where they are shown meanwhile. */
type Move = { to: KanbanColumn['value']; record: CardRecord };
type Moves = ReadonlyMap<CardRecord['id'], Move>;
type MenuTarget = { anchor: HTMLElement; record: CardRecord; lane: number; index: number };

interface KanbanBoardProps {
  resource: string;
  field: FieldDescriptor;
  /** The order field: cards in its order, reordered by writing it. None: the list's order, no reordering. */
  rank: FieldDescriptor | null;
  viewId: number | null;
  /** The record type's name in the plural, for the board's label. */
  plural: string;
}

export function KanbanBoard({ resource, field, rank, viewId, plural }: KanbanBoardProps) {
  const { filterValues } = useListContext();
  const { columns, isPending } = useKanbanColumns(field);
  const board = useBoard(resource, field, rank, columns, filterValues, viewId, KANBAN_PAGE);
  const { update } = useRecordMutations(resource);
  const { pending: moves, begin, end } = usePendingMoves<CardRecord['id'], Move>();
  const { pending: ordering, reorder, setShown, shown: shownIn } = useCardOrder(resource, rank);
  const sensors = useMoveSensors();
  const [menu, setMenu] = useState<MenuTarget | null>(null);
  const lanes = useRef(new Map<string, HTMLElement>());

  const move = useCallback(
    async (record: CardRecord, to: KanbanColumn['value']) => {
      const from = (record[field.slug] ?? null) as KanbanColumn['value'];
      if (columnKey(from) === columnKey(to)) return;
      begin(record.id, { to, record });
      const label = columns.find((column) => columnKey(column.value) === columnKey(to))?.label ?? '';
      // A refused move (422, 403, 409) is told by the server's message; the card goes back where it was.
      await update(record.id, { [field.slug]: to }, record, `${recordLabel(record)} moved to ${label}.`);
      end(record.id);
    },
    [columns, field.slug, update, begin, end],
  );

  /** Ctrl+arrows on a card: ← → to the next column, ↑ ↓ one place within its column (with an order field). */
  const onArrow = useCallback(
    (record: CardRecord, lane: number, index: number, key: string) => {
      if (key === 'ArrowUp' || key === 'ArrowDown') {
        if (!rank) return false;
        void reorder(columnKey(columns[lane].value), record, index + (key === 'ArrowUp' ? -1 : 1));
        return true;
      }
      const to = columns[lane + (key === 'ArrowLeft' ? -1 : key === 'ArrowRight' ? 1 : Number.NaN)];
      if (to) void move(record, to.value);
      return Boolean(to);
    },
    [columns, move, reorder, rank],
  );

  const onDragEnd = (event: DragEndEvent) => {
    const record = event.active.data.current?.record as CardRecord | undefined;
    const to = event.over?.data.current?.value as KanbanColumn['value'] | undefined;
    if (!record || to === undefined) return;
    const key = columnKey(to);
    if (key !== columnKey((record[field.slug] ?? null) as KanbanColumn['value'])) return void move(record, to);
    // Within its column: dropped before the first card whose middle is below the dragged card's middle.
    const dropped = event.active.rect.current.translated;
    const lane = lanes.current.get(key);
    if (!rank || !dropped || !lane) return;
    const middle = dropped.top + dropped.height / 2;
    const others = [...lane.querySelectorAll<HTMLElement>('[data-testid="kanban-card"]')].filter(
      (card) => card.dataset.id !== String(record.id),
    );
    const index = others.filter((card) => {
      const box = card.getBoundingClientRect();
      return box.top + box.height / 2 < middle;
    }).length;
    void reorder(key, record, index);
  };

  const openMenu = useCallback(
    (anchor: HTMLElement, record: CardRecord, lane: number, index: number) => setMenu({ anchor, record, lane, index }),
    [],
  );
  const laneRef = useCallback((key: string, node: HTMLElement | null) => {
    if (node) lanes.current.set(key, node);
    else lanes.current.delete(key);
  }, []);

  if (isPending) return <Typography sx={{ p: 2 }}>Loading the board…</Typography>;
  const shown = menu ? shownIn(columnKey(columns[menu.lane].value)) : [];
  return (
    <DndContext sensors={sensors} onDragEnd={onDragEnd}>
      <Box
        role="list"
        aria-label={`${plural} by ${field.label}`}
        data-testid="kanban"
        sx={{
          display: 'flex',
          gap: 1,
          p: 1,
          overflowX: 'auto',
          alignItems: 'flex-start',
          scrollSnapType: { xs: 'x mandatory', sm: 'none' },
        }}
      >
        {columns.map((column, index) => (
          <KanbanLane
            key={columnKey(column.value)}
            resource={resource}
            field={field}
            rank={rank}
            column={column}
            lane={index}
            filter={{ ...filterValues, ...column.filter }}
            viewId={viewId}
            first={board.lanes.get(columnKey(column.value))}
            firstPending={board.isPending}
            firstError={board.error}
            moves={moves}
            order={ordering.get(columnKey(column.value))}
            onShown={setShown}
            onArrow={onArrow}
            onMenu={openMenu}
            laneRef={laneRef}
          />
        ))}
      </Box>
      <Menu anchorEl={menu?.anchor} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {menu && rank && menu.index > 0 && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              void reorder(columnKey(columns[menu.lane].value), menu.record, menu.index - 1);
            }}
          >
            Move up
          </MenuItem>
        )}
        {menu && rank && menu.index < shown.length - 1 && (
          <MenuItem
            onClick={() => {
              setMenu(null);
              void reorder(columnKey(columns[menu.lane].value), menu.record, menu.index + 1);
            }}
          >
            Move down
          </MenuItem>
        )}
        {menu &&
          columns
            .filter((_, index) => index !== menu.lane)
            .map((column) => (
              <MenuItem
                key={columnKey(column.value)}
                onClick={() => {
                  setMenu(null);
                  void move(menu.record, column.value);
                }}
              >
                Move to {column.label}
              </MenuItem>
            ))}
      </Menu>
    </DndContext>
  );
}

interface LaneProps {
  resource: string;
  field: FieldDescriptor;
  rank: FieldDescriptor | null;
  column: KanbanColumn;
  lane: number;
  filter: Record<string, unknown>;
  viewId: number | null;
  /** The column's first page and count, from the board's one request. */
  first: BoardLane | undefined;
  firstPending: boolean;
  firstError: Error | null;
  moves: Moves;
  /** The column's cards in the order being written, until the server has answered. */
  order: ReadonlyArray<CardRecord['id']> | undefined;
  onShown: (key: string, cards: CardRecord[]) => void;
  onArrow: (record: CardRecord, lane: number, index: number, key: string) => boolean;
  onMenu: (anchor: HTMLElement, record: CardRecord, lane: number, index: number) => void;
  laneRef: (key: string, node: HTMLElement | null) => void;
}

function KanbanLane({
  resource,
  field,
  rank,
  column,
  lane,
  filter,
  viewId,
  first,
  firstPending,
  firstError,
  moves,
  order,
  onShown,
  onArrow,
  onMenu,
  laneRef,
}: LaneProps) {
  const [perPage, setPerPage] = useState(KANBAN_PAGE);
  // Past the first page ("Show more"), the column reads its cards on its own; the first page's stay meanwhile.
  const more = useGetList<CardRecord>(
    resource,
    {
      pagination: { page: 1, perPage },
      filter,
      sort: rank ? { field: rank.slug, order: 'ASC' } : undefined,
      meta: viewId ? { query: { view: viewId } } : undefined,
    },
    { enabled: perPage > KANBAN_PAGE },
  );
  const data: CardRecord[] | undefined = (perPage > KANBAN_PAGE ? more.data : undefined) ?? first?.data;
  const total = (perPage > KANBAN_PAGE ? more.total : undefined) ?? first?.total;
  const isPending = firstPending && !first;
  const error = (perPage > KANBAN_PAGE ? more.error : null) ?? (first ? null : firstError);
  const key = columnKey(column.value);
  const { setNodeRef, isOver } = useDroppable({ id: key, data: { value: column.value } });
  const ref = useCallback(
    (node: HTMLElement | null) => {
      setNodeRef(node);
      laneRef(key, node);
    },
    [setNodeRef, laneRef, key],
  );
  const arriving = [...moves.values()].filter((m) => columnKey(m.to) === key).map((m) => m.record);
  const staying = (data ?? []).filter((record) => !moves.has(record.id));
  const listed = [...arriving.filter((record) => !staying.some((s) => s.id === record.id)), ...staying];
  const cards = order ? [...listed].sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id)) : listed;
  onShown(key, cards);
  const count = (total ?? 0) + arriving.length - ((data ?? []).length - staying.length);
  const hint = `Ctrl and ← or → moves it to the next column${rank ? ', ↑ or ↓ one place in this column' : ''}.`;
  return (
    <Box
      ref={ref}
      role="listitem"
      aria-label={`${column.label}: ${count}`}
      data-testid={`kanban-column-${key}`}
      sx={{
        flex: { xs: '0 0 85%', sm: '0 0 280px' },
        scrollSnapAlign: 'start',
        bgcolor: isOver ? 'action.selected' : 'action.hover',
        borderRadius: 1,
        p: 1,
        minHeight: 120,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography component="h2" variant="subtitle2" sx={{ flex: 1, overflowWrap: 'anywhere' }}>
          {column.label}
        </Typography>
        <Chip size="small" label={count} data-testid="kanban-count" aria-label={`${count} cards`} />
      </Box>
      {error ? (
        <Typography color="error" variant="body2">
          {error instanceof Error ? error.message : 'This column could not be read.'}
        </Typography>
      ) : isPending ? (
        <Typography variant="body2">Loading…</Typography>
      ) : (
        <CardList>
          {cards.map((record, index) => (
            <KanbanCard
              key={record.id}
              resource={resource}
              moveLabel={field.label.toLowerCase()}
              record={record}
              place={`in ${column.label}${rank ? `, ${index + 1} of ${cards.length}` : ''}. ${hint}`}
              lane={lane}
              index={index}
              onArrow={onArrow}
              onMenu={onMenu}
            />
          ))}
        </CardList>
      )}
      {(total ?? 0) > perPage && (
        <Button size="small" fullWidth sx={{ mt: 1 }} onClick={() => setPerPage((n) => n + KANBAN_PAGE)}>
          Show {Math.min(KANBAN_PAGE, (total ?? 0) - perPage)} more
        </Button>
      )}
    </Box>
  );
}

const CardList = styled('ul')({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 8 });

const CardBox = styled('div')(({ theme }) => ({
  ...MOVABLE_SX,
  display: 'flex',
  alignItems: 'center',
  gap: 4,
  padding: 8,
  background: theme.palette.background.paper,
  border: `1px solid ${theme.palette.divider}`,
  borderRadius: theme.shape.borderRadius,
  '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: 2 },
}));

const CardLink = styled(RouterLink)(({ theme }) => ({
  ...theme.typography.body2,
  color: theme.palette.primary.main,
  textDecoration: 'none',
  overflowWrap: 'anywhere',
  '&:hover': { textDecoration: 'underline' },
}));

const Handle = styled('div')({ flex: 1, alignSelf: 'stretch', minWidth: 16 });

const MenuButton = styled('button')(({ theme }) => ({
  display: 'inline-flex',
  padding: 5,
  border: 0,
  borderRadius: '50%',
  background: 'none',
  color: theme.palette.action.active,
  cursor: 'pointer',
  '&:hover': { background: theme.palette.action.hover },
  '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}` },
}));

const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

interface CardProps {
  resource: string;
  moveLabel: string;
  record: CardRecord;
  /** Where the card is, and its keys, for its label. */
  place: string;
  lane: number;
  index: number;
  onArrow: (record: CardRecord, lane: number, index: number, key: string) => boolean;
  onMenu: (anchor: HTMLElement, record: CardRecord, lane: number, index: number) => void;
}

const KanbanCard = memo(function KanbanCard({
  resource,
  moveLabel,
  record,
  place,
  lane,
  index,
  onArrow,
  onMenu,
}: CardProps) {
  const movable = useMovable(`card-${record.id}`, { record }, (key) => onArrow(record, lane, index, key));
  const name = recordLabel(record) || `#${record.id}`;
  return (
    <li>
      <CardBox
        ref={movable.ref}
        data-testid="kanban-card"
        data-id={record.id}
        {...movable.props}
        aria-roledescription="card"
        aria-label={`${name}, ${place}`}
      >
        <CardLink to={recordPath(resource, record.id)} onPointerDown={stop}>
          {name}
        </CardLink>
        <Handle data-testid="kanban-handle" />
        <MenuButton
          type="button"
          aria-label={`Move ${name} to another ${moveLabel}`}
          onPointerDown={stop}
          onKeyDown={stop}
          onClick={(event) => onMenu(event.currentTarget, record, lane, index)}
        >
          <MoreIcon fontSize="small" />
        </MenuButton>
      </CardBox>
    </li>
  );
});
