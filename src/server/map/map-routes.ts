import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { CATEGORY_PERMISSIONS, permittedCategories } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { notFound, ValidationError } from '../http/errors.js';
import { escapeLike } from '../records/list-query.js';
import type { FieldSpec } from '../records/resource.js';
import { assignSites } from '../regions/assign.js';
import { bboxIntersects, displayPrecision, parseAreaGeometry, simplifyGeometry, type AreaGeometry, type BBox } from '../regions/geometry.js';
import { regionsResource } from '../regions/regions-resource.js';
import { loadUsShapes, registerRegionRoutes } from '../regions/regions-routes.js';
import { loadedUsCodes, regionsDefinition } from '../regions/store.js';
import { sitesDefinition } from './definitions.js';
import { parseMapFilters, type MapFilters } from './filters.js';
import { mapServiceFor, type MapService } from './map-service.js';
import { markerCard } from './marker-data.js';
import type { MarkerItem } from '../../common/map-types.js';
import { queryMarkerIndex } from './marker-index.js';
import { onModelEvent } from './model-events.js';
import { MEASURES, measureFill, unionShare, type Measure } from './region-colors.js';
import { parseViewport } from './viewport.js';

/** Record types whose changes can change what the map shows. */
const MAP_TYPES = new Set(['site', 'contractor', 'region', 'feature', 'site-type', 'site-status', 'trade']);
const MAX_GEOJSON_FEATURES = 4_000;
const SIMPLIFIED_CACHE_LIMIT = 30_000;

const truthyList = (value: unknown): string[] =>
  value === undefined || value === null || value === '' ? [] : (Array.isArray(value) ? value : String(value).split(',')).map((v) => String(v).trim()).filter(Boolean);

function parseLayers(value: unknown): Array<'sites' | 'contractors'> {
  const list = truthyList(value);
  if (list.length === 0) return ['sites'];
  const bad = list.filter((l) => l !== 'sites' && l !== 'contractors');
  if (bad.length) throw new ValidationError({ layers: ['The layers must be sites and/or contractors.'] });
  return [...new Set(list)] as Array<'sites' | 'contractors'>;
}

function parseMeasure(value: unknown): Measure | null {
  if (value === undefined || value === '' || value === null) return null;
  if (!(MEASURES as readonly string[]).includes(String(value))) throw new ValidationError({ measure: [`The measure must be one of: ${MEASURES.join(', ')}.`] });
  return value as Measure;
}

function parseGeometryTypes(value: unknown): string[] {
  const list = truthyList(value);
  const bad = list.filter((t) => !['state', 'county', 'postal-code'].includes(t));
  if (bad.length) throw new ValidationError({ geometry_type: ['The geometry type must be state, county or postal-code.'] });
  return list;
}

async function filtersFrom(service: MapService, ctx: AppContext, query: Record<string, unknown>): Promise<MapFilters> {
  const fields = await service.siteFields();
  return parseMapFilters(query, sitesDefinition(ctx), fields);
}

/**
 * The map's routes (docs/map.md): markers clustered on the server, marker cards, regions with measures and
 * simplified shapes, search, filter options; plus the regions resource and its extra routes when the records
 * feature has not defined regions itself. Wired from features-index.ts.
 */
