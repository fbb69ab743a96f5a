import { type Kysely, type NotNull, sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.generated.js';
import { type AreaGeometry, parseAreaGeometry, pointInGeometry } from './geometry.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Parsed region shapes, kept while the region is unchanged (keyed by id, checked against updated_at). */
const shapeCache = new Map<number, { version: string; geometry: AreaGeometry | null }>();
const SHAPE_CACHE_LIMIT = 5_000;

function toShape(raw: unknown): AreaGeometry | null {
  if (!raw) return null;
  try {
    return parseAreaGeometry(typeof raw === 'string' ? JSON.parse(raw) : raw);
  } catch {
    return null;
  }
}

/** What identifies one version of a region's shape (microsecond timestamp and box: safe across databases). */
const versionColumn = sql<string>`updated_at::text || '|' || coalesce(min_lat, 0)::text || coalesce(min_lng, 0)::text || coalesce(max_lat, 0)::text || coalesce(max_lng, 0)::text`;

async function shapesOf(
  db: Db,
  regions: Array<{ id: number; version: string }>,
): Promise<Map<number, AreaGeometry | null>> {
  const out = new Map<number, AreaGeometry | null>();
  const missing: number[] = [];
  for (const r of regions) {
    const version = r.version;
    const hit = shapeCache.get(r.id);
    if (hit && hit.version === version) out.set(r.id, hit.geometry);
    else missing.push(r.id);
  }
  if (missing.length) {
    const rows = await db
      .selectFrom('regions')
      .select(['id', versionColumn.as('version'), 'geometry'])
      .where('id', 'in', missing)
      .execute();
    for (const row of rows) {
      const geometry = toShape(row.geometry);
      out.set(row.id, geometry);
      if (shapeCache.size >= SHAPE_CACHE_LIMIT) shapeCache.delete(shapeCache.keys().next().value!);
      shapeCache.set(row.id, { version: row.version, geometry });
    }
  }
  return out;
}

/**
 * Works out which regions contain a site and records it in `site_regions` (replacing what was there): the
 * regions' bounding-box columns narrow the candidates in SQL, then point-in-polygon decides (regionsContaining).
 * Call it in the transaction that saves the site. Returns the region ids.
 */
export async function assignSiteRegions(
  trx: Db,
  siteId: number,
  lat: number | null | undefined,
  lng: number | null | undefined,
): Promise<number[]> {
  await trx.deleteFrom('site_regions').where('site_id', '=', siteId).execute();
  const inside = await regionsContaining(trx, lat, lng);
  if (inside.length)
    await trx
      .insertInto('site_regions')
      .values(inside.map((id) => ({ site_id: siteId, region_id: id })))
      .execute();
  return inside;
}

/** The live regions containing a point, ascending ids (none for a point without both coordinates). */
export async function regionsContaining(trx: Db, lat: unknown, lng: unknown): Promise<number[]> {
  if (lat === null || lat === undefined || lat === '' || lng === null || lng === undefined || lng === '') return [];
  const latitude = Number(lat);
  const longitude = Number(lng);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return [];
  const candidates = await trx
    .selectFrom('regions')
    .select(['id', versionColumn.as('version')])
    .where('deleted_at', 'is', null)
    .where('min_lat', 'is not', null)
    // The GiST index on this expression (migration 004_map) finds the candidate boxes.
    .where(sql<boolean>`box(point(min_lng, min_lat), point(max_lng, max_lat)) @> point(${longitude}, ${latitude})`)
    .execute();
  if (candidates.length === 0) return [];
  const shapes = await shapesOf(trx, candidates);
  const inside = candidates.filter((r) => {
    const shape = shapes.get(r.id);
    return shape ? pointInGeometry(longitude, latitude, shape) : false;
  });
  return inside.map((r) => r.id).sort((a, b) => a - b);
}

const INSERT_CHUNK = 5_000;

/**
 * Recomputes the sites of some regions (after they are created, reshaped, restored, loaded or uploaded):
 * every site with coordinates, deleted or not, so a restored site is already placed. For a few regions each
 * one asks SQL for the sites in its box; for many, all sites are read once and bucketed in a grid of 1° cells.
 * Returns how many (site, region) pairs were written.
 */
export async function assignRegionSites(trx: Db, regionIds: number[]): Promise<number> {
  if (regionIds.length === 0) return 0;
  const regions = await trx
    .selectFrom('regions')
    .select(['id', versionColumn.as('version'), 'min_lat', 'min_lng', 'max_lat', 'max_lng'])
    .where('id', 'in', regionIds)
    .where('deleted_at', 'is', null)
    .where('min_lat', 'is not', null)
    .$narrowType<{ min_lat: NotNull; min_lng: NotNull; max_lat: NotNull; max_lng: NotNull }>()
    .execute();
  await trx.deleteFrom('site_regions').where('region_id', 'in', regionIds).execute();
  if (regions.length === 0) return 0;
  const shapes = await shapesOf(trx, regions);
  const pairs: Array<{ site_id: number; region_id: number }> = [];

  if (regions.length <= 20) {
    for (const region of regions) {
      const shape = shapes.get(region.id);
      if (!shape) continue;
      const sites = await trx
        .selectFrom('sites')
        .select(['id', 'latitude', 'longitude'])
        .where('latitude', '>=', region.min_lat)
        .where('latitude', '<=', region.max_lat)
        .where('longitude', '>=', region.min_lng)
        .where('longitude', '<=', region.max_lng)
        .$narrowType<{ latitude: NotNull; longitude: NotNull }>()
        .execute();
      for (const s of sites)
        if (pointInGeometry(s.longitude, s.latitude, shape)) pairs.push({ site_id: s.id, region_id: region.id });
    }
  } else {
    const packed = await sql<{ packed: string | null }>`
      select string_agg(id::text || ',' || latitude::text || ',' || longitude::text, ';') as packed
      from sites where latitude is not null and longitude is not null`.execute(trx);
    const grid = new Map<number, number[]>(); // cell -> flat [id, lat, lng, ...]
    const cell = (lat: number, lng: number) => Math.floor(lat + 90) * 1000 + Math.floor(lng + 180);
    for (const record of (packed.rows[0]?.packed ?? '').split(';')) {
      if (!record) continue;
      const [id, lat, lng] = record.split(',').map(Number);
      const key = cell(lat, lng);
      let list = grid.get(key);
      if (!list) grid.set(key, (list = []));
      list.push(id, lat, lng);
    }
    for (const region of regions) {
      const shape = shapes.get(region.id);
      if (!shape) continue;
      for (let la = Math.floor(region.min_lat); la <= Math.floor(region.max_lat); la++) {
        for (let lo = Math.floor(region.min_lng); lo <= Math.floor(region.max_lng); lo++) {
          const list = grid.get((la + 90) * 1000 + (lo + 180));
          if (!list) continue;
          for (let i = 0; i < list.length; i += 3) {
            const lat = list[i + 1];
            const lng = list[i + 2];
            if (lat < region.min_lat || lat > region.max_lat || lng < region.min_lng || lng > region.max_lng) continue;
            if (pointInGeometry(lng, lat, shape)) pairs.push({ site_id: list[i], region_id: region.id });
          }
        }
      }
    }
  }
  for (let i = 0; i < pairs.length; i += INSERT_CHUNK) {
    await trx
      .insertInto('site_regions')
      .values(pairs.slice(i, i + INSERT_CHUNK))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return pairs.length;
}

/**
 * Places many sites at once (after an import wrote them without the per-site hook): their old region rows are
 * replaced; regions whose box overlaps the sites' box are the candidates. Returns the pairs written.
 */
export async function assignSites(trx: Db, siteIds: number[]): Promise<number> {
  let written = 0;
  for (let i = 0; i < siteIds.length; i += 5_000) {
    const chunk = siteIds.slice(i, i + 5_000);
    await trx.deleteFrom('site_regions').where('site_id', 'in', chunk).execute();
    const sites = await trx
      .selectFrom('sites')
      .select(['id', 'latitude', 'longitude'])
      .where('id', 'in', chunk)
      .where('latitude', 'is not', null)
      .where('longitude', 'is not', null)
      .$narrowType<{ latitude: NotNull; longitude: NotNull }>()
      .execute();
    if (sites.length === 0) continue;
    let south = 90;
    let north = -90;
    let west = 180;
    let east = -180;
    for (const site of sites) {
      south = Math.min(south, site.latitude);
      north = Math.max(north, site.latitude);
      west = Math.min(west, site.longitude);
      east = Math.max(east, site.longitude);
    }
    const regions = await trx
      .selectFrom('regions')
      .select(['id', versionColumn.as('version'), 'min_lat', 'min_lng', 'max_lat', 'max_lng'])
      .where('deleted_at', 'is', null)
      .where('min_lat', 'is not', null)
      .where('max_lat', '>=', south)
      .where('min_lat', '<=', north)
      .where('max_lng', '>=', west)
      .where('min_lng', '<=', east)
      .$narrowType<{ min_lat: NotNull; min_lng: NotNull; max_lat: NotNull; max_lng: NotNull }>()
      .execute();
    if (regions.length === 0) continue;
    const shapes = await shapesOf(trx, regions);
    const pairs: Array<{ site_id: number; region_id: number }> = [];
    for (const site of sites) {
      for (const region of regions) {
        if (
          site.latitude < region.min_lat ||
          site.latitude > region.max_lat ||
          site.longitude < region.min_lng ||
          site.longitude > region.max_lng
        )
          continue;
        const shape = shapes.get(region.id);
        if (shape && pointInGeometry(site.longitude, site.latitude, shape))
          pairs.push({ site_id: site.id, region_id: region.id });
      }
    }
    for (let k = 0; k < pairs.length; k += INSERT_CHUNK)
      await trx
        .insertInto('site_regions')
        .values(pairs.slice(k, k + INSERT_CHUNK))
        .onConflict((oc) => oc.doNothing())
        .execute();
    written += pairs.length;
  }
  return written;
}

/** Places every site again (after a bulk import that bypassed the per-site hook, or to repair). */
export async function assignAllSites(db: Kysely<DB>): Promise<number> {
  const ids = (await db.selectFrom('regions').select('id').where('deleted_at', 'is', null).execute()).map((r) => r.id);
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('site_regions').execute();
    return assignRegionSites(trx, ids);
  });
}
