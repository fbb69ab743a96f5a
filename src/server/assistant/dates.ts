import * as chrono from 'chrono-node';

/**
 * Dates in words for the assistant: periods ("this year", "next month", "the last 30 days", "since March 1") as a
 * range of days, and a single day or time ("on Friday", "tomorrow at 3pm") for a task. Days are UTC calendar days and
 * weeks start on Monday (SPEC 9), as in the reports.
 */
export interface Period {
  from?: string;
  to?: string;
  /** How the answer names it: "this year (2026-01-01 to 2026-12-31)". */
  label: string;
  /** Where in the text it was found: [start, end). */
  span: [number, number];
}

const DAY = 86_400_000;
const iso = (date: Date) => date.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

function unitRange(unit: string, now: Date, offset: number): { from: Date; to: Date } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const today = utc(y, m, now.getUTCDate());
  switch (unit) {
    case 'day':
      return { from: new Date(today.getTime() + offset * DAY), to: new Date(today.getTime() + offset * DAY) };
    case 'week': {
      const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * DAY + offset * 7 * DAY);
      return { from: monday, to: new Date(monday.getTime() + 6 * DAY) };
    }
    case 'month':
      return { from: utc(y, m + offset, 1), to: utc(y, m + offset + 1, 0) };
    case 'quarter': {
      const q = Math.floor(m / 3) + offset;
      return { from: utc(y, q * 3, 1), to: utc(y, q * 3 + 3, 0) };
    }
    default:
      return { from: utc(y + offset, 0, 1), to: utc(y + offset, 11, 31) };
  }
}

/** A day as people write it: "Dec 26, 2026" (a date or a time given as ISO 8601; its UTC day). */
export function plainDate(value: string): string {
  const day = value.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return value;
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** "this month (November 2026)", "the last 30 days (Oct 31, 2026 to Nov 29, 2026)", "since March (from Mar 1, 2026)". */
function describe(words: string, from?: string, to?: string) {
  if (from && to) {
    const start = new Date(`${from}T00:00:00Z`);
    const end = new Date(`${to}T00:00:00Z`);
    const wholeMonth =
      start.getUTCDate() === 1 &&
      end.getTime() === Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0) &&
      start.getUTCFullYear() === end.getUTCFullYear();
    const wholeYear = from.endsWith('-01-01') && to === `${from.slice(0, 4)}-12-31`;
    const span = wholeYear
      ? from.slice(0, 4)
      : wholeMonth
        ? start.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
        : from === to
          ? plainDate(from)
          : `${plainDate(from)} to ${plainDate(to)}`;
    return span.toLowerCase() === words.toLowerCase() ? words : `${words} (${span})`;
  }
  return `${words} (${from ? `from ${plainDate(from)}` : `until ${plainDate(to!)}`})`;
}

/**
 * The first dates read in a process cost 100 ms of CPU and more: chrono-node's large patterns are compiled on their
 * first use and again, to machine code, on their second; the date formats are made on theirs. So they are read here,
 * a few times, when the assistant prepares a person's vocabulary (builtin/vocabulary.ts warmVocabulary), rather than
 * during someone's question.
 */
let datesWarm = false;
export function warmDates(): void {
  if (datesWarm) return;
  datesWarm = true;
  for (const text of ['since march 1', 'from april 3, 2025 in the last 30 days', 'before june this month'])
    periodIn(text);
  for (const text of ['on friday', 'next tuesday at 3pm', 'tomorrow']) whenIn(text);
}

const IN_MONTH = new RegExp(`\\b(?:in|during)\\s+(${MONTHS.join('|')})(?:\\s+((?:19|20)\\d{2}))?\\b`);

