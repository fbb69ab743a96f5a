import { type Kysely, sql } from 'kysely';

/**
 * A view of sites filters by their type and then by the fixed-width fields organizers narrow a list with: status,
 * phase, building type, general contractor, bid and kick-off dates, prevailing wage. Read from the table, the matches
 * of such a view cost most of its list, since each site's row is taken apart to the column asked (docs/benchmarks.md
 * "Views"). The type-and-value index (migrations 072 and 086, already read by a type's list, its groups and sums) now
 * holds those fields too, so a view that filters sites by type is counted and put in order from the index alone. Every
 * write of a site changes `updated_at`, which has indexes of its own, so no write skipped the indexes before: this
 * costs the index's size (a fifth more), not an index write more.
 */
export async function up(db: Kysely<unknown>) {
  await sql`drop index if exists sites_type_value_idx`.execute(db);
  await sql`create index sites_type_value_idx on sites (type, estimated_value asc nulls last, id asc)
    include (estimated_hours, latitude, longitude, site_status_id, site_phase_id, building_type_id,
      general_contractor_id, bid_date, kickoff_date, prevailing_wage)
    where deleted_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql`drop index if exists sites_type_value_idx`.execute(db);
  await sql`create index sites_type_value_idx on sites (type, estimated_value asc nulls last, id asc)
    include (estimated_hours, latitude, longitude) where deleted_at is null`.execute(db);
}
