import { sql } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';
import { type AreaGeometry, bboxOf, pointInGeometry } from './geometry.js';

/*
 * A person's turf as a rule (which sites, and what hangs on them) is the access policy's: src/server/access/turf.ts.
 * Here: what the turf dialog counts inside a shape being drawn.
 */

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
  }>`select string_agg(t.latitude::text || ',' || t.longitude::text, ';') as packed from (${(
    await records.visibleRows(records.db, sites, user)
  )
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
