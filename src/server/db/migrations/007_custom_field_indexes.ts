import { sql, type Kysely } from 'kysely';

/**
 * The index of a custom field on a soft-deleting table now ends with `deleted_at` (src/server/schemas/indexes.ts
 * ensureCustomFieldIndex), and sorting by name has an index per table. Drops the custom-field indexes made in the
 * earlier shape (same names); start-up makes every one again in the new shape, and the sort indexes with them.
 */
export async function up(db: Kysely<any>) {
  const old = await sql<{ name: string }>`
    select indexname as name from pg_indexes
    where schemaname = current_schema() and indexname like '%\\_cf\\_%' and indexdef like '%custom ->> %' and indexdef not like '%deleted_at%'`.execute(db);
  for (const { name } of old.rows) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}
