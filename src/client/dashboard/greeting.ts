/** Time-of-day greeting (SPEC section 1): morning before noon, afternoon before 18:00, evening after. */
export type DayPart = 'morning' | 'afternoon' | 'evening';

export function dayPart(date: Date = new Date()): DayPart {
  const hour = date.getHours();
  if (hour >= 5 && hour < 12) return 'morning';
  if (hour >= 12 && hour < 18) return 'afternoon';
  return 'evening';
}

const WORDS: Record<DayPart, string> = {
  morning: 'Good morning',
  afternoon: 'Good afternoon',
  evening: 'Good evening',
};

export function greeting(firstName: string | null | undefined, date: Date = new Date()): string {
  const name = (firstName ?? '').trim();
  return name ? `${WORDS[dayPart(date)]}, ${name}` : WORDS[dayPart(date)];
}
