/**
 * A list laid out as a calendar (docs/views.md "Calendar"): its records by a date or date-time field (or a start and
 * end pair) in a month, a week or an agenda, read for the days shown only, under the list's filters, saved view,
 * search and access. An event dragged to another day (or moved with Ctrl+arrows, or its menu) changes its date
 * through the data provider's update, the same write as the record's form: a refused change snaps back with the
 * server's reason. With an end field, an event's end is dragged (or moved by keys or its menu) to another day the same
 * way. An event's name opens the record in the side panel. The mode and the month (or week) shown are kept in the URL
 * (`mode=week&date=2026-11-23`, `date=2026-11`), so a reload or a link shows the same.
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
import { useLocation, useNavigate } from 'react-router-dom';
import { SidePanel } from '../../../layout/SidePanel';
import { RecordPanel } from '../../../map/RecordPanel';
import type { FieldDescriptor } from '../../../records/fieldTypes';
import { useRecordMutations } from '../../../records/mutations';
import { recordPath } from '../../../records/recordPath';
import { recordLabel } from '../../../records/schema';
import { useMoveSensors, usePendingMoves } from '../movable';
import { CalendarAgenda } from './CalendarAgenda';
import type { CalendarEventData, CalendarRecord, EventActions } from './CalendarEvent';
import { CalendarGrid } from './CalendarGrid';
import {
  anchorOfParam,
  anchorParam,
  CALENDAR_MODES,
  type CalendarMode,
  type DateKind,
  dayKey,
  dayOfValue,
  daysBetween,
  hourOfValue,
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
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(search);
  const asked = params.get('mode') as CalendarMode | null;
  const mode: CalendarMode = asked && CALENDAR_MODES.includes(asked) ? asked : initialMode;
  const anchor = anchorOfParam(params.get('date')) ?? dayKey(new Date());
  /** Shows another mode or month (week), written to the URL in place of the last. */
  const show = (next: { mode?: CalendarMode; anchor?: string }) => {
    const url = new URLSearchParams(search);
    const nextMode = next.mode ?? mode;
    url.set('mode', nextMode);
    url.set('date', anchorParam(nextMode, next.anchor ?? anchor));
    void navigate({ pathname, search: `?${url}` }, { replace: true });
  };
  const [opened, setOpened] = useState<CalendarRecord | null>(null);
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
        hour: hourOfValue(record[start.slug], start.kind),
      });
    }
    return shown;
  }, [data, moves, start, finish]);

  /** One write of the moved or resized event, shown where it goes meanwhile; a refusal puts it back. */
  const write = useCallback(
    async (record: CalendarRecord, changes: Record<string, unknown>, message: string) => {
      begin(record.id, { ...record, ...changes });
      // A refused change (422, 403) is told by the server's message; a conflict (409) too. The event goes back.
      const outcome = await update(record.id, changes, record, message);
      if (outcome.conflict) notify(outcome.conflict, { type: 'error' });
      settle(record.id);
    },
    [update, notify, begin, settle],
  );

  const move = useCallback(
    async (record: CalendarRecord, days: number, minutes = 0) => {
      if (!days && !minutes) return;
      const changes: Record<string, unknown> = {
        [start.slug]: moveValue(record[start.slug], start.kind, days, minutes),
      };
      if (finish && record[finish.slug])
        changes[finish.slug] = moveValue(record[finish.slug], finish.kind, days, minutes);
      const to = dayOfValue(changes[start.slug], start.kind);
      if (!to) return;
      const time = timeOfValue(changes[start.slug], start.kind);
      const name = recordLabel(record) || `#${record.id}`;
      await write(record, changes, `${name} moved to ${longDay(to)}${time ? ` at ${time}` : ''}.`);
    },
    [start, finish, write],
  );

  /** The end moved by days (an event without an end gets one, from its start); never before the start. */
  const resize = useCallback(
    async (record: CalendarRecord, days: number) => {
      if (!finish || !days) return;
      const from = record[finish.slug]
        ? record[finish.slug]
        : finish.kind === 'date'
          ? dayOfValue(record[start.slug], start.kind)
          : record[start.slug];
      const value = moveValue(from, finish.kind, days);
      const last = dayOfValue(value, finish.kind);
      const first = dayOfValue(record[start.slug], start.kind);
      if (!value || !last || !first) return;
      const name = recordLabel(record) || `#${record.id}`;
      if (last < first) {
        notify(`${name} cannot end before it starts.`, { type: 'warning' });
        return;
      }
      await write(record, { [finish.slug]: value }, `${name} now ends on ${longDay(last)}.`);
    },
    [start, finish, write, notify],
  );

  const actions = useMemo<EventActions>(
    () => ({ onMove: move, onResize: finish ? resize : null, onOpen: setOpened }),
    [move, resize, finish],
  );

  const onDragEnd = (event: DragEndEvent) => {
    const dragged = event.active.data.current as { record: CalendarRecord; day: string; resize?: boolean } | undefined;
    const over = event.over?.data.current as { day?: string; hour?: number } | undefined;
    if (!dragged || !over?.day) return;
    const days = daysBetween(dragged.day, over.day);
    if (dragged.resize) return void resize(dragged.record, days);
    const hour = hourOfValue(dragged.record[start.slug], start.kind);
    const minutes = over.hour !== undefined && hour !== null ? (over.hour - hour) * 60 : 0;
    void move(dragged.record, days, minutes);
  };

  const title = rangeTitle(mode, anchor);
  return (
    <Box data-testid="calendar-layout" sx={{ px: 1, pb: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, py: 0.5 }}>
        <IconButton
          aria-label={mode === 'week' ? 'Previous week' : 'Previous month'}
          onClick={() => show({ anchor: shiftAnchor(mode, anchor, -1) })}
        >
          <ChevronLeftIcon />
        </IconButton>
        <Button size="small" onClick={() => show({ anchor: dayKey(new Date()) })}>
          Today
        </Button>
        <IconButton
          aria-label={mode === 'week' ? 'Next week' : 'Next month'}
          onClick={() => show({ anchor: shiftAnchor(mode, anchor, 1) })}
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
          onChange={(_event, next: CalendarMode | null) => next && show({ mode: next })}
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
            <CalendarAgenda resource={resource} range={range} events={events} plural={plural} actions={actions} />
          ) : (
            <CalendarGrid
              resource={resource}
              range={range}
              anchor={anchor}
              mode={mode}
              events={events}
              label={`${plural} by ${field.label}, ${title}`}
              hours={start.kind === 'datetime'}
              actions={actions}
              onShowWeek={(day) => show({ mode: 'week', anchor: day })}
            />
          )}
        </DndContext>
      )}
      <SidePanel
        open={Boolean(opened)}
        onClose={() => setOpened(null)}
        title={opened ? recordLabel(opened) || `#${opened.id}` : ''}
      >
        {opened && (
          <RecordPanel
            resource={resource}
            id={Number(opened.id)}
            onOpen={() => void navigate(recordPath(resource, opened.id))}
          />
        )}
      </SidePanel>
    </Box>
  );
}
