import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { noQuery, queryValue, rowWith } from '../http/contracts.js';
import { notFound, ValidationError } from '../http/errors.js';
import type { MapRegions } from './map-regions.js';
import { filterOptions, searchMap } from './map-search.js';
import type { MapService } from './map-service.js';
import { markerCard } from './marker-data.js';
import { isRowId, parseLayers, searchText, truthyList } from './query-params.js';
import { pointLayers, recordPoints } from './record-points.js';
import { parseViewport } from './viewport.js';

/**
 * The map's routes (docs/map.md): markers clustered on the server, marker cards, regions with measures and
 * simplified shapes, search and filter options. Each checks the map feature and `map:read` first.
 */
/** The view (bbox or west/south/east/north, zoom) and the map's filters (docs/map.md), which pass through. */
const mapQuery = z.looseObject({
  bbox: queryValue.optional().describe('west,south,east,north'),
  west: z.string().optional(),
  south: z.string().optional(),
  east: z.string().optional(),
  north: z.string().optional(),
  zoom: z.string().optional(),
  layers: queryValue.optional().describe('sites, contractors (a,b or layers[]=).'),
});

/** An answer whose parts the map's screens read as they are (map/map-service.ts, map/map-regions.ts). */
const mapAnswer = rowWith({});
const dataOf = (item: z.ZodType) => z.object({ data: item });

export function registerMapRoutes(fastify: FastifyInstance, ctx: AppContext, service: MapService, regions: MapRegions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const mapRead = { permission: 'map:read' } as const;
  const access = async (user: AuthUser | null) => {
    await service.assertMapAccess(user);
    return user!;
  };

  app.get(
    '/api/map/markers',
    { schema: { querystring: mapQuery, response: { 200: mapAnswer } }, config: mapRead },
    async (request) => {
      const user = await access(request.user);
      const viewport = parseViewport(request.query, { zoomRequired: true });
      const layers = parseLayers(request.query.layers);
      return service.markers(user, viewport, layers, await service.filters(user, request.query));
    },
  );

  app.get(
    '/api/map/marker-data',
    {
      schema: {
        querystring: z.looseObject({
          id: z.string().optional(),
          kind: z.string().optional().describe('site or contractor'),
          layer: z.string().optional(),
        }),
        response: { 200: dataOf(rowWith({})) },
      },
      config: mapRead,
    },
    async (request) => {
      const user = await access(request.user);
      const id = Number(request.query.id);
      if (!isRowId(id)) throw new ValidationError({ id: ['The id must be a whole number.'] });
      const kind = String(request.query.kind ?? request.query.layer ?? 'site').replace(/s$/, '');
      if (kind !== 'site' && kind !== 'contractor')
        throw new ValidationError({ kind: ['The kind must be site or contractor.'] });
      return { data: await markerCard(ctx, user, kind, id) };
    },
  );

  /** GET /api/map/regions: regions (optionally those in a bbox) with their measures for the person's filters. */
  app.get(
    '/api/map/regions',
    {
      schema: {
        querystring: mapQuery,
        response: { 200: z.object({ data: z.array(rowWith({})), meta: z.object({ total: z.number().int() }) }) },
      },
      config: mapRead,
    },
    async (request) => {
      const user = await access(request.user);
      const bbox = request.query.bbox !== undefined ? parseViewport(request.query).bbox : null;
      const rows = await regions.rows(user, request.query, { bbox });
      return { data: await regions.withMeasures(user, rows, request.query), meta: { total: rows.length } };
    },
  );

  /** GET /api/map/regions-geojson?zoom=&bbox=&geometry_type=&measure=&ids=: the regions in view as simplified GeoJSON. */
  app.get(
    '/api/map/regions-geojson',
    {
      schema: {
        querystring: mapQuery.extend({ ids: queryValue.optional(), 'ids[]': queryValue.optional() }),
        response: { 200: rowWith({ type: z.literal('FeatureCollection') }) },
      },
      config: mapRead,
    },
    async (request) => {
      const user = await access(request.user);
      const viewport = parseViewport(request.query);
      const ids = truthyList(request.query.ids ?? request.query['ids[]'])
        .map(Number)
        .filter(Number.isInteger);
      return regions.geojson(user, request.query, viewport, ids, request.log);
    },
  );

  app.get(
    '/api/map/regions/:id',
    {
      // Any text: an id that is no region's is a 404.
      schema: { params: z.object({ id: z.string() }), querystring: mapQuery, response: { 200: dataOf(rowWith({})) } },
      config: mapRead,
    },
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
  app.get(
    '/api/map/search',
    {
      schema: {
        querystring: z.object({ q: z.string().optional() }),
        response: { 200: dataOf(z.array(rowWith({}))) },
      },
      config: mapRead,
    },
    async (request) => {
      const user = await access(request.user);
      const q = searchText(request.query.q);
      if (q.length < 2) return { data: [] };
      return { data: await searchMap(ctx, service, regions, user, q) };
    },
  );

  /** GET /api/map/point-layers: the record types with a geo point the person may read (a layer each). */
  app.get(
    '/api/map/point-layers',
    { schema: { querystring: noQuery, response: { 200: dataOf(z.array(rowWith({}))) } }, config: mapRead },
    async (request) => {
      const user = await access(request.user);
      return { data: await pointLayers(ctx, user) };
    },
  );

  /**
   * GET /api/map/points?type=&bbox=&zoom=[&by=][&filters=][&view=][&filter[...]=]: a record type's points in view,
   * clustered, as the person may read them, over what its list finds with the same filters (a list's map layout).
   */
  app.get(
    '/api/map/points',
    {
      schema: {
        querystring: mapQuery.extend({
          type: z.string().max(100).describe('The record type (inspection).'),
          by: z.string().max(100).optional().describe("The geo-point field drawn (the type's first)."),
          filters: z.string().optional().describe('The list\'s view filters (docs/api.md "View filters").'),
          view: z.string().optional().describe('A saved view whose filters apply.'),
        }),
        response: { 200: z.object({ data: z.array(rowWith({})), meta: rowWith({}) }) },
      },
      config: mapRead,
    },
    async (request) => {
      const user = await access(request.user);
      const viewport = parseViewport(request.query, { zoomRequired: true });
      return recordPoints(ctx, user, request.query.type, viewport, request.query, request.query.by);
    },
  );

  /** GET /api/map/filters: what the filter drawer offers, limited to what the person may read. */
  app.get(
    '/api/map/filters',
    { schema: { querystring: noQuery, response: { 200: dataOf(rowWith({})) } }, config: mapRead },
    async (request) => {
      const user = await access(request.user);
      return { data: await filterOptions(ctx, service, user) };
    },
  );
}
