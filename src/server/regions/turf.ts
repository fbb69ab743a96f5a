import { type Kysely, type RawBuilder, sql } from 'kysely';
import { limitedToTurf, type PermissionSubject } from '../../common/permissions.js';
import type { AuthUser } from '../auth/auth-user.js';
import { ValidationError } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';
import { regionsContaining } from './assign.js';
import { type AreaGeometry, bboxOf, pointInGeometry } from './geometry.js';

/** Who a turf rule is for: the person's id and teams (AuthUser has both). */
export type TurfSubject = PermissionSubject & { id: number };

/** The record types a turf limits, besides what hangs off them by owner (notes, tasks, documents) or site (visits). */
export const TURF_TYPES = ['site', 'contractor', 'contact'] as const;
export type TurfType = (typeof TURF_TYPES)[number];

export const teamsOf = (user: TurfSubject) => [
  ...new Set([...(user.team_ids ?? []), ...(user.team_id ? [user.team_id] : [])]),
];

/** The ids of the person's turf: live regions assigned to them (region_users) or to one of their teams. */
export function turfRegionIds(user: TurfSubject): RawBuilder<number> {
  const teams = teamsOf(user);
  const byTeam = teams.length ? sql`r.team_id in (${sql.join(teams)}) or ` : sql``;
  return sql<number>`select r.id from regions r where r.deleted_at is null and (${byTeam}exists (select 1 from region_users ru where ru.region_id = r.id and ru.user_id = ${user.id}))`;
}

/**
 * The turf rule itself: the site row `site` (an alias of `sites`) lies in one of the person's regions. A site keeps the
 * ids of the regions containing it on its row (`in_region_ids`, worked out when it is saved or a region is placed;
 * migration 026), so the test reads the row alone (the GIN index on it finds a turf's sites) and a list walking a sort
 * index tests each row without a lookup elsewhere.
 */
