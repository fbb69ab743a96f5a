/**
 * A kanban of a record type (docs/views.md "Layouts"): a column per value of a choice, status, relation or person
 * field, each with its count and its first 50 cards (50 more at a time), over the list's own filters and saved view.
 * A card dragged to another column (or moved with the keyboard: Ctrl+← / Ctrl+→ on a focused card, or its "Move to"
 * menu) changes that one field through the data provider's update, the same write as the record's form: the server's
 * rules and validation apply, and a refused change snaps the card back with the server's reason.
 */
import {
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import MoreIcon from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { type KeyboardEvent, useCallback, useState } from 'react';
import { useGetList, useListContext } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { FieldDescriptor } from '../../records/fieldTypes';
import { useRecordMutations } from '../../records/mutations';
import { recordPath } from '../../records/recordPath';
import { recordLabel } from '../../records/schema';
import { type KanbanColumn, useKanbanColumns } from './kanbanColumns';

/** Cards a column shows at first, and how many more each "Show more" adds. */
export const KANBAN_PAGE = 50;

type CardRecord = { id: number | string } & Record<string, unknown>;
/** Cards moved on this screen whose write has not been answered yet: where they are shown meanwhile. */
type Moves = ReadonlyMap<CardRecord['id'], { to: KanbanColumn['value']; record: CardRecord }>;

const columnKey = (value: KanbanColumn['value']) => (value === null ? 'none' : String(value));

interface KanbanBoardProps {
  resource: string;
  field: FieldDescriptor;
  viewId: number | null;
  /** The record type's name in the plural, for the board's label. */
  plural: string;
}

export function KanbanBoard({ resource, field, viewId, plural }: KanbanBoardProps) {
  const { filterValues } = useListContext();
  const { columns, isPending } = useKanbanColumns(field);
  const { update } = useRecordMutations(resource);
  const [moves, setMoves] = useState<Moves>(new Map());
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor),
  );

  const move = useCallback(
    async (record: CardRecord, to: KanbanColumn['value']) => {
      const from = (record[field.slug] ?? null) as KanbanColumn['value'];
      if (columnKey(from) === columnKey(to)) return;
      setMoves((current) => new Map(current).set(record.id, { to, record }));
      const label = columns.find((column) => columnKey(column.value) === columnKey(to))?.label ?? '';
      // A refused move (422, 403, 409) is told by the server's message; the card goes back where it was.
      await update(record.id, { [field.slug]: to }, record, `${recordLabel(record)} moved to ${label}.`);
      setMoves((current) => {
        const next = new Map(current);
        next.delete(record.id);
        return next;
      });
    },
    [columns, field.slug, update],
  );

  const onDragEnd = (event: DragEndEvent) => {
    const record = event.active.data.current?.record as CardRecord | undefined;
    const to = event.over?.data.current?.value as KanbanColumn['value'] | undefined;
    if (record && to !== undefined) void move(record, to);
  };

  if (isPending) return <Typography sx={{ p: 2 }}>Loading the board…</Typography>;
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
            column={column}
            filter={{ ...filterValues, ...column.filter }}
            viewId={viewId}
            moves={moves}
            neighbours={{ previous: columns[index - 1], next: columns[index + 1] }}
            columns={columns}
            onMove={move}
          />
        ))}
      </Box>
    </DndContext>
  );
}

interface LaneProps {
  resource: string;
  field: FieldDescriptor;
  column: KanbanColumn;
  filter: Record<string, unknown>;
  viewId: number | null;
  moves: Moves;
  neighbours: { previous?: KanbanColumn; next?: KanbanColumn };
  columns: KanbanColumn[];
  onMove: (record: CardRecord, to: KanbanColumn['value']) => void;
}

