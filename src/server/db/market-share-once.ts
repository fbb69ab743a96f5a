import { type QueryExecutorProvider, sql } from 'kysely';

/**
 * Runs `work` (writes of many sites inside the transaction `trx`) with the market share counted once at its end
 * rather than after each statement (migration 024): a batch of imported sites is written in several statements
 * (the sites, their labour, trades, regions, contractors), each of whose triggers would count the same sites again.
 * Should `work` fail, the rollback takes the noted sites with it.
 */
export async function countMarketShareOnce<T>(trx: QueryExecutorProvider, work: () => Promise<T>): Promise<T> {
  // Inside a writer already counting once (an import chunk around its batches and links), the outer one counts.
  if (counting.has(trx)) return work();
  counting.add(trx);
  try {
    await sql`select set_config('om.market_share_deferred', 'on', true)`.execute(trx);
    const result = await work();
    await sql`select set_config('om.market_share_deferred', 'off', true)`.execute(trx);
    await sql`select market_share_flush()`.execute(trx);
    return result;
  } finally {
    counting.delete(trx);
  }
}
const counting = new WeakSet<object>();
