/**
 * The date arithmetic of the calendar layout, without React: the days a month, week or agenda shows, a record's day
 * in the calendar, the value a field gets when its event is moved to another day, and the list filter that limits
 * the records read to the days shown. Days are the browser's local days, written `YYYY-MM-DD`.
 */

export type CalendarMode = 'month' | 'week' | 'agenda';
export const CALENDAR_MODES: readonly CalendarMode[] = ['month', 'week', 'agenda'];

/** A date or date-time field holds a day (`2026-11-29`) or a moment (`2026-11-29T15:30:00.000Z`). */
export type DateKind = 'date' | 'datetime';

const pad = (n: number) => String(n).padStart(2, '0');

/** A local day as `YYYY-MM-DD`. */
export const dayKey = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The local midnight of a `YYYY-MM-DD` day. */
export function parseDay(key: string): Date {
  const [year, month, day] = key.split('-').map(Number);
  return new Date(year, month - 1, day);
}

export function addDays(key: string, days: number): string {
  const date = parseDay(key);
  date.setDate(date.getDate() + days);
  return dayKey(date);
}

/** Whole days from one day to another (across a daylight-saving change too). */
export function daysBetween(from: string, to: string): number {
  const a = parseDay(from);
  const b = parseDay(to);
  return Math.round(
    (Date.UTC(b.getFullYear(), b.getMonth(), b.getDate()) - Date.UTC(a.getFullYear(), a.getMonth(), a.getDate())) /
      86_400_000,
  );
}

/** The later of two days (an end before its start is read as the start). */
export const laterDay = (a: string, b: string) => (a.localeCompare(b) < 0 ? b : a);

/** The Monday of the week a day is in (weeks start on Monday). */
export function weekStart(key: string): string {
  const weekday = (parseDay(key).getDay() + 6) % 7;
  return addDays(key, -weekday);
}

export const monthStart = (key: string) => `${key.slice(0, 7)}-01`;

/** The first and last day a mode shows around a day: a month's whole weeks, one week, or the month for the agenda. */
export function visibleRange(mode: CalendarMode, anchor: string): { first: string; last: string } {
  if (mode === 'week') {
    const first = weekStart(anchor);
    return { first, last: addDays(first, 6) };
  }
  const start = monthStart(anchor);
  const end = addDays(monthStart(addDays(start, 31)), -1);
  if (mode === 'agenda') return { first: start, last: end };
  return { first: weekStart(start), last: addDays(weekStart(end), 6) };
}

/** Every day from first to last. */
export function daysOf(range: { first: string; last: string }): string[] {
  const days: string[] = [];
  for (let day = range.first; day <= range.last; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The day before or after the anchor by one page of the mode (a month, or a week). */
export function shiftAnchor(mode: CalendarMode, anchor: string, step: 1 | -1): string {
  if (mode === 'week') return addDays(anchor, 7 * step);
  const start = parseDay(monthStart(anchor));
  start.setMonth(start.getMonth() + step);
  return dayKey(start);
}

/** The local day a field's value falls on, or null when it has none (or is not a date). */
export function dayOfValue(value: unknown, kind: DateKind): string | null {
  if (typeof value !== 'string' || !value) return null;
  if (kind === 'date' || /^\d{4}-\d{2}-\d{2}$/.test(value))
    return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
  const moment = new Date(value);
  return Number.isNaN(moment.getTime()) ? null : dayKey(moment);
}

/** The time of day a date-time shows beside its event ("15:30"), or null for a day. */
export function timeOfValue(value: unknown, kind: DateKind): string | null {
  if (kind !== 'datetime' || typeof value !== 'string') return null;
  const moment = new Date(value);
  return Number.isNaN(moment.getTime()) ? null : `${pad(moment.getHours())}:${pad(moment.getMinutes())}`;
}

/** A value moved by whole days (and, for a date-time, minutes): a day stays a day; a date-time keeps its local time. */
export function moveValue(value: unknown, kind: DateKind, days: number, minutes = 0): string | null {
  const day = dayOfValue(value, kind);
  if (day === null) return null;
  if (kind === 'date') return addDays(day, days);
  const moment = new Date(value as string);
  moment.setDate(moment.getDate() + days);
  moment.setMinutes(moment.getMinutes() + minutes);
  return moment.toISOString();
}

/** The local hour (0-23) a date-time starts in, or null. */
export function hourOfValue(value: unknown, kind: DateKind): number | null {
  if (kind !== 'datetime' || typeof value !== 'string') return null;
  const moment = new Date(value);
  return Number.isNaN(moment.getTime()) ? null : moment.getHours();
}

/**
 * The shown month or week as the URL keeps it (`date=`): the month ("2026-11") for a month or an agenda, the day for a
 * week; and back (a month reads as its first day). Anything else: null.
 */
export const anchorParam = (mode: CalendarMode, anchor: string) => (mode === 'week' ? anchor : anchor.slice(0, 7));
export function anchorOfParam(param: string | null): string | null {
  if (!param || !/^\d{4}-\d{2}(-\d{2})?$/.test(param)) return null;
  const day = param.length === 7 ? `${param}-01` : param;
  return Number.isNaN(parseDay(day).getTime()) || dayKey(parseDay(day)) !== day ? null : day;
}

/**
 * The list filter (list dialect, docs/api.md) for the records whose field falls within the days shown: a day field
 * from the first to the last day, a date-time from the first local midnight up to the midnight after the last day.
 */
export function rangeFilter(
  slug: string,
  kind: DateKind,
  range: { first: string; last: string },
): Record<string, string> {
  if (kind === 'date') return { [`${slug}_gte`]: range.first, [`${slug}_lte`]: range.last };
  return {
    [`${slug}_gte`]: parseDay(range.first).toISOString(),
    [`${slug}_lt`]: parseDay(addDays(range.last, 1)).toISOString(),
  };
}

/** The heading of what is shown: "November 2026", or "23 – 29 Nov 2026" for a week. */
export function rangeTitle(mode: CalendarMode, anchor: string): string {
  if (mode !== 'week') return parseDay(anchor).toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
  const { first, last } = visibleRange('week', anchor);
  const from = parseDay(first).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
  const to = parseDay(last).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  return `${from} – ${to}`;
}

/** A day spoken in full ("Sunday, November 29, 2026"), for labels. */
export const longDay = (key: string) =>
  parseDay(key).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