function KanbanLane({ resource, field, column, filter, viewId, moves, neighbours, columns, onMove }: LaneProps) {
  const [shown, setShown] = useState(KANBAN_PAGE);
  const { data, total, isPending, error } = useGetList<CardRecord>(resource, {
    pagination: { page: 1, perPage: shown },
    filter,
    meta: viewId ? { query: { view: viewId } } : undefined,
  });
  const { setNodeRef, isOver } = useDroppable({ id: columnKey(column.value), data: { value: column.value } });
  const key = columnKey(column.value);
  const arriving = [...moves.values()].filter((m) => columnKey(m.to) === key).map((m) => m.record);
  const staying = (data ?? []).filter((record) => !moves.has(record.id));
  const cards = [...arriving.filter((record) => !staying.some((s) => s.id === record.id)), ...staying];
  const count = (total ?? 0) + arriving.length - ((data ?? []).length - staying.length);
  return (
    <Box
      ref={setNodeRef}
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
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
          {cards.map((record) => (
            <KanbanCard
              key={record.id}
              resource={resource}
              field={field}
              record={record}
              here={column}
              neighbours={neighbours}
              columns={columns}
              onMove={onMove}
            />
          ))}
        </Box>
      )}
      {(total ?? 0) > shown && (
        <Button size="small" fullWidth sx={{ mt: 1 }} onClick={() => setShown((n) => n + KANBAN_PAGE)}>
          Show {Math.min(KANBAN_PAGE, (total ?? 0) - shown)} more
        </Button>
      )}
    </Box>
  );
}

interface CardProps {
  resource: string;
  field: FieldDescriptor;
  record: CardRecord;
  here: KanbanColumn;
  neighbours: { previous?: KanbanColumn; next?: KanbanColumn };
  columns: KanbanColumn[];
  onMove: (record: CardRecord, to: KanbanColumn['value']) => void;
}

function KanbanCard({ resource, field, record, here, neighbours, columns, onMove }: CardProps) {
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({
    id: `card-${record.id}`,
    data: { record },
  });
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const name = recordLabel(record) || `#${record.id}`;
  // Ctrl+← / Ctrl+→ move the focused card to the next column (dnd-kit's own keys: Space, the arrows, Space).
  const onKeyDown = (event: KeyboardEvent) => {
    if (!event.ctrlKey && !event.metaKey) return;
    const to = event.key === 'ArrowLeft' ? neighbours.previous : event.key === 'ArrowRight' ? neighbours.next : null;
    if (!to) return;
    event.preventDefault();
    onMove(record, to.value);
  };
  return (
    <Box component="li">
      <Card
        ref={setNodeRef}
        variant="outlined"
        data-testid="kanban-card"
        {...attributes}
        {...listeners}
        onKeyDown={(event) => {
          onKeyDown(event);
          if (!event.defaultPrevented) listeners?.onKeyDown?.(event);
        }}
        aria-roledescription="card"
        aria-label={`${name}, in ${here.label}. Ctrl and an arrow key moves it to the next column.`}
        sx={{
          p: 1,
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          cursor: 'grab',
          touchAction: 'manipulation',
          opacity: isDragging ? 0.6 : 1,
          transform: transform ? `translate3d(${transform.x}px, ${transform.y}px, 0)` : undefined,
          position: isDragging ? 'relative' : undefined,
          zIndex: isDragging ? 10 : undefined,
        }}
      >
        <Link
          component={RouterLink}
          to={recordPath(resource, record.id)}
          underline="hover"
          sx={{ overflowWrap: 'anywhere' }}
          onPointerDown={(event) => event.stopPropagation()}
        >
          {name}
        </Link>
        <Box sx={{ flex: 1, alignSelf: 'stretch', minWidth: 16 }} data-testid="kanban-handle" />
        <IconButton
          size="small"
          aria-label={`Move ${name} to another ${field.label.toLowerCase()}`}
          onPointerDown={(event) => event.stopPropagation()}
          onKeyDown={(event) => event.stopPropagation()}
          onClick={(event) => setMenu(event.currentTarget)}
        >
          <MoreIcon fontSize="small" />
        </IconButton>
      </Card>
      <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {columns
          .filter((column) => columnKey(column.value) !== columnKey(here.value))
          .map((column) => (
            <MenuItem
              key={columnKey(column.value)}
              onClick={() => {
                setMenu(null);
                onMove(record, column.value);
              }}
            >
              Move to {column.label}
            </MenuItem>
          ))}
      </Menu>
    </Box>
  );
}
