import type { CompiledQuery, Kysely } from 'kysely';
import type { WriteGeneration } from '../db/write-tracking.js';

/** Past this many lists, the kept totals start again (a bound, not a need). */
const MAX_LISTS = 500;
/** A statement whose answer moves with the clock (a formula with TODAY()), not only with writes: never kept. */
const CLOCK =
  /\b(now|clock_timestamp|statement_timestamp|transaction_timestamp|timeofday|random)\s*\(|\bcurrent_(date|time|timestamp)\b|\blocaltime(stamp)?\b/i;

export interface ListTotal {
  total: number;
  estimated: boolean;
}

/**
 * The totals of lists (list-query.ts countMatches, records/sorted-page.ts), kept by their count statement and its
 * values until the next write of data. The statement holds everything the total depends on besides the data: the
 * filters, the search and the person's row rule with its values (their id, teams, turf). With the read cache on
 * (READ_CACHE): on the embedded database this process is the only writer and counts its writes; on PostgreSQL the
 * stamp includes the write counters every process moves (WriteGeneration.stamp, one small query). Someone paging
 * through a list then has its matches counted once, not on every page (docs/benchmarks.md "List pages", "Views").
 */
export class KeptTotals {
  private readonly kept = new Map<string, { stamp: string; counted: unknown }>();

  constructor(private readonly writes: WriteGeneration) {
    writes.onBump((kind) => {
      if (kind === 'data') this.kept.clear();
    });
  }

  /**
   * What `count` makes of `statement` (a total, or the matches of each value of a choice: records/sorted-page.ts), or
   * what it made before if no data was written since. Kept as a copy: the caller may change what it gets.
   */
  async of<T>(
    db: Pick<Kysely<unknown>, 'isTransaction'>,
    statement: CompiledQuery,
    count: () => Promise<T>,
  ): Promise<T> {
    // In a transaction the total may include its own uncommitted writes: not for anyone else.
    if (db.isTransaction || CLOCK.test(statement.sql)) return count();
    const key = JSON.stringify([statement.sql, statement.parameters], (_, value) =>
      typeof value === 'bigint' ? String(value) : value,
    );
    const stamp = await this.writes.stamp('data');
    const known = this.kept.get(key);
    if (known?.stamp === stamp) return structuredClone(known.counted as T);
    const counted = await count();
    // Kept only if nothing was written while it was counted.
    if (stamp === (await this.writes.stamp('data'))) {
      if (this.kept.size >= MAX_LISTS) this.kept.clear();
      this.kept.set(key, { stamp, counted: structuredClone(counted) });
    }
    return counted;
  }
}
