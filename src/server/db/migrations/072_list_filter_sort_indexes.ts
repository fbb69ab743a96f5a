import { type Kysely, sql } from 'kysely';

/**
 * A type's list in value order, or newest first: the common filter-and-sort pairs of the sites list (issue 35). The
 * sort indexes (schemas/indexes.ts ensureSortIndexes) lead with the sorted column, so a list of one type walked the
 * whole value index and threw away the other types' rows: page 91 of one type by value read about 14,600 buffers.
 * These lead with the type, the filtered choice, then hold the sort's key and id as those do (`asc nulls last, id`,
 * read backwards for a descending list: list-query.ts pageInParts), so a type's page is read where it lies.
 * Only these two: each index costs every import's writes (docs/benchmarks.md "Imports").
 */
export async function up(db: Kysely<unknown>) {
  await sql`create index if not exists sites_type_value_idx on sites (type, estimated_value asc nulls last, id asc)
    where deleted_at is null`.execute(db);
  await sql`create index if not exists sites_type_created_idx on sites (type, created_at asc nulls last, id asc)
    where deleted_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop index if exists sites_type_value_idx`.execute(db);
  await sql`drop index if exists sites_type_created_idx`.execute(db);
}
