/**
 * Relative dates of the view filter (`{"op": "date", "value": "this_month"}`), in the organization's time zone:
 * which calendar days a name covers on a given day, and the instant a day starts in a time zone. Pure functions of
 * (value, now, time zone), so a filter compiles to the same SQL for the same moment on any machine.
 *
 * Weeks start on Monday (SPEC section 9); quarters are January–March, April–June...; `last_N_days` is the N days
 * ending today (today included), `next_N_days` the N days starting today.
 */

/** A span of calendar days: `from` included, `to` excluded, as `YYYY-MM-DD`. */
export interface DaySpan {
  from: string;
  to: string;
}

export const RELATIVE_DATES = [
  'today',
  'yesterday',
  'tomorrow',
  'this_week',
  'last_week',
  'next_week',
  'this_month',
  'last_month',
  'next_month',
  'this_quarter',
  'last_quarter',
  'next_quarter',
  'this_year',
  'last_year',
  'next_year',
] as const;
export type NamedRelativeDate = (typeof RELATIVE_DATES)[number];

/** A relative date: a name, `last_30_days` / `next_7_days`, or `{last_days: 30}` / `{next_days: 7}`. */
export type RelativeDate = NamedRelativeDate | string | { last_days: number } | { next_days: number };

/** The longest "last/next N days" (about 100 years). */
export const MAX_RELATIVE_DAYS = 36_600;

export class RelativeDateError extends Error {}

const DAY_MS = 86_400_000;

/** A `YYYY-MM-DD` day as a count of days since 1970-01-01 (calendar arithmetic without time zones). */
const dayNumber = (day: string) => Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / DAY_MS;
const dayText = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
const monthStart = (year: number, month: number) => dayText(Date.UTC(year, month, 1) / DAY_MS);

/** Whether `zone` is a time zone this runtime knows (an IANA name such as `America/Los_Angeles`, or `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const FORMATS = {
  day: { year: 'numeric', month: '2-digit', day: '2-digit' },
  clock: {
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * The formatter of `kind` for `zone`, made once: making one costs about 0.1 ms (an automation run reads `{{today}}`,
 * a filter compiles a relative date), using one a microsecond.
 */
function formatIn(zone: string, kind: keyof typeof FORMATS): Intl.DateTimeFormat {
  const key = `${kind} ${zone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, ...FORMATS[kind] });
    formats.set(key, format);
  }
  return format;
}

/** The calendar day it is at `now` in `zone`, as `YYYY-MM-DD`. */
export function dayIn(now: Date, zone: string): string {
  const parts = Object.fromEntries(
    formatIn(zone, 'day')
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** How far `zone`'s clock is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, zone: string): number {
  const parts = Object.fromEntries(
    formatIn(zone, 'clock')
      .formatToParts(new Date(instant))
      .map((part) => [part.type, Number(part.value)]),
  );
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant `day` starts in `zone` (its local midnight; where a clock change skips midnight, the first moment of
 * the day that exists).
 */
export function startOfDayIn(day: string, zone: string): Date {
  const midnightUtc = dayNumber(day) * DAY_MS;
  let instant = midnightUtc - offsetAt(midnightUtc, zone);
  const corrected = midnightUtc - offsetAt(instant, zone);
  // Across a change of offset the second guess is the right one, unless it lands on the day before (skipped midnight).
  if (corrected !== instant && dayIn(new Date(corrected), zone) === day) instant = corrected;
  return new Date(instant);
}

function nDays(value: RelativeDate): { last: boolean; days: number } | null {
  let last: boolean;
  let days: unknown;
  if (typeof value === 'string') {
    const match = /^(last|next)_(\d{1,6})_days$/.exec(value);
    if (!match) return null;
    last = match[1] === 'last';
    days = Number(match[2]);
  } else if (value && typeof value === 'object' && ('last_days' in value || 'next_days' in value)) {
    last = 'last_days' in value;
    days = last ? (value as { last_days: unknown }).last_days : (value as { next_days: unknown }).next_days;
  } else return null;
  if (!Number.isInteger(days) || (days as number) < 1 || (days as number) > MAX_RELATIVE_DAYS)
    throw new RelativeDateError(`The number of days must be a whole number from 1 to ${MAX_RELATIVE_DAYS}.`);
  return { last, days: days as number };
}

/** The days a relative date covers on the day `today`; throws RelativeDateError for a value it does not know. */
export function relativeSpan(value: RelativeDate, today: string): DaySpan {
  const t = dayNumber(today);
  const n = nDays(value);
  if (n)
    return n.last ? { from: dayText(t - n.days + 1), to: dayText(t + 1) } : { from: today, to: dayText(t + n.days) };
  const [which, unit] = typeof value === 'string' ? value.split('_') : [];
  const shift = which === 'last' ? -1 : which === 'next' ? 1 : which === 'this' ? 0 : null;
  const year = +today.slice(0, 4);
  const month = +today.slice(5, 7) - 1;
  if (value === 'today') return { from: today, to: dayText(t + 1) };
  if (value === 'yesterday') return { from: dayText(t - 1), to: today };
  if (value === 'tomorrow') return { from: dayText(t + 1), to: dayText(t + 2) };
  if (shift !== null && unit === 'week') {
    const monday = t - ((new Date(t * DAY_MS).getUTCDay() + 6) % 7) + 7 * shift;
    return { from: dayText(monday), to: dayText(monday + 7) };
  }
  if (shift !== null && unit === 'month')
    return { from: monthStart(year, month + shift), to: monthStart(year, month + shift + 1) };
  if (shift !== null && unit === 'quarter') {
    const first = month - (month % 3) + 3 * shift;
    return { from: monthStart(year, first), to: monthStart(year, first + 3) };
  }
  if (shift !== null && unit === 'year')
    return { from: monthStart(year + shift, 0), to: monthStart(year + shift + 1, 0) };
  throw new RelativeDateError(
    `"${typeof value === 'string' ? value : JSON.stringify(value)}" is not a relative date: use one of ${RELATIVE_DATES.join(', ')}, last_N_days, next_N_days, {"last_days": N} or {"next_days": N}.`,
  );
}

/** The instants a span of days starts and ends in `zone` (for date-time values). */
export function spanInstants(span: DaySpan, zone: string): { from: Date; to: Date } {
  return { from: startOfDayIn(span.from, zone), to: startOfDayIn(span.to, zone) };
}
