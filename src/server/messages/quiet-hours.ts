/**
 * Quiet hours (QUIET_HOURS, docs/messages.md): no text or email reaches a person between, say, 21:00 and 09:00 of
 * their own clock. A span may cross midnight.
 */
export interface QuietHours {
  /** Minutes after midnight. */
  start: number;
  end: number;
}

const DAY = 24 * 60;

/**
 * One clock formatter per time zone met: making one costs far more than using it, and a message to 5,000 people
 * would otherwise make 5,000. Only zones the runtime knows are kept, so the map is bounded by the zone database.
 */
const clocks = new Map<string, Intl.DateTimeFormat>();

/** The formatter of `timeZone`'s hours and minutes; throws a RangeError for a zone the runtime does not know. */
function clockOf(timeZone: string): Intl.DateTimeFormat {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clocks.set(timeZone, clock);
  }
  return clock;
}

/** Minutes after midnight of `at` on the clock of `timeZone`. */
function minuteOfDay(at: Date, timeZone: string): number {
  const parts = clockOf(timeZone)
    .formatToParts(at)
    .reduce<Record<string, string>>((all, part) => Object.assign(all, { [part.type]: part.value }), {});
  return Number(parts.hour) * 60 + Number(parts.minute);
}

/** When a message may reach someone in `timeZone`: `now`, or the end of the quiet hours it falls in. */
export function nextAllowed(now: Date, timeZone: string, quiet: QuietHours | null): Date {
  if (!quiet) return now;
  const minute = minuteOfDay(now, timeZone);
  const inQuiet =
    quiet.start < quiet.end ? minute >= quiet.start && minute < quiet.end : minute >= quiet.start || minute < quiet.end;
  if (!inQuiet) return now;
  const wait = (quiet.end - minute + DAY) % DAY;
  const at = new Date(now.getTime() + wait * 60_000);
  at.setUTCSeconds(0, 0);
  return at;
}

/** Whether `timeZone` is one the runtime knows (a person's own time zone field may hold anything). */
export function isTimeZone(timeZone: unknown): timeZone is string {
  if (typeof timeZone !== 'string' || !timeZone) return false;
  try {
    clockOf(timeZone);
    return true;
  } catch {
    return false;
  }
}