function siteRowInTurf(user: TurfSubject, site: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(`${site}.in_region_ids`)} && array(${turfRegionIds(user)})`;
}

/** The regions of a person's turf (assigned to them or their team), by name. */
export function turfRegions(db: Kysely<any>, user: TurfSubject): Promise<Array<{ id: number; name: string }>> {
  return db
    .selectFrom('regions')
    .select(['id', 'name'])
    .where(sql<boolean>`id in (${turfRegionIds(user)})`)
    .orderBy('name')
    .execute();
}

/** The ids of the sites inside the turf, deleted ones included (their region assignment is kept). */
export function turfSiteIds(user: TurfSubject): RawBuilder<number> {
  return sql<number>`select ts.id from sites ts where ${siteRowInTurf(user, 'ts')}`;
}

/** Contractors working on a site of the turf (as general contractor or on its contractor list). */
export function turfContractorIds(user: TurfSubject): RawBuilder<number> {
  return sql<number>`select sc.contractor_id from site_contractors sc join sites ts on ts.id = sc.site_id where ${siteRowInTurf(user, 'ts')}
    union select ts.general_contractor_id from sites ts where ${siteRowInTurf(user, 'ts')} and ts.general_contractor_id is not null`;
}

/** Contacts met on a site of the turf or at one of its contractors. */
export function turfContactIds(user: TurfSubject): RawBuilder<number> {
  const contractors = turfContractorIds(user);
  return sql<number>`select sx.contact_id from site_contacts sx join sites ts on ts.id = sx.site_id where ${siteRowInTurf(user, 'ts')}
    union select cc.contact_id from contractor_contacts cc where cc.contractor_id in (${contractors})
    union select tc.id from contacts tc where tc.contractor_id in (${contractors})`;
}

const IDS: Record<TurfType, (user: TurfSubject) => RawBuilder<number>> = {
  site: turfSiteIds,
  contractor: turfContractorIds,
  contact: turfContactIds,
};

/**
 * The turf rule of a record of `type` whose id is `id` (a column reference): `undefined` when the person's reading is
 * not limited to a turf (or the type is not one a turf limits), so callers add no condition at all.
 */
export function turfCondition(
  user: TurfSubject,
  type: string,
  id: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
): RawBuilder<boolean> | undefined {
  if (!limitedToTurf(user) || !(TURF_TYPES as readonly string[]).includes(type)) return undefined;
  return sql<boolean>`${id} in (${IDS[type as TurfType](user)})`;
}

/**
 * A resource's row rule (`rowFilter`) for a turf type: its rows (`t`) inside the person's turf. A site is tested on its
 * own row (the same rule as turfSiteIds, without going through the ids).
 */
export const turfRowFilter = (type: TurfType) => (user: TurfSubject) =>
  type === 'site' && limitedToTurf(user) ? siteRowInTurf(user, 't') : turfCondition(user, type, sql.ref('t.id'));

const OUTSIDE_TURF =
  'This place is outside your turf: you may only add or move sites inside the regions assigned to you or your team.';

/**
 * Before a site is written by a person limited to a turf: refuses (422 on the coordinates) a new site, or a move, whose
 * place lies in none of their turf's regions. In an import this fails that row alone; assertSitesInTurf, after the
 * write, holds every other way a site could end up outside.
 */
export async function checkPlaceInTurf(
  trx: Kysely<any>,
  user: TurfSubject | null,
  latitude: unknown,
  longitude: unknown,
) {
  if (!user || !limitedToTurf(user)) return;
  const containing = await regionsContaining(trx, latitude, longitude);
  const turf = containing.length ? await sql<{ id: number }>`${turfRegionIds(user)}`.execute(trx) : { rows: [] };
  if (turf.rows.some((row) => containing.includes(Number(row.id)))) return;
  throw new ValidationError({ latitude: [OUTSIDE_TURF], longitude: [OUTSIDE_TURF] }, OUTSIDE_TURF);
}

/**
 * A person limited to a turf may not place a site outside it: called after the site's regions are worked out, in the
 * transaction that saves it, so the save is undone (422 on the coordinates) when a site lands outside.
 */
export async function assertSitesInTurf(trx: Kysely<any>, user: TurfSubject | null, siteIds: number[]) {
  if (!user || !siteIds.length || !limitedToTurf(user)) return;
  const inside = await trx
    .selectFrom('sites as t')
    .select('t.id')
    .where('t.id', 'in', siteIds)
    .where(turfCondition(user, 'site', sql.ref('t.id'))!)
    .execute();
  const outside = siteIds.filter((id) => !inside.some((row) => row.id === id));
  if (!outside.length) return;
  throw new ValidationError(
    { latitude: [OUTSIDE_TURF], longitude: [OUTSIDE_TURF] },
    siteIds.length > 1 ? `${outside.length} of the sites are outside your turf.` : OUTSIDE_TURF,
  );
}

/**
 * How many of the sites the person may read lie inside `geometry` (a shape being drawn, before it is saved as a
 * region): the box narrows the candidates in SQL, point-in-polygon decides, as when a region's sites are placed.
 */
export async function sitesInside(
  records: RecordService,
  sites: ResourceDefinition,
  user: AuthUser,
  geometry: AreaGeometry,
): Promise<number> {
  const [minLng, minLat, maxLng, maxLat] = bboxOf(geometry);
  const { rows } = await sql<{
    packed: string | null;
  }>`select string_agg(t.latitude::text || ',' || t.longitude::text, ';') as packed from (${records
    .visibleRows(records.db, sites, user)
    .select(['t.latitude', 't.longitude'])
    .where('t.latitude', '>=', minLat)
    .where('t.latitude', '<=', maxLat)
    .where('t.longitude', '>=', minLng)
    .where('t.longitude', '<=', maxLng)}) t`.execute(records.db);
  return countInside(rows[0]?.packed ?? '', geometry);
}

/** Points packed as "lat,lng;lat,lng" inside the shape (the sites' coordinates in one string: one row from SQL). */
export function countInside(packed: string, geometry: AreaGeometry): number {
  const [minLng, minLat, maxLng, maxLat] = bboxOf(geometry);
  let inside = 0;
  for (const point of packed.split(';')) {
    if (!point) continue;
    const comma = point.indexOf(',');
    const lat = Number(point.slice(0, comma));
    const lng = Number(point.slice(comma + 1));
    // The box first: most points of a large area fall outside it, and the test of a 1,000-corner ring is not cheap.
    if (lat < minLat || lat > maxLat || lng < minLng || lng > maxLng) continue;
    if (pointInGeometry(lng, lat, geometry)) inside++;
  }
  return inside;
}
