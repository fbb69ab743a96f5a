import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { escapeLike } from '../records/list-query.js';
import { loadedUsCodes, loadUsShapes } from '../regions/census.js';
import {
  type AreaGeometry,
  type BBox,
  bboxIntersects,
  displayPrecision,
  parseAreaGeometry,
  simplifyGeometry,
} from '../regions/geometry.js';
import { regionsDefinition } from '../regions/store.js';
import type { MapService } from './map-service.js';
import { parseGeometryTypes, parseMeasure, searchText } from './query-params.js';
import { measureFill, unionShare } from './region-colors.js';
import type { Viewport } from './viewport.js';

const MAX_GEOJSON_FEATURES = 4_000;
const SIMPLIFIED_CACHE_LIMIT = 30_000;
const SHAPE_CACHE_LIMIT = 5_000;

export interface RegionRow {
  id: number;
  name: string;
  geometry_type: string;
  code: string | null;
  color: string | null;
  min_lat: number | null;
  min_lng: number | null;
  max_lat: number | null;
  max_lng: number | null;
  /** `updated_at` as text: a changed region is a new version of its shape. */
  version: string;
}

/**
 * The map's regions: the rows a person may read (by geometry type, search, box or ids), each with its measure for
 * the person's site filters and its fill colour, and shapes simplified for a zoom. Parsed shapes and simplified
 * shapes are kept per region version, so panning and zooming reuse them.
 */
