import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { notFound, ValidationError } from '../http/errors.js';
import type { MapRegions } from './map-regions.js';
import { filterOptions, searchMap } from './map-search.js';
import type { MapService } from './map-service.js';
import { markerCard } from './marker-data.js';
import { isRowId, parseLayers, searchText, truthyList } from './query-params.js';
import { parseViewport } from './viewport.js';

/**
 * The map's routes (docs/map.md): markers clustered on the server, marker cards, regions with measures and
 * simplified shapes, search and filter options. Each checks the map feature and `map:read` first.
 */
export function registerMapRoutes(app: FastifyInstance, ctx: AppContext, service: MapService, regions: MapRegions) {
  const mapRead = { config: { permission: 'map:read' } } as const;
  const access = async (user: AuthUser | null) => {
    await service.assertMapAccess(user);
    return user!;
  };

  app.get<{ Querystring: Record<string, unknown> }>('/api/map/markers', mapRead, async (request) => {
    const user = await access(request.user);
    const viewport = parseViewport(request.query, { zoomRequired: true });
    const layers = parseLayers(request.query.layers);
    return service.markers(user, viewport, layers, await service.filters(request.query));
  });

  app.get<{ Querystring: Record<string, unknown> }>('/api/map/marker-data', mapRead, async (request) => {
    const user = await access(request.user);
    const id = Number(request.query.id);
    if (!isRowId(id)) throw new ValidationError({ id: ['The id must be a whole number.'] });
    const kind = String(request.query.kind ?? request.query.layer ?? 'site').replace(/s$/, '');
    if (kind !== 'site' && kind !== 'contractor')
      throw new ValidationError({ kind: ['The kind must be site or contractor.'] });
    return { data: await markerCard(ctx, user, kind, id) };
  });

  /** GET /api/map/regions: regions (optionally those in a bbox) with their measures for the person's filters. */
  app.get<{ Querystring: Record<string, unknown> }>('/api/map/regions', mapRead, async (request) => {
    const user = await access(request.user);
    const bbox = request.query.bbox !== undefined ? parseViewport(request.query).bbox : null;
    const rows = await regions.rows(user, request.query, { bbox });
    return { data: await regions.withMeasures(user, rows, request.query), meta: { total: rows.length } };
  });

  /** GET /api/map/regions-geojson?zoom=&bbox=&geometry_type=&measure=&ids=: the regions in view as simplified GeoJSON. */
  app.get<{ Querystring: Record<string, unknown> }>('/api/map/regions-geojson', mapRead, async (request) => {
    const user = await access(request.user);
    const viewport = parseViewport(request.query);
    const ids = truthyList(request.query.ids ?? request.query['ids[]'])
      .map(Number)
      .filter(Number.isInteger);
    return regions.geojson(user, request.query, viewport, ids, request.log);
  });

  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(
    '/api/map/regions/:id',
    mapRead,
    async (request) => {
      const user = await access(request.user);
      const id = Number(request.params.id);
      if (!isRowId(id)) throw notFound(`No region has the id ${request.params.id}.`);
      const region = await regions.detail(user, id, request.query);
      if (!region) throw notFound(`No region has the id ${id}. It may have been deleted.`);
      return { data: region };
    },
  );

  /** GET /api/map/search?q=: sites, places and regions to jump to. */
  app.get<{ Querystring: Record<string, unknown> }>('/api/map/search', mapRead, async (request) => {
    const user = await access(request.user);
    const q = searchText(request.query.q);
    if (q.length < 2) return { data: [] };
    return { data: await searchMap(ctx, service, regions, user, q) };
  });

  /** GET /api/map/filters: what the filter drawer offers, limited to what the person may read. */
  app.get('/api/map/filters', mapRead, async (request) => {
    const user = await access(request.user);
    return { data: await filterOptions(ctx, service, user) };
  });
}
