import { type Kysely, sql } from 'kysely';
import type { DB } from './schema.generated.js';

/**
 * The embedded database has no autovacuum, so nothing refreshes the planner's statistics by itself: a table that
 * grew from a few rows to thousands (an import, a restore) would keep plans made for a few rows. This analyzes
 * each table whose size on disk moved by more than a fifth since its last ANALYZE (pg_class.relpages), a cheap
 * check run after start and every minute. Returns the tables analyzed.
 */
export async function analyzeChangedTables(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    cross join lateral (select pg_relation_size(c.oid) / current_setting('block_size')::int as pages) now
    where n.nspname = current_schema() and c.relkind = 'r'
      and abs(now.pages - greatest(c.relpages, 0)) > greatest(c.relpages * 0.2, 8)
    order by c.relname`.execute(db);
  for (const { name } of rows) await sql`analyze ${sql.table(name)}`.execute(db);
  return rows.map((row) => row.name);
}
