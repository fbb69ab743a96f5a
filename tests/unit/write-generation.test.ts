import { describe, expect, it } from 'vitest';
import { WriteGeneration } from '../../src/server/db/write-tracking.js';

describe('WriteGeneration shared with other processes', () => {
  it('reads the shared counters once for those asking while a read is on its way, and again for the next', async () => {
    const writes = new WriteGeneration();
    let reads = 0;
    let answer: (counters: { data: number; any: number; accounts: number }) => void = () => {};
    writes.share(() => {
      reads++;
      return new Promise((resolve) => {
        answer = resolve;
      });
    });
    const together = [writes.stamp('data'), writes.stamp('any'), writes.stamp('accounts')];
    expect(reads).toBe(1);
    answer({ data: 7, any: 8, accounts: 9 });
    expect(await Promise.all(together)).toEqual(['0:7', '0:8', '0:9']);
    const next = writes.stamp('data');
    expect(reads).toBe(2);
    answer({ data: 10, any: 11, accounts: 12 });
    expect(await next).toBe('0:10');
  });

  it('lets a failed read fail those waiting for it, and reads again for the next', async () => {
    const writes = new WriteGeneration();
    let reads = 0;
    writes.share(async () => {
      reads++;
      if (reads === 1) throw new Error('the database is away');
      return { data: 1, any: 1, accounts: 1 };
    });
    await expect(Promise.all([writes.stamp('data'), writes.stamp('any')])).rejects.toThrow('the database is away');
    expect(reads).toBe(1);
    expect(await writes.stamp('data')).toBe('0:1');
  });
});