export class MapRegions {
  private readonly simplified = new Map<string, AreaGeometry | null>();
  private readonly shapeCache = new Map<number, { version: string; geometry: AreaGeometry | null }>();
  private statesReady: Promise<void> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly service: MapService,
  ) {}

  /** Regions the person may read: `geometry_type` (or `type`) and `q` from the query, optionally in a box or by id. */
  async rows(
    user: AuthUser,
    query: Record<string, unknown>,
    options: { bbox?: BBox | null; ids?: number[] } = {},
  ): Promise<RegionRow[]> {
    const def = regionsDefinition(this.ctx);
    this.ctx.records.authorize(user, def, 'read');
    const types = parseGeometryTypes(query.geometry_type ?? query.type);
    let q = (await this.ctx.records.visibleRows(this.ctx.db, def, user)).select([
      't.id',
      't.name',
      't.geometry_type',
      't.code',
      't.color',
      't.min_lat',
      't.min_lng',
      't.max_lat',
      't.max_lng',
      sql<string>`t.updated_at::text`.as('version'),
    ]);
    if (types.length) q = q.where('t.geometry_type', 'in', types);
    if (options.ids?.length) q = q.where('t.id', 'in', options.ids);
    const search = searchText(query.q);
    if (search)
      q = q.where((eb) =>
        eb.or([eb('t.name', 'ilike', `%${escapeLike(search)}%`), eb('t.code', 'ilike', `${escapeLike(search)}%`)]),
      );
    if (options.bbox) {
      const [, south, , north] = options.bbox;
      q = q.where('t.max_lat', '>=', south).where('t.min_lat', '<=', north);
    }
    const rows = (await q.orderBy('t.geometry_type').orderBy('t.name').limit(20_000).execute()) as RegionRow[];
    return options.bbox
      ? rows.filter(
          (r) => r.min_lat !== null && bboxIntersects(options.bbox!, [r.min_lng!, r.min_lat, r.max_lng!, r.max_lat!]),
        )
      : rows;
  }

  /** Each region with its measure (`measure`, default sites) over the sites matching the other filters of the query. */
  async withMeasures(user: AuthUser, rows: RegionRow[], query: Record<string, unknown>) {
    const measure = parseMeasure(query.measure) ?? 'sites';
    // `q` searches regions here; every other filter applies to the sites counted.
    const { q: _q, search: _search, ...siteQuery } = query;
    const measures = await this.service.regionMeasures(user, await this.service.filters(user, siteQuery));
    const maxSites = rows.reduce((m, r) => Math.max(m, measures.get(r.id)?.sites ?? 0), 0);
    return rows.map((r) => {
      const m = measures.get(r.id);
      const { value, fill } = measureFill(measure, m, maxSites);
      const share = unionShare(m);
      return {
        id: r.id,
        name: r.name,
        geometry_type: r.geometry_type,
        code: r.code,
        color: r.color,
        bbox: r.min_lat === null ? null : ([r.min_lng, r.min_lat, r.max_lng, r.max_lat] as BBox),
        site_count: m?.sites ?? 0,
        union_sites: m?.union_sites ?? 0,
        non_union_sites: m?.non_union_sites ?? 0,
        union_share: share === null ? null : Math.round(share * 1000) / 1000,
        measure,
        value,
        fill,
      };
    });
  }

  /**
   * A FeatureCollection of the regions in view, each shape simplified to about one pixel at the zoom and rounded to
   * match, with the measure's value and fill colour in its properties. The first call loads the Census states when
   * the database has none, so even offline the map has outlines to read the markers against.
   */
  async geojson(
    user: AuthUser,
    query: Record<string, unknown>,
    viewport: Viewport,
    ids: number[],
    log: { error: (obj: unknown, msg?: string) => void },
  ) {
    await this.ensureStateShapes(log);
    let rows = await this.rows(user, query, { bbox: viewport.bbox, ids });
    const truncated = rows.length > MAX_GEOJSON_FEATURES;
    if (truncated) rows = rows.slice(0, MAX_GEOJSON_FEATURES);
    const zoom = Math.min(viewport.zoom, 14);
    const { tolerance, decimals } = displayPrecision(zoom);
    const full = await this.shapes(rows);
    const measured = await this.withMeasures(user, rows, query);
    const features = [];
    for (const [i, row] of rows.entries()) {
      const key = `${row.id}|${row.version}|${zoom}`;
      let geometry = this.simplified.get(key);
      if (geometry === undefined) {
        const shape = full.get(row.id);
        geometry = shape ? simplifyGeometry(shape, tolerance, decimals) : null;
        if (this.simplified.size >= SIMPLIFIED_CACHE_LIMIT)
          this.simplified.delete(this.simplified.keys().next().value!);
        this.simplified.set(key, geometry);
      }
      if (!geometry) continue;
      const { bbox: _bbox, ...properties } = measured[i];
      features.push({ type: 'Feature', id: row.id, properties, geometry });
    }
    return { type: 'FeatureCollection', features, meta: { zoom: viewport.zoom, truncated, total: features.length } };
  }

  /** One region with its measure and its whole shape; null when the person may not read it or it is gone. */
  async detail(user: AuthUser, id: number, query: Record<string, unknown>) {
    const [row] = await this.rows(user, {}, { ids: [id] });
    if (!row) return null;
    const [measured] = await this.withMeasures(user, [row], query);
    const geometry = (await this.shapes([row])).get(id) ?? null;
    return { ...measured, geometry };
  }

  /** The Census states, loaded once when fewer than 50 have a real shape; a failure is logged and tried again next time. */
  private ensureStateShapes(log: { error: (obj: unknown, msg?: string) => void }) {
    return (this.statesReady ??= (async () => {
      const loaded = await loadedUsCodes(this.ctx, 'state');
      if (loaded.size < 50)
        await loadUsShapes(this.ctx, null, 'states', undefined, { system: true, onlyMissing: true });
    })().catch((error) => {
      this.statesReady = null;
      log.error({ err: error }, 'Loading the Census state shapes failed');
    }));
  }

  /** Parsed shapes of the rows, from the cache while their version holds. */
  private async shapes(rows: Array<{ id: number; version: string }>): Promise<Map<number, AreaGeometry | null>> {
    const out = new Map<number, AreaGeometry | null>();
    const missing: number[] = [];
    for (const r of rows) {
      const hit = this.shapeCache.get(r.id);
      if (hit && hit.version === r.version) out.set(r.id, hit.geometry);
      else missing.push(r.id);
    }
    for (let i = 0; i < missing.length; i += 500) {
      const found = await this.ctx.db
        .selectFrom('regions')
        .select(['id', sql<string>`updated_at::text`.as('version'), 'geometry'])
        .where('id', 'in', missing.slice(i, i + 500))
        .execute();
      for (const row of found) {
        let geometry: AreaGeometry | null = null;
        try {
          geometry = row.geometry
            ? parseAreaGeometry(typeof row.geometry === 'string' ? JSON.parse(row.geometry) : row.geometry)
            : null;
        } catch {
          geometry = null;
        }
        out.set(row.id, geometry);
        if (this.shapeCache.size > SHAPE_CACHE_LIMIT) this.shapeCache.delete(this.shapeCache.keys().next().value!);
        this.shapeCache.set(row.id, { version: row.version, geometry });
      }
    }
    return out;
  }
}
