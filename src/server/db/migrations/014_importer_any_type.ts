import { type Kysely, sql } from 'kysely';

/**
 * An importer may fill any record type, those made in the schema editor included: the importers resource checks
 * the type against the record types stored now (imports/importable-types.ts), which a fixed list here cannot know.
 */
export async function up(db: Kysely<unknown>) {
  const { rows } = await sql<{ name: string }>`
    select con.conname as name from pg_constraint con
    join pg_class rel on rel.oid = con.conrelid
    join pg_namespace ns on ns.oid = rel.relnamespace
    where rel.relname = 'importers' and ns.nspname = current_schema() and con.contype = 'c'
      and pg_get_constraintdef(con.oid) like '%record_type%'`.execute(db);
  for (const { name } of rows) await sql`alter table importers drop constraint ${sql.id(name)}`.execute(db);
}
