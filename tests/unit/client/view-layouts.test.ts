/**
 * The list layouts' logic without a browser (docs/views.md "Layouts"): which layout a URL or a view opens, what "Save
 * as view" keeps, the days a calendar shows, the value an event moved by days gets, and the filter that limits a
 * calendar's records to the days shown.
 */
import { describe, expect, it } from 'vitest';
import type { FieldDescriptor } from '../../../src/client/records/fieldTypes';
import {
  dayOfValue,
  daysBetween,
  daysOf,
  moveValue,
  shiftAnchor,
  visibleRange,
} from '../../../src/client/views/layouts/calendar/calendarDates';
import { calendarFilter } from '../../../src/client/views/layouts/calendar/calendarQuery';
import { layoutOf } from '../../../src/client/views/layouts/useLayout';
import type { SavedView } from '../../../src/client/views/useSavedView';

const descriptor = (slug: string, type: string, extra: Partial<FieldDescriptor> = {}) =>
  ({
    slug,
    label: slug,
    type,
    readOnly: false,
    multiple: false,
    choices: [],
    required: false,
    ...extra,
  }) as FieldDescriptor;

const fields = [
  descriptor('name', 'text'),
  descriptor('type', 'dropdown', { choices: [{ id: 'union', name: 'Union' }] }),
  descriptor('bid_date', 'date'),
  descriptor('kickoff_date', 'date'),
  descriptor('created_at', 'datetime', { readOnly: true }),
  descriptor('attachments', 'attachment', { readOnly: true }),
  descriptor('location', 'geo-point'),
];

const view = (layout: string, settings: Record<string, unknown>) => ({ id: 1, layout, settings }) as SavedView;

describe('the layout a list opens in', () => {
  it('reads the URL first: a calendar by a start and an end, a gallery with its fields (at most four)', () => {
    const calendar = layoutOf(
      new URLSearchParams('layout=calendar&by=bid_date&end=kickoff_date&mode=week'),
      undefined,
      fields,
    );
    expect(calendar).toMatchObject({ kind: 'calendar', mode: 'week' });
    expect(calendar?.field.slug).toBe('bid_date');
    expect(calendar?.end?.slug).toBe('kickoff_date');
    const gallery = layoutOf(
      new URLSearchParams('layout=gallery&fields=name,type,bid_date,kickoff_date,location,gone'),
      undefined,
      fields,
    );
    expect(gallery?.field.slug).toBe('attachments');
    expect(gallery?.fields).toEqual(['name', 'type', 'bid_date', 'kickoff_date']);
  });

  it("opens a view's layout and settings, which layout=grid in the URL overrides", () => {
    const saved = view('calendar', { field: 'kickoff_date', mode: 'agenda' });
    expect(layoutOf(new URLSearchParams(''), saved, fields)).toMatchObject({ kind: 'calendar', mode: 'agenda' });
    expect(layoutOf(new URLSearchParams('layout=grid'), saved, fields)).toBeNull();
  });

  it('gives the grid for a field that cannot lay the layout out (read-only date, text) or is gone', () => {
    expect(layoutOf(new URLSearchParams('layout=calendar&by=created_at'), undefined, fields)).toBeNull();
    expect(layoutOf(new URLSearchParams('layout=calendar&by=name'), undefined, fields)).toBeNull();
    expect(layoutOf(new URLSearchParams(''), view('gallery', { field: 'photos' }), fields)).toBeNull();
    expect(layoutOf(new URLSearchParams('layout=calendar'), undefined, [descriptor('name', 'text')])).toBeNull();
  });
});

describe('the days a calendar shows', () => {
  it('shows whole weeks from Monday around a month, one week, or the month for the agenda', () => {
    expect(visibleRange('month', '2026-11-15')).toEqual({ first: '2026-10-26', last: '2026-12-06' });
    expect(visibleRange('week', '2026-11-29')).toEqual({ first: '2026-11-23', last: '2026-11-29' });
    expect(visibleRange('agenda', '2026-02-10')).toEqual({ first: '2026-02-01', last: '2026-02-28' });
    expect(daysOf(visibleRange('month', '2026-11-15'))).toHaveLength(42);
    expect(shiftAnchor('month', '2026-01-31', 1)).toBe('2026-02-01');
    expect(shiftAnchor('week', '2026-11-29', -1)).toBe('2026-11-22');
  });

  it('counts days across a daylight-saving change and moves a day or a date-time by days, keeping its time', () => {
    expect(daysBetween('2026-03-07', '2026-03-09')).toBe(2);
    expect(daysBetween('2026-11-02', '2026-10-31')).toBe(-2);
    expect(moveValue('2026-11-29', 'date', 3)).toBe('2026-12-02');
    const moved = moveValue('2026-11-29T15:30:00.000Z', 'datetime', 1)!;
    expect(dayOfValue(moved, 'datetime')).toBe(
      dayOfValue(new Date(Date.parse('2026-11-29T15:30:00.000Z') + 86_400_000).toISOString(), 'datetime'),
    );
    expect(new Date(moved).getMinutes()).toBe(new Date('2026-11-29T15:30:00.000Z').getMinutes());
    expect(moveValue(null, 'date', 1)).toBeNull();
    expect(dayOfValue('not a date', 'datetime')).toBeNull();
  });
});

describe("a calendar's filter", () => {
  const range = { first: '2026-10-26', last: '2026-12-06' };
  it("limits the list's own filters to the days shown", () => {
    expect(calendarFilter({ type: 'union' }, range, { slug: 'bid_date', kind: 'date' }, null)).toEqual({
      type: 'union',
      filters: {
        all: [
          { field: 'bid_date', op: 'gte', value: '2026-10-26' },
          { field: 'bid_date', op: 'lt', value: '2026-12-07' },
        ],
      },
    });
  });

  it('finds a start and end pair that overlaps the days shown, or a start in them without an end, ANDed with filters= of the list', () => {
    const listed = { any: [{ field: 'type', op: 'eq', value: 'union' }] };
    const filter = calendarFilter(
      { filters: listed },
      range,
      { slug: 'bid_date', kind: 'date' },
      { slug: 'kickoff_date', kind: 'date' },
    );
    expect(filter).toEqual({
      filters: {
        all: [
          listed,
          {
            all: [
              { field: 'bid_date', op: 'lt', value: '2026-12-07' },
              {
                any: [
                  { field: 'kickoff_date', op: 'gte', value: '2026-10-26' },
                  {
                    all: [
                      { field: 'kickoff_date', op: 'empty' },
                      { field: 'bid_date', op: 'gte', value: '2026-10-26' },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    });
  });
});
