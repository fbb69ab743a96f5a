/**
 * The records a calendar reads: the list's own filters (with its view, search and access applied by the server, as
 * for the grid) and one more condition, the days shown. With an end field, a record is shown when its start is on or
 * before the last day shown and its end (or, without an end, its start) is on or after the first: the view filter
 * structure (`filters=`, docs/views.md) carries that OR, ANDed with any the list already has.
 */
import { addDays, type DateKind, parseDay } from './calendarDates';

type Condition = { field: string; op: string; value?: unknown };
type Group = { all: Array<Condition | Group> } | { any: Array<Condition | Group> };

/** A day as the field compares it: the day itself, or the moment its local midnight is. */
const bound = (day: string, kind: DateKind) => (kind === 'date' ? day : parseDay(day).toISOString());

export function calendarFilter(
  listFilter: Record<string, unknown>,
  range: { first: string; last: string },
  start: { slug: string; kind: DateKind },
  end: { slug: string; kind: DateKind } | null,
): Record<string, unknown> {
  const after = addDays(range.last, 1);
  const startsBy: Condition = { field: start.slug, op: 'lt', value: bound(after, start.kind) };
  const endsFrom = (field: { slug: string; kind: DateKind }): Condition => ({
    field: field.slug,
    op: 'gte',
    value: bound(range.first, field.kind),
  });
  const shown: Group = end
    ? {
        all: [startsBy, { any: [endsFrom(end), { all: [{ field: end.slug, op: 'empty' }, endsFrom(start)] }] }],
      }
    : { all: [endsFrom(start), startsBy] };
  const { filters: existing, ...rest } = listFilter;
  const filters = existing && typeof existing === 'object' ? { all: [existing as Group, shown] } : shown;
  return { ...rest, filters };
}
