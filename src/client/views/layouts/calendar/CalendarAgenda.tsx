/** The agenda of the calendar: the days of the month that have events, in order, each with its events. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { CalendarEvent, type CalendarEventData, type EventActions } from './CalendarEvent';
import { daysOf, longDay } from './calendarDates';

interface CalendarAgendaProps {
  resource: string;
  range: { first: string; last: string };
  events: CalendarEventData[];
  plural: string;
  actions: EventActions;
}

export function CalendarAgenda({ resource, range, events, plural, actions }: CalendarAgendaProps) {
  const days = daysOf(range)
    .map((day) => ({ day, events: events.filter((event) => event.first <= day && day <= event.last) }))
    .filter((entry) => entry.events.length > 0);
  if (!days.length) return <Typography sx={{ p: 2 }}>{`No ${plural} this month.`}</Typography>;
  return (
    <Box component="ol" aria-label={`Agenda of ${plural}`} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {days.map(({ day, events: onDay }) => (
        <Box
          component="li"
          key={day}
          data-testid={`agenda-day-${day}`}
          sx={{ py: 1, borderBottom: 1, borderColor: 'divider' }}
        >
          <Typography component="h3" variant="subtitle2">
            {longDay(day)}
          </Typography>
          <Box sx={{ display: 'grid', gap: 0.5, mt: 0.5, maxWidth: 480 }}>
            {onDay.map((event) => (
              <CalendarEvent key={event.record.id} resource={resource} event={event} day={day} actions={actions} />
            ))}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
