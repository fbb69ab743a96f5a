import { describe, expect, it } from 'vitest';
import { importRate, progressText } from '../../../src/client/imports/ImportProgress';

const started = '2026-01-01T10:00:00.000Z';
const at = (seconds: number) => new Date(started).getTime() + seconds * 1000;

describe('import progress', () => {
  it('says the rows done of about how many while the job waits, without a rate', () => {
    expect(
      progressText({ status: 'pending', processed_rows: 0, total_rows: 3000, progress: 0, started_at: null }, at(5)),
    ).toBe('0 of about 3,000 rows (0%), waiting for the worker');
  });

  it('adds the rate in rows a second once rows are written', () => {
    const record = {
      status: 'processing' as const,
      processed_rows: 1500,
      total_rows: 3000,
      progress: 50,
      started_at: started,
    };
    expect(importRate(record, at(10))).toBe(150);
    expect(progressText(record, at(10))).toBe('1,500 of about 3,000 rows (50%), 150 rows a second');
  });

  it('has no rate before the first row', () => {
    expect(
      progressText(
        { status: 'processing', processed_rows: 0, total_rows: 3000, progress: 0, started_at: started },
        at(2),
      ),
    ).toBe('0 of about 3,000 rows (0%)');
  });
});