/** The first period named in `text` (lower case), or null. */
export function periodIn(text: string, now = new Date()): Period | null {
  const found = (match: RegExpExecArray, range: { from?: Date; to?: Date }, words = match[0].trim()): Period => {
    const from = range.from ? iso(range.from) : undefined;
    const to = range.to ? iso(range.to) : undefined;
    return { from, to, label: describe(words, from, to), span: [match.index, match.index + match[0].length] };
  };
  let m: RegExpExecArray | null;
  if ((m = /\b(today|yesterday|tomorrow)\b/.exec(text)))
    return found(m, unitRange('day', now, { today: 0, yesterday: -1, tomorrow: 1 }[m[1]]!));
  if ((m = /\b(this|current|next|coming|last|previous|past)\s+(week|month|quarter|year)\b/.exec(text))) {
    const offset = ['next', 'coming'].includes(m[1]) ? 1 : ['last', 'previous', 'past'].includes(m[1]) ? -1 : 0;
    return found(m, unitRange(m[2], now, offset));
  }
  if (
    (m =
      /\b(?:(?:in|during|over|within)\s+)?(?:the\s+)?(last|past|next|coming)\s+(\d{1,3})\s+(day|week|month|year)s?\b/.exec(
        text,
      ))
  ) {
    const n = Number(m[2]);
    const today = unitRange('day', now, 0).from;
    const unitDays = { day: 1, week: 7, month: 30, year: 365 }[m[3]]!;
    const span = n * unitDays;
    const back = m[1] === 'last' || m[1] === 'past';
    return found(
      m,
      back
        ? { from: new Date(today.getTime() - (span - 1) * DAY), to: today }
        : { from: today, to: new Date(today.getTime() + (span - 1) * DAY) },
    );
  }
  if ((m = /\b(?:in|during)\s+(?:the\s+year\s+)?((?:19|20)\d{2})\b/.exec(text)))
    return found(m, { from: utc(Number(m[1]), 0, 1), to: utc(Number(m[1]), 11, 31) });
  if ((m = IN_MONTH.exec(text))) {
    const year = m[2] ? Number(m[2]) : now.getUTCFullYear();
    const month = MONTHS.indexOf(m[1]);
    return found(m, { from: utc(year, month, 1), to: utc(year, month + 1, 0) });
  }
  if (
    (m = /\b(since|after|from|before|until)\s+(.+?)(?=\s+(?:in|for|with|and|by|near|that|who|which)\b|[,?.]|$)/.exec(
      text,
    ))
  ) {
    const parsed = chrono.parse(m[2], now, { forwardDate: false })[0];
    if (parsed && parsed.index === 0) {
      let day = utc(parsed.start.get('year')!, parsed.start.get('month')! - 1, parsed.start.get('day')!);
      // "since March" in November is the March gone by, not the next one.
      if (!parsed.start.isCertain('year') && day > now && (m[1] === 'since' || m[1] === 'after'))
        day = utc(day.getUTCFullYear() - 1, day.getUTCMonth(), day.getUTCDate());
      const end = { index: m.index, 0: `${m[1]} ${parsed.text}` } as unknown as RegExpExecArray;
      const bounded = m[1] === 'before' || m[1] === 'until';
      const range = bounded
        ? { to: new Date(day.getTime() - (m[1] === 'before' ? DAY : 0)) }
        : { from: new Date(day.getTime() + (m[1] === 'after' ? DAY : 0)) };
      return { ...found(end, range), span: [m.index, m.index + m[1].length + 1 + parsed.text.length] };
    }
  }
  return null;
}

export interface When {
  /** ISO 8601; a day without a time is that day at noon UTC (the same calendar day across the Americas and Europe). */
  at: string;
  day: string;
  text: string;
  span: [number, number];
}

/** The first day or time in `text` for something to be done ("on Friday", "next Tuesday at 3pm"), in the future. */
export function whenIn(text: string, now = new Date()): When | null {
  const parsed = chrono.parse(text, now, { forwardDate: true })[0];
  if (!parsed) return null;
  const start = parsed.start;
  const day = iso(utc(start.get('year')!, start.get('month')! - 1, start.get('day')!));
  const at = start.isCertain('hour') ? start.date().toISOString() : `${day}T12:00:00.000Z`;
  let index = parsed.index;
  let length = parsed.text.length;
  const before = text.slice(0, index);
  const preposition = /\b(on|by|at|before|for|in)\s+$/.exec(before);
  if (preposition) {
    index -= preposition[0].length;
    length += preposition[0].length;
  }
  return { at, day, text: parsed.text, span: [index, index + length] };
}
