import { type Kysely, sql } from 'kysely';

/**
 * What each record's row of a file held when an import last wrote or matched it: a hash of the row as mapped, by the
 * record's key (`external_id:B-1042`), with the record's `updated_at` then. A file imported again skips the rows
 * whose hash and record are unchanged without reading or writing them (src/server/imports/row-hashes.ts).
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table import_row_hashes (
      record_type text not null,
      key text not null,
      record_id integer not null,
      content_hash text not null,
      record_updated_at timestamptz not null,
      primary key (record_type, key)
    )`.execute(db);
}
