import { type Kysely, sql } from 'kysely';
import { GIN_PENDING_LIST_KB } from '../../schemas/indexes.js';

/**
 * Indexes of records for large tables (src/server/schemas/indexes.ts, docs/records.md "Indexes and speed"):
 * - The index of a custom field on a soft-deleting table now ends with `deleted_at`: the custom-field indexes made
 *   in the earlier shape (same names) are dropped, and start-up makes every one again in the new shape (and the
 *   new sort indexes by name).
 * - The GIN indexes of searches (trigrams) and of `custom` (jsonb_path_ops) keep a pending list of at most
 *   GIN_PENDING_LIST_KB instead of 4 MB, which the embedded database (no autovacuum) never merged; the list they
 *   hold now is merged at once.
 */
export async function up(db: Kysely<unknown>) {
  const old = await sql<{ name: string }>`
    select indexname as name from pg_indexes
    where schemaname = current_schema() and indexname like '%\\_cf\\_%' and indexdef like '%custom ->> %' and indexdef not like '%deleted_at%'`.execute(
    db,
  );
  for (const { name } of old.rows) await sql`drop index if exists ${sql.id(name)}`.execute(db);

  const gin = await sql<{ name: string }>`
    select indexname as name from pg_indexes
    where schemaname = current_schema() and (indexdef like '%USING gin %gin_trgm_ops%' or indexdef like '%USING gin (custom jsonb_path_ops)%')`.execute(
    db,
  );
  for (const { name } of gin.rows) {
    await sql`alter index ${sql.id(name)} set (gin_pending_list_limit = ${sql.lit(GIN_PENDING_LIST_KB)})`.execute(db);
    await sql`select gin_clean_pending_list(${name}::regclass)`.execute(db);
  }
}
