/**
 * A list laid out as a calendar (docs/views.md "Calendar"): its records by a date or date-time field (or a start and
 * end pair) in a month, a week or an agenda, read for the days shown only, under the list's filters, saved view,
 * search and access. An event dragged to another day (or moved with Ctrl+arrows, or its menu) changes its date
 * through the data provider's update, the same write as the record's form: a refused change snaps back with the
 * server's reason. An event's name opens the record.
 */
import { DndContext, type DragEndEvent } from '@dnd-kit/core';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useCallback, useMemo, useState } from 'react';
import { useGetList, useListContext, useNotify } from 'react-admin';
import type { FieldDescriptor } from '../../../records/fieldTypes';
import { useRecordMutations } from '../../../records/mutations';
import { recordLabel } from '../../../records/schema';
import { useMoveSensors, usePendingMoves } from '../movable';
import { CalendarAgenda } from './CalendarAgenda';
import type { CalendarEventData, CalendarRecord } from './CalendarEvent';
import { CalendarGrid } from './CalendarGrid';
import {
  CALENDAR_MODES,
  type CalendarMode,
  type DateKind,
  dayKey,
  dayOfValue,
  daysBetween,
  laterDay,
  longDay,
  moveValue,
  rangeTitle,
  shiftAnchor,
  timeOfValue,
  visibleRange,
} from './calendarDates';
import { calendarFilter } from './calendarQuery';

/** The most events a calendar reads for the days it shows (a month of a busy type). */
export const CALENDAR_LIMIT = 500;

const kindOf = (field: FieldDescriptor): DateKind => (field.type === 'datetime' ? 'datetime' : 'date');

interface CalendarLayoutProps {
  resource: string;
  /** The start (or only) date field, and the end field of a start and end pair. */
  field: FieldDescriptor;
  end: FieldDescriptor | null;
  viewId: number | null;
  plural: string;
  /** The mode it opens in (the view's settings or the URL). */
  initialMode?: CalendarMode;
}

export function CalendarLayout({ resource, field, end, viewId, plural, initialMode = 'month' }: CalendarLayoutProps) {
  const { filterValues } = useListContext();
  const notify = useNotify();
  const { update } = useRecordMutations(resource);
  const [mode, setMode] = useState<CalendarMode>(initialMode);
  const [anchor, setAnchor] = useState(() => dayKey(new Date()));
  /** Events moved here whose write is not answered yet: shown where they were moved to meanwhile. */
  const { pending: moves, begin, end: settle } = usePendingMoves<CalendarRecord['id'], CalendarRecord>();
  const sensors = useMoveSensors();
  const start = useMemo(() => ({ slug: field.slug, kind: kindOf(field) }), [field]);
  const finish = useMemo(() => (end ? { slug: end.slug, kind: kindOf(end) } : null), [end]);
  const range = useMemo(() => visibleRange(mode, anchor), [mode, anchor]);
  const { data, total, isPending, error } = useGetList<CalendarRecord>(resource, {
    pagination: { page: 1, perPage: CALENDAR_LIMIT },
    sort: { field: field.slug, order: 'ASC' },
    filter: calendarFilter(filterValues ?? {}, range, start, finish),
    meta: viewId ? { query: { view: viewId } } : undefined,
  });

  const events = useMemo((): CalendarEventData[] => {
    const shown: CalendarEventData[] = [];
    for (const read of data ?? []) {
      const record = moves.get(read.id) ?? read;
      const first = dayOfValue(record[start.slug], start.kind);
      if (!first) continue;
      const last = (finish && dayOfValue(record[finish.slug], finish.kind)) || first;
      shown.push({
        record,
        first,
        last: laterDay(first, last),
        name: recordLabel(record) || `#${record.id}`,
        time: timeOfValue(record[start.slug], start.kind),
      });
    }
    return shown;
  }, [data, moves, start, finish]);

  const move = useCallback(
    async (record: CalendarRecord, days: number) => {
      if (!days) return;
      const changes: Record<string, unknown> = { [start.slug]: moveValue(record[start.slug], start.kind, days) };
      if (finish && record[finish.slug]) changes[finish.slug] = moveValue(record[finish.slug], finish.kind, days);
      const to = dayOfValue(changes[start.slug], start.kind);
      if (!to) return;
      begin(record.id, { ...record, ...changes });
      const name = recordLabel(record) || `#${record.id}`;
      // A refused change (422, 403) is told by the server's message; a conflict (409) too. The event goes back.
      const outcome = await update(record.id, changes, record, `${name} moved to ${longDay(to)}.`);
      if (outcome.conflict) notify(outcome.conflict, { type: 'error' });
      settle(record.id);
    },
    [start, finish, update, notify, begin, settle],
  );

  const onDragEnd = (event: DragEndEvent) => {
    const dragged = event.active.data.current as { record: CalendarRecord; day: string } | undefined;
    const day = event.over?.data.current?.day as string | undefined;
    if (dragged && day) void move(dragged.record, daysBetween(dragged.day, day));
  };

  const title = rangeTitle(mode, anchor);
  return (
    <Box data-testid="calendar-layout" sx={{ px: 1, pb: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, py: 0.5 }}>
        <IconButton
          aria-label={mode === 'week' ? 'Previous week' : 'Previous month'}
          onClick={() => setAnchor((day) => shiftAnchor(mode, day, -1))}
        >
          <ChevronLeftIcon />
        </IconButton>
        <Button size="small" onClick={() => setAnchor(dayKey(new Date()))}>
          Today
        </Button>
        <IconButton
          aria-label={mode === 'week' ? 'Next week' : 'Next month'}
          onClick={() => setAnchor((day) => shiftAnchor(mode, day, 1))}
        >
          <ChevronRightIcon />
        </IconButton>
        <Typography component="h2" variant="subtitle1" data-testid="calendar-title" aria-live="polite" sx={{ flex: 1 }}>
          {title}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={mode}
          onChange={(_event, next: CalendarMode | null) => next && setMode(next)}
          aria-label="Calendar shows"
        >
          {CALENDAR_MODES.map((each) => (
            <ToggleButton key={each} value={each} sx={{ textTransform: 'none' }}>
              {each[0].toUpperCase() + each.slice(1)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      {error ? (
        <Alert severity="error">{error instanceof Error ? error.message : 'This calendar could not be read.'}</Alert>
      ) : null}
      {(total ?? 0) > CALENDAR_LIMIT && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {`The first ${CALENDAR_LIMIT} of ${total} ${plural} are shown: narrow the list to see the rest.`}
        </Alert>
      )}
      {isPending ? (
        <Typography sx={{ p: 2 }}>Loading the calendar…</Typography>
      ) : (
        <DndContext sensors={sensors} onDragEnd={onDragEnd}>
          {mode === 'agenda' ? (
            <CalendarAgenda resource={resource} range={range} events={events} plural={plural} onMove={move} />
          ) : (
            <CalendarGrid
              resource={resource}
              range={range}
              anchor={anchor}
              mode={mode}
              events={events}
              label={`${plural} by ${field.label}, ${title}`}
              onMove={move}
              onShowWeek={(day) => {
                setAnchor(day);
                setMode('week');
              }}
            />
          )}
        </DndContext>
      )}
    </Box>
  );
}
