import { type Kysely, sql } from 'kysely';

/**
 * Sites grouped by type with the count and the sums of their number fields (the grid's grouping, GET
 * /api/records/sites/groups: issue 32) read every live site, and most of that time went on taking the summed columns
 * out of each row (docs/benchmarks.md "Views"). The type-and-value index of migration 072 (a type's list in value
 * order) now holds the other summed columns too, so the groups are read from it alone (an index-only scan, already
 * in type order), and no second index costs every write.
 */
export async function up(db: Kysely<unknown>) {
  await sql`drop index if exists sites_type_value_idx`.execute(db);
  await sql`create index sites_type_value_idx on sites (type, estimated_value asc nulls last, id asc)
    include (estimated_hours, latitude, longitude) where deleted_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop index if exists sites_type_value_idx`.execute(db);
  await sql`create index sites_type_value_idx on sites (type, estimated_value asc nulls last, id asc)
    where deleted_at is null`.execute(db);
}
