/**
 * One event of the calendar: the record's name (a click opens it in the side panel; its link opens the page in a new
 * tab or with a modifier), draggable to another day (or hour), moved by keys on its focus (Ctrl+← / Ctrl+→ a day,
 * Ctrl+↑ / Ctrl+↓ a week) or by its menu. With an end field, its last day has a handle that drags its end to another
 * day; Ctrl+Shift+← / → and the menu change the end by a day too.
 */
import { useDraggable } from '@dnd-kit/core';
import MoreIcon from '@mui/icons-material/MoreVert';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { recordPath } from '../../../records/recordPath';
import { useMovable } from '../movable';
import { longDay } from './calendarDates';

export type CalendarRecord = { id: number | string } & Record<string, unknown>;

/** A record as the calendar shows it: the days it covers (one, or a start to an end). */
export interface CalendarEventData {
  record: CalendarRecord;
  first: string;
  last: string;
  name: string;
  /** A date-time's time of day ("15:30"), shown before the name. */
  time: string | null;
  /** A date-time's local starting hour (its row in a week's hours). */
  hour: number | null;
}

/** What an event can do, the same for every event of a calendar. */
export interface EventActions {
  onMove: (record: CalendarRecord, days: number, minutes?: number) => void;
  /** Moves the end by days; null: the calendar has no end field. */
  onResize: ((record: CalendarRecord, days: number) => void) | null;
  onOpen: (record: CalendarRecord) => void;
}

const KEY_DAYS: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
const MENU_MOVES: Array<[string, number]> = [
  ['A day earlier', -1],
  ['A day later', 1],
  ['A week earlier', -7],
  ['A week later', 7],
];
const MENU_RESIZES: Array<[string, number]> = [
  ['End a day earlier', -1],
  ['End a day later', 1],
];

interface CalendarEventProps {
  resource: string;
  event: CalendarEventData;
  /** The day this copy of the event is drawn in (an event over several days is drawn in each). */
  day: string;
  actions: EventActions;
  dense?: boolean;
}

export function CalendarEvent({ resource, event, day, actions, dense = false }: CalendarEventProps) {
  const { onMove, onResize, onOpen } = actions;
  const movable = useMovable(`event-${event.record.id}-${day}`, { record: event.record, day }, (key, shift) => {
    if (shift) {
      const days = key === 'ArrowLeft' ? -1 : key === 'ArrowRight' ? 1 : 0;
      if (days && onResize) onResize(event.record, days);
      return Boolean(days && onResize);
    }
    const days = KEY_DAYS[key];
    if (days) onMove(event.record, days);
    return Boolean(days);
  });
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const span = event.first === event.last ? longDay(event.first) : `${longDay(event.first)} to ${longDay(event.last)}`;
  const keys = `Ctrl and an arrow key moves it by a day or a week${onResize ? ', Ctrl, Shift and ← or → its end by a day' : ''}.`;
  return (
    <Box
      ref={movable.ref}
      data-testid="calendar-event"
      data-record-id={event.record.id}
      {...movable.props}
      aria-roledescription="event"
      aria-label={`${event.name}, ${span}. ${keys}`}
      sx={{
        display: 'flex',
        alignItems: 'center',
        minWidth: 0,
        borderRadius: 1,
        bgcolor: 'primary.50',
        border: 1,
        borderColor: 'primary.light',
        px: 0.5,
        fontSize: dense ? 12 : 14,
        ...movable.sx,
        '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' },
      }}
    >
      <Link
        component={RouterLink}
        to={recordPath(resource, event.record.id)}
        underline="hover"
        onPointerDown={(pointer) => pointer.stopPropagation()}
        onClick={(click) => {
          // A plain click opens the side panel; Ctrl, ⌘, Shift or a middle click still open the page.
          if (click.ctrlKey || click.metaKey || click.shiftKey || click.button !== 0) return;
          click.preventDefault();
          onOpen(event.record);
        }}
        sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {event.time ? `${event.time} ${event.name}` : event.name}
      </Link>
      {!dense && (
        <IconButton
          size="small"
          sx={{ p: 0.25 }}
          aria-label={`Move ${event.name} to another day`}
          onPointerDown={(pointer) => pointer.stopPropagation()}
          onKeyDown={(keyEvent) => keyEvent.stopPropagation()}
          onClick={(click) => setMenu(click.currentTarget)}
        >
          <MoreIcon fontSize="inherit" />
        </IconButton>
      )}
      {onResize && day === event.last && <EndHandle event={event} day={day} />}
      <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {[...MENU_MOVES, ...(onResize ? MENU_RESIZES : [])].map(([label, days]) => (
          <MenuItem
            key={label}
            onClick={() => {
              setMenu(null);
              if (label.startsWith('End')) onResize?.(event.record, days);
              else onMove(event.record, days);
            }}
          >
            {label}
          </MenuItem>
        ))}
      </Menu>
    </Box>
  );
}

/** The handle on an event's last day that drags its end to another day (dnd-kit's keys work on it too). */
function EndHandle({ event, day }: { event: CalendarEventData; day: string }) {
  const { attributes, listeners, setNodeRef, transform } = useDraggable({
    id: `end-${event.record.id}-${day}`,
    data: { record: event.record, day, resize: true },
  });
  return (
    <Box
      ref={setNodeRef}
      data-testid="calendar-event-end"
      {...attributes}
      {...listeners}
      aria-label={`Change when ${event.name} ends`}
      onKeyDown={(keyEvent) => {
        keyEvent.stopPropagation();
        listeners?.onKeyDown?.(keyEvent);
      }}
      style={{ transform: transform ? `translate3d(${transform.x}px, 0, 0)` : undefined }}
      sx={{
        alignSelf: 'stretch',
        width: 8,
        flex: '0 0 8px',
        cursor: 'ew-resize',
        touchAction: 'none',
        borderLeft: 2,
        borderColor: 'primary.main',
        borderRadius: '0 4px 4px 0',
        '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' },
      }}
    />
  );
}
