import { type Kysely, sql } from 'kysely';

/**
 * The imports that are writing a table with its sort and search indexes left out (imports/deferred-indexes.ts): the
 * last of them to end makes the indexes again, so two imports at once (several processes on PostgreSQL) never
 * rebuild under each other.
 */
export async function up(db: Kysely<unknown>) {
  await sql`create table import_index_deferrals (
    import_id integer primary key references imports (id) on delete cascade,
    table_name text not null,
    created_at timestamptz not null default now()
  )`.execute(db);
}
