import { type Kysely, sql } from 'kysely';

/**
 * The newest revision of any bulk change (an import, its undo, a region upload), found at once: the activity feed
 * asks for its bulk changes' entries only when one is newer than the last entry of its page (activity/batches.ts
 * `batchNewerThan`), which is most pages, since bulk changes are rare beside single writes.
 */
export async function up(db: Kysely<unknown>) {
  await sql`create index if not exists revisions_batched_idx on revisions (id) where batch_key is not null`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop index if exists revisions_batched_idx`.execute(db);
}
