import { describe, expect, it } from 'vitest';
import { periodIn, whenIn } from '../../../src/server/assistant/dates.js';

// A Wednesday.
const now = new Date('2026-05-13T15:00:00Z');

describe('periods in words', () => {
  it.each([
    ['sites added today', '2026-05-13', '2026-05-13'],
    ['recruits signed yesterday', '2026-05-12', '2026-05-12'],
    ['new recruits this week', '2026-05-11', '2026-05-17'],
    ['tasks due next week', '2026-05-18', '2026-05-24'],
    ['sites bidding next month', '2026-06-01', '2026-06-30'],
    ['grievances filed last month', '2026-04-01', '2026-04-30'],
    ['market share this year', '2026-01-01', '2026-12-31'],
    ['sites added last year', '2025-01-01', '2025-12-31'],
    ['members this quarter', '2026-04-01', '2026-06-30'],
    ['notes in the last 30 days', '2026-04-14', '2026-05-13'],
    ['tasks due in the next 7 days', '2026-05-13', '2026-05-19'],
    ['sites added in 2025', '2025-01-01', '2025-12-31'],
    ['sites bidding in march', '2026-03-01', '2026-03-31'],
    ['sites bidding in december 2026', '2026-12-01', '2026-12-31'],
  ])('%s', (text, from, to) => {
    expect(periodIn(text, now)).toMatchObject({ from, to });
  });

  it('open-ended periods and where they are in the text', () => {
    expect(periodIn('sites added since march 1', now)).toMatchObject({
      from: '2026-03-01',
      to: undefined,
      span: [12, 25],
    });
    expect(periodIn('sites bidding before june 1', now)).toMatchObject({ from: undefined, to: '2026-05-31' });
    expect(periodIn('how many sites', now)).toBeNull();
  });
});

describe('a day for a task', () => {
  it('is in the future, at noon UTC unless a time is given, with the words it came from', () => {
    expect(whenIn('call the gc of cedar tower on friday', now)).toMatchObject({
      day: '2026-05-15',
      at: '2026-05-15T12:00:00.000Z',
      span: [27, 36],
    });
    expect(whenIn('visit tomorrow at 3pm', now)?.day).toBe('2026-05-14');
    expect(whenIn('call them', now)).toBeNull();
  });
});
