import { type Kysely, sql } from 'kysely';
import { analyzeChangedTables } from '../db/analyze.js';
import type { DB } from '../db/schema.generated.js';

/**
 * Planner statistics refreshed while an import grows its table: each time it has added about as many records as the
 * table had at the last refresh (about log2(growth) times: 7 for 100,000 rows into an empty table, never for a file
 * that only updates), the tables whose size moved are analyzed (db/analyze.ts: the record type's, its links,
 * revisions, undo entries). The embedded database has no autovacuum and the server's own check runs once a minute:
 * until then the planner keeps the figures of the near-empty table and, for one, matches 1,000 keys against a
 * 100,000-row table by reading every row (0.2 s a chunk instead of 0.2 ms).
 */
export class Statistics {
  private added = 0;
  private threshold: number | null = null;

  constructor(private readonly table: string) {}

  async grown(db: Kysely<DB>, created: number) {
    this.added += created;
    if (this.added === 0) return;
    this.threshold ??= await this.rows(db);
    if (this.added < this.threshold) return;
    await analyzeChangedTables(db);
    this.added = 0;
    this.threshold = await this.rows(db);
  }

  /** The table's size as the statistics know it (at least 1,000: smaller tables are read whole anyway). */
  private async rows(db: Kysely<DB>) {
    const row = await sql<{
      n: number;
    }>`select reltuples::float8 as n from pg_class where oid = ${this.table}::regclass`.execute(db);
    return Math.max(1_000, Number(row.rows[0]?.n ?? 0));
  }
}
