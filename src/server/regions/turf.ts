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
 * The ids of the sites the person may read (`user` null: every live site) that lie inside `geometry` (a shape being drawn, before it is saved as a
 * region): the box narrows the candidates in SQL, point-in-polygon decides, as when a region's sites are placed.
 */
export async function sitesInside(
  records: RecordService,
  sites: ResourceDefinition,
  user: AuthUser | null,
  geometry: AreaGeometry,
): Promise<number[]> {
  const [minLng, minLat, maxLng, maxLat] = bboxOf(geometry);
  const { rows } = await sql<{
    packed: string | null;
  }>`select string_agg(t.id::text || ',' || t.latitude::text || ',' || t.longitude::text, ';') as packed from (${(
    await records.visibleRows(records.db, sites, user)
  )
    .select(['t.id', 't.latitude', 't.longitude'])
    .where('t.latitude', '>=', minLat)
    .where('t.latitude', '<=', maxLat)
    .where('t.longitude', '>=', minLng)
    .where('t.longitude', '<=', maxLng)}) t`.execute(records.db);
  return idsInside(rows[0]?.packed ?? '', geometry);
}

/** Points packed as "id,lat,lng;id,lat,lng" inside the shape (the sites in one string: one row from SQL), by id. */
export function idsInside(packed: string, geometry: AreaGeometry): number[] {
  const [minLng, minLat, maxLng, maxLat] = bboxOf(geometry);
  const inside: number[] = [];
  for (const point of packed.split(';')) {
    if (!point) continue;
    const [id, latText, lngText] = point.split(',');
    const lat = Number(latText);
    const lng = Number(lngText);
    // The box first: most points of a large area fall outside it, and the test of a 1,000-corner ring is not cheap.
    if (lat < minLat || lat > maxLat || lng < minLng || lng > maxLng) continue;
    if (pointInGeometry(lng, lat, geometry)) inside.push(Number(id));
  }
  return inside;
}
