import { type Kysely, sql } from 'kysely';

/**
 * A file imported again finds its unchanged rows by the hash of their cells (imports/row-hashes.ts), before mapping
 * them, so `import_row_hashes` is looked up by content. Hashes kept earlier were of mapped rows and match no cells:
 * the first import of a file after this migration writes its rows once more and keeps the new hashes.
 */
export async function up(db: Kysely<unknown>) {
  await sql`create index import_row_hashes_content_idx on import_row_hashes (record_type, content_hash)`.execute(db);
}
