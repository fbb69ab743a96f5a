import { type Kysely, sql } from 'kysely';

/**
 * Turf (docs/security.md): a region is assigned to people (`region_users`) besides its team (`regions.team_id`); a
 * person's turf is the regions assigned to them or to a team of theirs. A region may also be a shape drawn on the map
 * (geometry type `drawn`), stored like an uploaded shape.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    create table region_users (
      region_id integer not null references regions (id) on delete cascade,
      user_id integer not null references users (id) on delete cascade,
      primary key (region_id, user_id)
    );
    create index region_users_user_idx on region_users (user_id);
    create index regions_team_idx on regions (team_id) where deleted_at is null;

    alter table regions drop constraint if exists regions_geometry_type_check;
    alter table regions add constraint regions_geometry_type_check check (geometry_type in ('state', 'county', 'postal-code', 'drawn'));
  `.execute(db);
}
