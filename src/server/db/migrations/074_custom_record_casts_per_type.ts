import { type Kysely, sql } from 'kysely';

/**
 * The indexes of the number and yes/no fields of types made in the app (docs/records.md "Indexes and speed") cast the
 * value on their own type's rows only: `case when schema_id = N then ((custom ->> 'size'))::numeric end`. Those made
 * before cast it on every row of the shared `custom_records`, so another type's text under the same key could not be
 * saved. They are dropped here, and start-up makes each one again in the new shape (schemas/indexes.ts
 * ensureAllCustomFieldIndexes, which also analyzes the table for the new expressions' statistics).
 */
export async function up(db: Kysely<unknown>) {
  const old = await sql<{ name: string }>`
    select indexname as name from pg_indexes
    where schemaname = current_schema() and tablename = 'custom_records' and indexname like 'custom\\_records\\_cf\\_%'
      and (indexdef like '%)::numeric%' or indexdef like '%)::boolean%') and indexdef not like '%WHEN (schema_id = %'`.execute(
    db,
  );
  for (const { name } of old.rows) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}
