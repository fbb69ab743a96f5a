/**
 * A week by a date-time field as an hour grid (wider than a phone): a column per day, a row per hour, each event in
 * the hour it starts; dropping an event on an hour moves it to that day and hour (its minutes kept). The days an
 * event goes on over after its first are listed above the hours. Opens scrolled to 8:00.
 */
import { useDroppable } from '@dnd-kit/core';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { CalendarEvent, type CalendarEventData, type EventActions } from './CalendarEvent';
import { dayKey, longDay, parseDay } from './calendarDates';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const HOUR_HEIGHT = 44;
const FIRST_SHOWN_HOUR = 8;
const COLUMNS = '56px repeat(7, minmax(0, 1fr))';
const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

interface CalendarHoursProps {
  resource: string;
  days: string[];
  events: CalendarEventData[];
  label: string;
  actions: EventActions;
}

export function CalendarHours({ resource, days, events, label, actions }: CalendarHoursProps) {
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = FIRST_SHOWN_HOUR * HOUR_HEIGHT;
  }, []);
  const today = dayKey(new Date());
  const continuing = days.map((day) => events.filter((event) => event.first < day && day <= event.last));
  return (
    <Box role="group" aria-label={label} data-testid="calendar-hours">
      <Box sx={{ display: 'grid', gridTemplateColumns: COLUMNS, borderBottom: 1, borderColor: 'divider' }}>
        <span />
        {days.map((day, index) => (
          <Box key={day} sx={{ px: 0.5, minWidth: 0, display: 'grid', gap: 0.25, pb: 0.5 }}>
            <Typography
              variant="caption"
              sx={{ fontWeight: day === today ? 700 : 400, color: day === today ? 'primary.main' : 'text.primary' }}
            >
              {parseDay(day).toLocaleDateString('en-US', { weekday: 'short', day: 'numeric' })}
            </Typography>
            {continuing[index].map((event) => (
              <CalendarEvent
                key={event.record.id}
                resource={resource}
                event={event}
                day={day}
                actions={actions}
                dense
              />
            ))}
          </Box>
        ))}
      </Box>
      <Box ref={scroller} sx={{ maxHeight: '65vh', overflowY: 'auto' }}>
        <Box sx={{ display: 'grid', gridTemplateColumns: COLUMNS }}>
          {HOURS.map((hour) => [
            <Typography
              key={`label-${hour}`}
              variant="caption"
              color="text.secondary"
              sx={{ height: HOUR_HEIGHT, pr: 0.5, textAlign: 'right', borderTop: 1, borderColor: 'divider' }}
            >
              {hourLabel(hour)}
            </Typography>,
            ...days.map((day) => (
              <HourCell
                key={`${day}-${hour}`}
                resource={resource}
                day={day}
                hour={hour}
                events={events.filter((event) => event.first === day && event.hour === hour)}
                actions={actions}
              />
            )),
          ])}
        </Box>
      </Box>
    </Box>
  );
}

interface HourCellProps {
  resource: string;
  day: string;
  hour: number;
  events: CalendarEventData[];
  actions: EventActions;
}

function HourCell({ resource, day, hour, events, actions }: HourCellProps) {
  const { setNodeRef, isOver } = useDroppable({ id: `hour-${day}-${hour}`, data: { day, hour } });
  return (
    <Box
      ref={setNodeRef}
      data-testid={`calendar-hour-${day}-${hour}`}
      aria-label={events.length ? `${longDay(day)}, ${hourLabel(hour)}: ${events.length} events` : undefined}
      sx={{
        minHeight: HOUR_HEIGHT,
        minWidth: 0,
        p: 0.25,
        borderTop: 1,
        borderLeft: 1,
        borderColor: 'divider',
        bgcolor: isOver ? 'action.selected' : 'background.paper',
        display: 'grid',
        alignContent: 'start',
        gap: 0.25,
      }}
    >
      {events.map((event) => (
        <CalendarEvent key={event.record.id} resource={resource} event={event} day={day} actions={actions} dense />
      ))}
    </Box>
  );
}
