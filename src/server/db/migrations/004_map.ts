import { type Kysely, sql } from 'kysely';

/**
 * The map (docs/map.md): indexes only.
 * - `updated_at` of sites, contractors and regions: the marker index version reads max(updated_at) once a second.
 * - sites by coordinates: placing sites in a region reads the sites inside its bounding box.
 * - regions by bounding box (GiST on a box, core PostgreSQL, no extension): finding the regions that may contain
 *   a point when a site is saved.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create index sites_updated_idx on sites (updated_at);
    create index contractors_updated_idx on contractors (updated_at);
    create index regions_updated_idx on regions (updated_at);
    create index sites_lat_lng_idx on sites (latitude, longitude) where latitude is not null and longitude is not null;
    create index regions_box_idx on regions using gist (box(point(min_lng, min_lat), point(max_lng, max_lat))) where deleted_at is null and min_lat is not null;
  `.execute(db);
}
