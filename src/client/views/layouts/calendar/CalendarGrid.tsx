/**
 * The month and week of the calendar: a cell per day (weeks from Monday), each a place an event can be dropped on.
 * A week is seven rows on a phone, seven columns wider up; by a date-time field, wider up, it is an hour grid
 * (CalendarHours.tsx).
 */
import { useDroppable } from '@dnd-kit/core';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { CalendarEvent, type CalendarEventData, type EventActions } from './CalendarEvent';
import { CalendarHours } from './CalendarHours';
import { type CalendarMode, dayKey, daysOf, longDay, parseDay } from './calendarDates';

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
/** Events a month's day lists before "+ n more". */
const MONTH_DAY_EVENTS = 3;

interface CalendarGridProps {
  resource: string;
  range: { first: string; last: string };
  anchor: string;
  mode: Exclude<CalendarMode, 'agenda'>;
  events: CalendarEventData[];
  label: string;
  /** Events by a date-time field: a week wider than a phone is an hour grid. */
  hours: boolean;
  actions: EventActions;
  /** Opens the week of a month's day whose events did not all fit ("+ n more"). */
  onShowWeek: (day: string) => void;
}

export function CalendarGrid({
  resource,
  range,
  anchor,
  mode,
  events,
  label,
  hours,
  actions,
  onShowWeek,
}: CalendarGridProps) {
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('sm'));
  const days = daysOf(range);
  const today = dayKey(new Date());
  const month = anchor.slice(0, 7);
  const week = mode === 'week';
  if (week && hours && wide)
    return <CalendarHours resource={resource} days={days} events={events} label={label} actions={actions} />;
  return (
    <Box role="group" aria-label={label}>
      <Box
        aria-hidden
        sx={{ display: week ? { xs: 'none', sm: 'grid' } : 'grid', gridTemplateColumns: 'repeat(7, minmax(0, 1fr))' }}
      >
        {WEEKDAYS.map((weekday) => (
          <Typography key={weekday} variant="caption" color="text.secondary" sx={{ px: 0.5 }}>
            {weekday}
          </Typography>
        ))}
      </Box>
      <Box
        role="list"
        sx={{
          display: 'grid',
          gridTemplateColumns: week ? { xs: '1fr', sm: 'repeat(7, minmax(0, 1fr))' } : 'repeat(7, minmax(0, 1fr))',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          overflow: 'hidden',
        }}
      >
        {days.map((day) => (
          <CalendarDay
            key={day}
            resource={resource}
            day={day}
            events={events.filter((event) => event.first <= day && day <= event.last)}
            outside={!week && day.slice(0, 7) !== month}
            today={day === today}
            week={week}
            actions={actions}
            onShowWeek={onShowWeek}
          />
        ))}
      </Box>
    </Box>
  );
}

interface CalendarDayProps {
  resource: string;
  day: string;
  events: CalendarEventData[];
  outside: boolean;
  today: boolean;
  week: boolean;
  actions: EventActions;
  onShowWeek: (day: string) => void;
}

function CalendarDay({ resource, day, events, outside, today, week, actions, onShowWeek }: CalendarDayProps) {
  const { setNodeRef, isOver } = useDroppable({ id: `day-${day}`, data: { day } });
  const shown = week ? events : events.slice(0, MONTH_DAY_EVENTS);
  const date = parseDay(day);
  return (
    <Box
      ref={setNodeRef}
      role="listitem"
      data-testid={`calendar-day-${day}`}
      aria-label={`${longDay(day)}: ${events.length} ${events.length === 1 ? 'event' : 'events'}`}
      sx={{
        minWidth: 0,
        minHeight: week ? { xs: 56, sm: 240 } : { xs: 64, sm: 104 },
        p: 0.25,
        borderRight: 1,
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: isOver ? 'action.selected' : outside ? 'action.hover' : 'background.paper',
        display: 'flex',
        flexDirection: 'column',
        gap: 0.25,
      }}
    >
      <Typography
        variant="caption"
        sx={{
          fontWeight: today ? 700 : 400,
          color: outside ? 'text.disabled' : today ? 'primary.main' : 'text.primary',
        }}
      >
        {week ? date.toLocaleDateString('en-US', { weekday: 'short', day: 'numeric' }) : date.getDate()}
      </Typography>
      {shown.map((event) => (
        <CalendarEvent
          key={event.record.id}
          resource={resource}
          event={event}
          day={day}
          actions={actions}
          dense={!week}
        />
      ))}
      {events.length > shown.length && (
        <Button
          size="small"
          onClick={() => onShowWeek(day)}
          aria-label={`${events.length - shown.length} more on ${longDay(day)}: show the week`}
          sx={{
            alignSelf: 'flex-start',
            minWidth: 0,
            px: 0.5,
            py: 0,
            textTransform: 'none',
            fontSize: 'caption.fontSize',
          }}
        >
          + {events.length - shown.length} more
        </Button>
      )}
    </Box>
  );
}
