/**
 * One event of the calendar: the record's name (a link that opens it), draggable to another day, moved by keys on
 * its focus (Ctrl+← / Ctrl+→ a day, Ctrl+↑ / Ctrl+↓ a week) or by its menu.
 */
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
}

const KEY_DAYS: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
const MENU_MOVES: Array<[string, number]> = [
  ['A day earlier', -1],
  ['A day later', 1],
  ['A week earlier', -7],
  ['A week later', 7],
];

interface CalendarEventProps {
  resource: string;
  event: CalendarEventData;
  /** The day this copy of the event is drawn in (an event over several days is drawn in each). */
  day: string;
  onMove: (record: CalendarRecord, days: number) => void;
  dense?: boolean;
}

export function CalendarEvent({ resource, event, day, onMove, dense = false }: CalendarEventProps) {
  const movable = useMovable(`event-${event.record.id}-${day}`, { record: event.record, day }, (key) => {
    const days = KEY_DAYS[key];
    if (days) onMove(event.record, days);
    return Boolean(days);
  });
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const span = event.first === event.last ? longDay(event.first) : `${longDay(event.first)} to ${longDay(event.last)}`;
  return (
    <Box
      ref={movable.ref}
      data-testid="calendar-event"
      data-record-id={event.record.id}
      {...movable.props}
      aria-roledescription="event"
      aria-label={`${event.name}, ${span}. Ctrl and an arrow key moves it by a day or a week.`}
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
      <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {MENU_MOVES.map(([label, days]) => (
          <MenuItem
            key={label}
            onClick={() => {
              setMenu(null);
              onMove(event.record, days);
            }}
          >
            {label}
          </MenuItem>
        ))}
      </Menu>
    </Box>
  );
}
