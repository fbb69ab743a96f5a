import { type Kysely, sql } from 'kysely';

/**
 * Revisions written together by one bulk change: `batch_id` names the batch (a region upload or a Census load, the
 * undo of an import; null for a change made by hand). `batch_key` is what the activity feed groups by: the batch,
 * or the import that wrote the revision (`import:<id>`), or null for a revision of its own. The feed reads the newest
 * revisions of their own from one index and each batch's newest revision from the other (docs/reports.md "Activity").
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    alter table revisions add column batch_id text;
    alter table revisions add column batch_key text generated always as (coalesce(batch_id, 'import:' || import_id::text)) stored;
    create index revisions_batch_key_idx on revisions (batch_key, id) where batch_key is not null;
    create index revisions_single_idx on revisions (id) where batch_key is null;
  `.execute(db);
}
