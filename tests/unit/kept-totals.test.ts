import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { WriteGeneration } from '../../src/server/db/write-tracking.js';
import { KeptTotals } from '../../src/server/records/kept-totals.js';

/** records/kept-totals.ts: what is kept, for how long, and what never is. */
const outside = { isTransaction: false } as never;
const inside = { isTransaction: true } as never;
const statement = (text: string, ...values: unknown[]) => CompiledQuery.raw(text, values);

function counter() {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    count: async () => ({ total: 100 + calls++, estimated: false }),
  };
}

describe('kept list totals', () => {
  it('keeps a total by its statement and values until data is written', async () => {
    const writes = new WriteGeneration();
    const kept = new KeptTotals(writes);
    const c = counter();
    const list = statement('select count(*) from sites where city = $1', 'A');
    expect(await kept.of(outside, list, c.count)).toEqual({ total: 100, estimated: false });
    expect(await kept.of(outside, list, c.count)).toEqual({ total: 100, estimated: false });
    expect(c.calls).toBe(1);
    // Another value, another list.
    expect((await kept.of(outside, statement('select count(*) from sites where city = $1', 'B'), c.count)).total).toBe(
      101,
    );
    writes.bump('bookkeeping', new Set(['sessions']));
    expect((await kept.of(outside, list, c.count)).total).toBe(100);
    writes.bump('data', new Set(['notes']));
    expect((await kept.of(outside, list, c.count)).total).toBe(102);
    expect(c.calls).toBe(3);
  });

  it('never keeps a total read in a transaction, one that moves with the clock, or one counted while data was written', async () => {
    const writes = new WriteGeneration();
    const kept = new KeptTotals(writes);
    const c = counter();
    const list = statement('select count(*) from sites');
    await kept.of(inside, list, c.count);
    await kept.of(inside, list, c.count);
    const today = statement(`select count(*) from sites where bid_date = (now() at time zone 'UTC')::date`);
    await kept.of(outside, today, c.count);
    await kept.of(outside, today, c.count);
    expect(c.calls).toBe(4);
    const racing = async () => {
      writes.bump('data', null);
      return c.count();
    };
    await kept.of(outside, list, racing);
    await kept.of(outside, list, c.count);
    expect(c.calls).toBe(6);
    await kept.of(outside, list, c.count);
    expect(c.calls).toBe(6);
  });
});
