import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/schema.generated.js';
import { type Who, whoIs } from './who.js';

/**
 * The turf: the live regions assigned to a person (region_users) or to one of their teams (a region's team_id). A
 * site lies in it when one of the regions containing it is one of these: each site keeps the ids of its regions on
 * its row (`in_region_ids`, worked out when it is saved or a region placed; migration 026), so the test reads the row
 * alone and the GIN index on it finds a turf's sites. Everything else a turf reaches is reached from its sites
 * (access/reach.ts).
 */
export function turfRegionIds(who: Who): RawBuilder<number> {
  return sql<number>`select r.id from regions r where ${inTurf(who)}`;
}

/**
 * The turf's region ids as what goes inside `in (...)`: the ids themselves when they were read for the rule (Who
 * `turfIds`), else the query of them, and the person is told (`onTurf`) so that they may be read and the rule built
 * again. A rule gathering a turf names it several times (a task's site, a contact's sites, a contractor's); PostgreSQL
 * planned each query of the regions again, a third of such a statement's time (docs/benchmarks.md "Access scope").
 */
function regionsIn(who: Who): RawBuilder<number> {
  if (who.turfIds) return sql<number>`${sql.join(who.turfIds.length ? who.turfIds : [-1])}`;
  who.onTurf?.();
  return turfRegionIds(who);
}

/** The ids of the person's turf regions, read once (for Who `turfIds`). */
export async function readTurfIds(db: Kysely<DB>, who: Who): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`${turfRegionIds(who)}`.execute(db);
  return rows.map((row) => Number(row.id));
}

/** The region `r` is one of the person's turf. */
function inTurf(who: Who): RawBuilder<boolean> {
  const byTeam = who.hasTeams ? sql`r.team_id in (${who.teamIds}) or ` : sql``;
  return sql<boolean>`r.deleted_at is null and (${byTeam}exists (select 1 from region_users ru where ru.region_id = r.id and ru.user_id = ${who.id}))`;
}

/** The regions of a person's turf (assigned to them or their team), by name (GET /api/turf). */
export function turfRegions(
  db: Kysely<DB>,
  user: Parameters<typeof whoIs>[0],
): Promise<Array<{ id: number; name: string }>> {
  return db
    .selectFrom('regions')
    .select(['id', 'name'])
    .where(sql<boolean>`id in (${turfRegionIds(whoIs(user))})`)
    .orderBy('name')
    .execute();
}

/**
 * The site row `alias` lies in the person's turf. Asked of a few sites (`few`), or of one site for each member of a
 * role (the fan-out, `perRow`), each site's own few regions are tested against the person's turf: the array form
 * gathers the whole turf (for each member, in the fan-out), and a statement that compares `in_region_ids` with an
 * array is planned for its values each time (db/pglite-session.ts), which cost more than running it.
 */
export function siteInTurf(who: Who, alias = 't'): RawBuilder<boolean> {
  const regions = sql.ref(`${alias}.in_region_ids`);
  if (who.turfIds) return sql<boolean>`${regions} && array[${regionsIn(who)}]::integer[]`;
  if (who.perRow || who.few)
    return sql<boolean>`exists (select 1 from regions r where r.id = any(${regions}) and ${inTurf(who)})`;
  return sql<boolean>`${regions} && array(${regionsIn(who)})`;
}

/** Each site's regions as its row holds them (`in_region_ids`, not shown), by site id. */
export type SiteRegions = ReadonlyMap<number, readonly number[] | null>;

/** `siteInTurf` of a site whose row is at hand: one of its regions is one of the turf's. */
export function regionsInTurf(regions: readonly number[] | null, turfIds: ReadonlySet<number>): boolean {
  return (regions ?? []).some((region) => turfIds.has(region));
}

/**
 * The ids of the sites inside the turf, deleted ones included (their region assignment is kept): read from
 * `site_regions` (the pairs `in_region_ids` is kept from, migration 026) by its region index, not from the sites'
 * rows, as what hangs on the turf's sites (a task, a contact) asks for them.
 */
export function turfSiteIds(who: Who): RawBuilder<number> {
  return sql<number>`select sr.site_id from site_regions sr where sr.region_id in (${regionsIn(who)})`;
}