export function registerMapRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = mapServiceFor(ctx);
  if (!ctx.resources.get('regions')) ctx.resources.add(regionsResource);
  registerRegionRoutes(app, ctx);

  // Live: a site saved anywhere in this process is placed in its regions (unless the sites definition already
  // did it in its transaction: doing it twice is harmless) and every marker index is rebuilt on next use,
  // before the event reaches the browsers that will ask for markers again.
  onModelEvent(
    ctx,
    async (event) => {
      if (event.event === 'ImportComplete' && event.id) {
        // Imports write sites in batches without a model event each: place the imported sites now.
        const siteIds = (
          await ctx.db.selectFrom('import_records').select('record_id').where('import_id', '=', event.id).where('record_type', '=', 'site').execute()
        ).map((r) => Number(r.record_id));
        if (siteIds.length) await ctx.db.transaction().execute((trx) => assignSites(trx, [...new Set(siteIds)]));
        service.changed();
        return;
      }
      if (event.event !== 'ModelSaved' && event.event !== 'ModelDestroyed') return;
      if (!MAP_TYPES.has(event.type)) return;
      service.changed();
    },
    app.log,
  );

  const mapRead = { config: { permission: 'map:read' } } as const;
  const access = async (user: AuthUser | null) => {
    await service.assertMapAccess(user);
    return user!;
  };

  // ---- markers --------------------------------------------------------------------------------------------

  app.get<{ Querystring: Record<string, unknown> }>('/api/map/markers', mapRead, async (request) => {
    const user = await access(request.user);
    const viewport = parseViewport(request.query, { zoomRequired: true });
    const layers = parseLayers(request.query.layers);
    const filters = await filtersFrom(service, ctx, request.query);
    const data: MarkerItem[] = [];
    const total: Record<string, number> = {};
    const inView: Record<string, number> = {};
    let countsByType: Record<string, number> = {};
    let bounds: [number, number, number, number] | null = null;
    for (const layer of layers) {
      const readable = layer === 'sites' ? service.canReadSites(user) : service.canReadContractors(user);
      if (!readable) {
        total[layer] = 0;
        inView[layer] = 0;
        continue;
      }
      const index = await service.markerIndex(user, layer, filters);
      const items = queryMarkerIndex(index, viewport);
      total[layer] = index.total;
      inView[layer] = items.reduce((n, item) => n + (item.kind === 'cluster' ? item.count : 1), 0);
      if (layer === 'sites') countsByType = index.countsByType;
      if (index.bounds) {
        const b = index.bounds;
        bounds = bounds ? [Math.min(bounds[0], b[0]), Math.min(bounds[1], b[1]), Math.max(bounds[2], b[2]), Math.max(bounds[3], b[3])] : b;
      }
      for (const item of items) data.push(item);
    }
    return {
      data,
      meta: {
        zoom: viewport.zoom,
        bbox: viewport.bbox,
        layers,
        total,
        in_view: inView,
        counts_by_type: countsByType,
        bounds,
        clusters: data.filter((d) => d.kind === 'cluster').length,
        points: data.filter((d) => d.kind !== 'cluster').length,
        version: service.generation,
      },
    };
  });

  app.get<{ Querystring: Record<string, unknown> }>('/api/map/marker-data', mapRead, async (request) => {
    const user = await access(request.user);
    const id = Number(request.query.id);
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw new ValidationError({ id: ['The id must be a whole number.'] });
    const kind = String(request.query.kind ?? request.query.layer ?? 'site').replace(/s$/, '');
    if (kind !== 'site' && kind !== 'contractor') throw new ValidationError({ kind: ['The kind must be site or contractor.'] });
    return { data: await markerCard(ctx, user, kind, id) };
  });

  // ---- regions --------------------------------------------------------------------------------------------

  const regionRows = async (user: AuthUser, query: Record<string, unknown>, options: { bbox?: BBox | null; ids?: number[] } = {}) => {
    const def = regionsDefinition(ctx);
    ctx.records.authorize(user, def, 'read');
    const types = parseGeometryTypes(query.geometry_type ?? query.type);
    let q = ctx.records
      .visibleRows(ctx.db, def, user)
      .select(['t.id', 't.name', 't.geometry_type', 't.code', 't.color', 't.min_lat', 't.min_lng', 't.max_lat', 't.max_lng', sql<string>`t.updated_at::text`.as('version')]);
    if (types.length) q = q.where('t.geometry_type', 'in', types);
    if (options.ids?.length) q = q.where('t.id', 'in', options.ids);
    const search = typeof query.q === 'string' ? query.q.trim().slice(0, 100) : '';
    if (search) q = q.where((eb) => eb.or([eb('t.name', 'ilike', `%${escapeLike(search)}%`), eb('t.code', 'ilike', `${escapeLike(search)}%`)]));
    if (options.bbox) {
      const [, south, , north] = options.bbox;
      q = q.where('t.max_lat', '>=', south).where('t.min_lat', '<=', north);
    }
    const rows = await q.orderBy('t.geometry_type').orderBy('t.name').limit(20_000).execute();
    return options.bbox ? rows.filter((r: any) => r.min_lat !== null && bboxIntersects(options.bbox!, [r.min_lng, r.min_lat, r.max_lng, r.max_lat])) : rows;
  };

  const withMeasures = async (user: AuthUser, rows: any[], query: Record<string, unknown>) => {
    const measure = parseMeasure(query.measure) ?? 'sites';
    // `q` searches regions here; every other filter applies to the sites counted.
    const { q: _q, search: _search, ...siteQuery } = query;
    const filters = await filtersFrom(service, ctx, siteQuery);
    const measures = await service.regionMeasures(user, filters);
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
        bbox: r.min_lat === null ? null : [r.min_lng, r.min_lat, r.max_lng, r.max_lat],
        site_count: m?.sites ?? 0,
        union_sites: m?.union_sites ?? 0,
        non_union_sites: m?.non_union_sites ?? 0,
        union_share: share === null ? null : Math.round(share * 1000) / 1000,
        measure,
        value,
        fill,
      };
    });
  };

  /** GET /api/map/regions: regions (optionally those in a bbox) with their measures for the person's filters. */
  app.get<{ Querystring: Record<string, unknown> }>('/api/map/regions', mapRead, async (request) => {
    const user = await access(request.user);
    const bbox = request.query.bbox !== undefined ? parseViewport(request.query).bbox : null;
    const rows = await regionRows(user, request.query, { bbox });
    return { data: await withMeasures(user, rows, request.query), meta: { total: rows.length } };
  });

  // The map's first request for shapes loads the Census states when none are in the database, so even
  // without tiles (offline) the map has outlines to read the markers against. Once per process.
  let statesReady: Promise<void> | null = null;
  const ensureStateShapes = (log: { error: (obj: unknown, msg?: string) => void }) =>
    (statesReady ??= (async () => {
      const loaded = await loadedUsCodes(ctx, 'state');
      if (loaded.size < 50) await loadUsShapes(ctx, null, 'states', undefined, { system: true, onlyMissing: true });
    })().catch((error) => {
      statesReady = null;
      log.error({ err: error }, 'Loading the Census state shapes failed');
    }));

  const simplified = new Map<string, AreaGeometry | null>();
  const shapeCache = new Map<number, { version: string; geometry: AreaGeometry | null }>();

  async function shapes(rows: Array<{ id: number; version: string }>): Promise<Map<number, AreaGeometry | null>> {
    const out = new Map<number, AreaGeometry | null>();
    const missing: number[] = [];
    for (const r of rows) {
      const hit = shapeCache.get(r.id);
      if (hit && hit.version === r.version) out.set(r.id, hit.geometry);
      else missing.push(r.id);
    }
    for (let i = 0; i < missing.length; i += 500) {
      const found = await ctx.db
        .selectFrom('regions')
        .select(['id', sql<string>`updated_at::text`.as('version'), 'geometry'])
        .where('id', 'in', missing.slice(i, i + 500))
        .execute();
      for (const row of found) {
        let geometry: AreaGeometry | null = null;
        try {
          geometry = row.geometry ? parseAreaGeometry(typeof row.geometry === 'string' ? JSON.parse(row.geometry) : row.geometry) : null;
        } catch {
          geometry = null;
        }
        out.set(row.id, geometry);
        if (shapeCache.size > 5_000) shapeCache.delete(shapeCache.keys().next().value!);
        shapeCache.set(row.id, { version: row.version, geometry });
      }
    }
    return out;
  }

  /**
   * GET /api/map/regions-geojson?zoom=&bbox=&geometry_type=&measure=: a FeatureCollection of the regions in
   * view, each shape simplified to about one pixel at that zoom and rounded to match, with the measure's value
   * and fill colour in its properties.
   */
  app.get<{ Querystring: Record<string, unknown> }>('/api/map/regions-geojson', mapRead, async (request) => {
    const user = await access(request.user);
    const viewport = parseViewport(request.query);
    await ensureStateShapes(request.log);
    const ids = truthyList(request.query.ids ?? request.query['ids[]']).map(Number).filter(Number.isInteger);
    let rows = await regionRows(user, request.query, { bbox: viewport.bbox, ids });
    const truncated = rows.length > MAX_GEOJSON_FEATURES;
    if (truncated) rows = rows.slice(0, MAX_GEOJSON_FEATURES);
    const zoom = Math.min(viewport.zoom, 14);
    const { tolerance, decimals } = displayPrecision(zoom);
    const full = await shapes(rows as any[]);
    const measured = await withMeasures(user, rows, request.query);
    const features = [];
    for (const [i, row] of (rows as any[]).entries()) {
      const key = `${row.id}|${row.version}|${zoom}`;
      let geometry = simplified.get(key);
      if (geometry === undefined) {
        const shape = full.get(row.id);
        geometry = shape ? simplifyGeometry(shape, tolerance, decimals) : null;
        if (simplified.size >= SIMPLIFIED_CACHE_LIMIT) simplified.delete(simplified.keys().next().value!);
        simplified.set(key, geometry);
      }
      if (!geometry) continue;
      const { bbox: _bbox, ...properties } = measured[i];
      features.push({ type: 'Feature', id: row.id, properties, geometry });
    }
    return { type: 'FeatureCollection', features, meta: { zoom: viewport.zoom, truncated, total: features.length } };
  });

  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>('/api/map/regions/:id', mapRead, async (request) => {
    const user = await access(request.user);
    const id = Number(request.params.id);
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw notFound(`No region has the id ${request.params.id}.`);
    const [row] = await regionRows(user, {}, { ids: [id] });
    if (!row) throw notFound(`No region has the id ${id}. It may have been deleted.`);
    const [measured] = await withMeasures(user, [row], request.query);
    const geometry = (await shapes([row as any])).get(id) ?? null;
    return { data: { ...measured, geometry } };
  });

  // ---- search and filter options --------------------------------------------------------------------------

  /**
   * GET /api/map/search?q=: where to jump. Sites the person may read by name or address, places (a city, or a
   * postal code, among those sites) and regions by name or code; no outside geocoder, so it works offline.
   */
  app.get<{ Querystring: Record<string, unknown> }>('/api/map/search', mapRead, async (request) => {
    const user = await access(request.user);
    const q = typeof request.query.q === 'string' ? request.query.q.trim().slice(0, 100) : '';
    if (q.length < 2) return { data: [] };
    const like = `%${escapeLike(q)}%`;
    const data: Array<Record<string, unknown>> = [];
    if (service.canReadSites(user)) {
      const def = sitesDefinition(ctx);
      const sites = await ctx.records
        .visibleRows(ctx.db, def, user)
        .select(['t.id', 't.name', 't.street', 't.city', 't.state', 't.postal_code', 't.latitude', 't.longitude'])
        .where('t.latitude', 'is not', null)
        .where((eb) => eb.or([eb('t.name', 'ilike', like), eb(sql`coalesce(t.street, '') || ' ' || coalesce(t.city, '') || ' ' || coalesce(t.postal_code, '')`, 'ilike', like)]))
        .orderBy(sql`t.name ilike ${escapeLike(q) + '%'}`, 'desc')
        .orderBy('t.name')
        .limit(8)
        .execute();
      for (const s of sites as any[]) {
        data.push({ kind: 'site', id: s.id, label: s.name, detail: [s.street, s.city, s.state, s.postal_code].filter(Boolean).join(', '), lat: s.latitude, lng: s.longitude });
      }
      const places = await ctx.records
        .visibleRows(ctx.db, def, user)
        .select([
          sql<string>`case when t.postal_code ilike ${escapeLike(q) + '%'} then t.postal_code else t.city || coalesce(', ' || t.state, '') end`.as('label'),
          sql<number>`count(*)`.as('count'),
          sql<number>`min(t.latitude)`.as('south'),
          sql<number>`max(t.latitude)`.as('north'),
          sql<number>`min(t.longitude)`.as('west'),
          sql<number>`max(t.longitude)`.as('east'),
        ])
        .where('t.latitude', 'is not', null)
        .where((eb) => eb.or([eb('t.city', 'ilike', `${escapeLike(q)}%`), eb('t.postal_code', 'ilike', `${escapeLike(q)}%`)]))
        .groupBy(sql`1`)
        .orderBy(sql`count(*)`, 'desc')
        .limit(5)
        .execute();
      for (const p of places as any[]) {
        if (!p.label) continue;
        data.push({ kind: 'place', label: p.label, detail: `${p.count} site${Number(p.count) === 1 ? '' : 's'}`, bbox: [p.west, p.south, p.east, p.north], lat: (p.south + p.north) / 2, lng: (p.west + p.east) / 2 });
      }
    }
    const regions = await regionRows(user, { q }, {});
    for (const r of regions.slice(0, 6) as any[]) {
      if (r.min_lat === null) continue;
      data.push({ kind: 'region', id: r.id, label: r.name, detail: r.geometry_type, bbox: [r.min_lng, r.min_lat, r.max_lng, r.max_lat], lat: (r.min_lat + r.max_lat) / 2, lng: (r.min_lng + r.max_lng) / 2 });
    }
    return { data };
  });

  /** GET /api/map/filters: what the filter drawer offers, limited to what the person may read. */
  app.get('/api/map/filters', mapRead, async (request) => {
    const user = await access(request.user);
    const def = sitesDefinition(ctx);
    const allowed = permittedCategories(user, def.permission ?? def.type, 'read');
    const named = (table: string, extra: string[] = []) =>
      ctx.db
        .selectFrom(table)
        .select(['id', 'name', ...extra])
        .where('deleted_at', 'is', null)
        .orderBy('position')
        .orderBy('name')
        .execute();
    const [siteTypes, statuses, phases, buildingTypes, trades] = await Promise.all([
      ctx.db.selectFrom('site_types').select(['slug', 'name', 'color']).where('deleted_at', 'is', null).orderBy('position').orderBy('name').execute(),
      named('site_statuses', ['color']),
      named('site_phases'),
      named('building_types'),
      named('trades'),
    ]);
    const fields = await service.siteFields();
    const dropdowns = Object.entries(fields)
      .filter(([name, spec]) => (spec.kind === 'enum' || spec.kind === 'enum[]') && name !== 'type' && spec.filterable !== false && spec.options?.length)
      .map(([name, spec]) => ({ field: name, label: spec.label ?? name.replace(/_/g, ' '), options: spec.options!.map((o) => ({ id: o, name: o })) }));
    const dateFields: Record<string, FieldSpec> = { ...fields, created_at: { kind: 'datetime', label: 'created' } };
    const dates = Object.entries(dateFields)
      .filter(([, spec]) => spec.kind === 'date' || spec.kind === 'datetime')
      .map(([name, spec]) => ({ field: name, label: spec.label ?? name.replace(/_/g, ' ') }));
    const visibleType = (slug: string) => allowed === 'all' || allowed.includes(slug);
    return {
      data: {
        site_types: siteTypes.filter((t: any) => visibleType(t.slug)).map((t: any) => ({ id: t.slug, name: t.name, color: t.color ?? null })),
        categories: CATEGORY_PERMISSIONS.site.filter(visibleType),
        statuses,
        phases,
        building_types: buildingTypes,
        trades,
        contractor_types: [
          { id: 'union', name: 'Union' },
          { id: 'non-union', name: 'Non-Union' },
          { id: 'general', name: 'General' },
          { id: 'none', name: 'No Type' },
        ].filter((t) => {
          const c = permittedCategories(user, 'contractor', 'read');
          return c === 'all' || c.includes(t.id);
        }),
        dropdowns,
        dates,
        layers: { sites: service.canReadSites(user), contractors: service.canReadContractors(user) },
      },
    };
  });

}
