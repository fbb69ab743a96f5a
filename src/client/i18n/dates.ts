/** Dates in en-US with weeks starting on Monday (SPEC section 9: date picker defaults). */
export const DATE_LOCALE = 'en-US';
/** 0 = Sunday, 1 = Monday. */
export const WEEK_STARTS_ON = 1 as const;
export const YEAR_RANGE = { min: 1900, max: 2100 } as const;
export const MINUTE_STEP = 5;

const dateFormat = new Intl.DateTimeFormat(DATE_LOCALE, { year: 'numeric', month: 'short', day: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat(DATE_LOCALE, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

export function formatDate(value: Date | string | number): string {
  return dateFormat.format(toDate(value));
}

export function formatDateTime(value: Date | string | number): string {
  return dateTimeFormat.format(toDate(value));
}

/** The Monday (00:00 local time) of the week holding `value`. */
export function startOfWeek(value: Date | string | number): Date {
  const date = new Date(toDate(value));
  date.setHours(0, 0, 0, 0);
  const offset = (date.getDay() - WEEK_STARTS_ON + 7) % 7;
  date.setDate(date.getDate() - offset);
  return date;
}

/** Weekday names in display order, Monday first ('Mon', 'Tue', ...). */
export function weekdayNames(style: 'short' | 'long' | 'narrow' = 'short'): string[] {
  const format = new Intl.DateTimeFormat(DATE_LOCALE, { weekday: style });
  // 2024-01-01 was a Monday.
  return Array.from({ length: 7 }, (_, index) => format.format(new Date(2024, 0, 1 + index)));
}
