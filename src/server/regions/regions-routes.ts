import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TurfOutlook } from '../../common/access-rules.js';
import { turfOutlook } from '../access/outlook.js';
import { turfRegions } from '../access/turf.js';
import type { AppContext, FeaturePlugin } from '../app-context.js';
import { InputLimitError, LimitExceeded, toInputLimitError } from '../config/input-limits.js';
import { answer, filePart, multipart, noQuery, record, rowWith } from '../http/contracts.js';
import { ValidationError } from '../http/errors.js';
import { teamMemberIds } from '../reports/scope.js';
import { loadUsShapes } from './census.js';
import { type AreaGeometry, GeometryError, parseAreaGeometry } from './geometry.js';
import { type GeometryQuery, geometryOptions } from './geometry-options.js';
import { GEOMETRY_TYPES } from './regions-resource.js';
import { regionsDefinition, type Shape, storeShapes } from './store.js';
import { sitesInside } from './turf.js';
import { type GeoJsonOptions, GeoJsonReader, type GeoJsonResult } from './upload.js';
import { stateCode } from './us-atlas.js';

/** Twelve distinct colours for regions coloured automatically (POST /api/regions/colors with `auto`). */
export const REGION_PALETTE = [
  '#1e88e5',
  '#43a047',
  '#fb8c00',
  '#8e24aa',
  '#00897b',
  '#e53935',
  '#3949ab',
  '#6d4c41',
  '#c0ca33',
  '#d81b60',
  '#00acc1',
  '#fdd835',
];

const colorSchema = z.string().regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, 'Each colour must look like #1e88e5.');
const colorsBody = z
  .object({
    colors: z
      .array(z.object({ id: z.coerce.number().int().min(1), color: colorSchema.nullable() }).strict())
      .max(10_000)
      .optional(),
    ids: z.array(z.coerce.number().int().min(1)).max(10_000).optional(),
    color: colorSchema.optional(),
    auto: z.boolean().optional(),
  })
  .strict()
  .refine((b) => b.colors || (b.ids && (b.color || b.auto)), {
    message: 'Send colors: [{id, color}], or ids with a color, or ids with auto: true.',
    path: ['colors'],
  });

const loadBody = z
  .object({
    level: z.enum(['states', 'counties']),
    states: z.array(z.string().max(40)).max(60).optional(),
  })
  .strict();

/**
 * The shapes of an uploaded GeoJSON file (multipart `file`) or of `data` in a JSON body, and the form's other fields.
 * A file streams to an upload worker thread, which parses and checks it off the request thread within its memory cap
 * (workers/upload-workers.ts); its size is checked as it arrives, its features, properties and values against the
 * input limits (docs/settings.md). A JSON body (at most BODY_LIMIT_BYTES) is small enough to read here.
 */
async function readShapes(ctx: AppContext, request: FastifyRequest): Promise<Shape[]> {
  const limits = { ...ctx.config.limits };
  const fields: Record<string, string> = {};
  const options = () => {
    const geometryType = (fields.geometry_type || 'postal-code') as Shape['geometry_type'];
    if (!(GEOMETRY_TYPES as readonly string[]).includes(geometryType))
      throw new ValidationError({
        geometry_type: [`The geometry type must be one of: ${GEOMETRY_TYPES.join(', ')}.`],
      });
    return {
      geometryType,
      nameProperty: fields.name_property || undefined,
      codeProperty: fields.code_property || undefined,
      limits,
    } satisfies GeoJsonOptions;
  };
  const usable = (result: GeoJsonResult) => {
    if ('problem' in result) throw new ValidationError({ file: [result.problem] });
    return result.shapes;
  };
  if (request.isMultipart()) {
    let result: GeoJsonResult | null = null;
    for await (const part of request.parts({ limits: { fileSize: limits.uploadBytes } })) {
      if (part.type !== 'file') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      if (result !== null || !['file', 'files[]', 'files'].includes(part.fieldname)) {
        part.file.resume();
        continue;
      }
      const details = {
        field: 'file',
        subject: `"${path.basename(part.filename || 'upload.geojson')}"`,
        geojson: true,
      };
      // The fields sent before the file say how to read it.
      const reader = await ctx.uploadWorkers.open<GeoJsonResult>('geojson', options(), limits, details);
      try {
        for await (const chunk of part.file) await reader.write(chunk);
        if (part.file.truncated) throw new InputLimitError('uploadBytes', limits, details);
        result = await reader.end();
      } catch (error: any) {
        reader.abort();
        if (error?.code === 'FST_REQ_FILE_TOO_LARGE') throw new InputLimitError('uploadBytes', limits, details);
        throw error;
      }
    }
    if (result === null) throw new ValidationError({ file: ['Choose a GeoJSON file to upload (form field "file").'] });
    return usable(result);
  }
  const body = (request.body ?? {}) as Record<string, unknown>;
  for (const key of ['geometry_type', 'name_property', 'code_property'])
    if (typeof body[key] === 'string') fields[key] = body[key] as string;
  const data = body.data ?? body.geojson;
  if (data === undefined)
    throw new ValidationError({
      file: ['Send the GeoJSON as a file (multipart, field "file") or as "data" in a JSON body.'],
    });
  const reader = new GeoJsonReader(options());
  reader.push(Buffer.from(typeof data === 'string' ? data : JSON.stringify(data)));
  try {
    return usable(reader.end());
  } catch (error) {
    if (error instanceof LimitExceeded)
      throw toInputLimitError(error, limits, { field: 'file', subject: 'The GeoJSON', geojson: true });
    throw error;
  }
}

/** What a load or an upload of shapes did. */
const shapesAnswer = z.object({
  data: z.object({
    created: z.number().int(),
    updated: z.number().int(),
    sites_assigned: z.number().int(),
    region_ids: z.array(z.number().int()),
  }),
  message: z.string(),
});

/** What assigning a turf being drawn would do for one person (access/outlook.ts). */
const turfOutlookShape = z.object({
  id: z.number().int(),
  name: z.string(),
  role: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  scoped: z.boolean(),
  now: z.number().int(),
  after: z.number().int(),
}) satisfies z.ZodType<TurfOutlook>;

/** A GeoJSON file (multipart `file`), or the GeoJSON as `data` in a JSON body; how to read its shapes. */
const shapeFields = {
  geometry_type: z
    .string()
    .optional()
    .describe(`One of ${GEOMETRY_TYPES.join(', ')} (postal-code by default).`),
  name_property: z.string().optional().describe('The feature property that names each shape.'),
  code_property: z.string().optional().describe('The feature property that holds each shape code.'),
};
const shapesUpload = {
  content: {
    'application/json': {
      schema: z.looseObject({ ...shapeFields, data: z.unknown().optional(), geojson: z.unknown().optional() }),
    },
    ...multipart({ file: filePart, ...shapeFields }).content,
  },
};

/**
 * Region routes beyond the generic resource: colours, loading Census shapes, uploading GeoJSON, and the
 * shape picker of /api/options/geometries.
 */
export const regionRoutes: FeaturePlugin = async (fastify, options) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const ctx: AppContext = options.ctx;
  app.post(
    '/api/regions/colors',
    {
      schema: { body: colorsBody, response: { 200: answer(z.array(record)) } },
      config: { permission: { resource: 'regions', action: 'update' } },
    },
    async (request) => {
      const body = request.body;
      const def = regionsDefinition(ctx);
      ctx.records.authorize(request.user, def, 'update');
      const changes: Array<{ id: number; color: string | null }> = body.colors
        ? body.colors
        : body.ids!.map((id, i) => ({
            id,
            color: body.auto ? REGION_PALETTE[i % REGION_PALETTE.length] : body.color!,
          }));
      const data = [];
      for (const change of changes) {
        const { record } = await ctx.records.update(request.user, def, change.id, { color: change.color });
        data.push(record);
      }
      return { data, message: `${changes.length === 1 ? 'Region colour' : 'Region colours'} updated successfully.` };
    },
  );

  app.post(
    '/api/regions/load-us',
    {
      schema: { body: loadBody, response: { 200: shapesAnswer } },
      config: {
        permission: {
          allOf: [
            { resource: 'regions', action: 'create' },
            { resource: 'regions', action: 'update' },
          ],
        },
        heavy: true,
      },
    },
    async (request) => {
      const body = request.body;
      let states: string[] | undefined;
      if (body.states?.length) {
        states = body.states.map((s) => stateCode(s) ?? '');
        const unknown = body.states.filter((_, i) => !states![i]);
        if (unknown.length)
          throw new ValidationError({
            states: [`Unknown state: ${unknown.join(', ')}. Use FIPS codes (06), abbreviations (CA) or names.`],
          });
      }
      const result = await loadUsShapes(ctx, request.user, body.level, states);
      return {
        data: {
          created: result.created,
          updated: result.updated,
          sites_assigned: result.assigned,
          region_ids: result.ids,
        },
        message: `${result.created + result.updated} ${body.level === 'states' ? 'state' : 'county'} shapes loaded.`,
      };
    },
  );

  app.post(
    '/api/regions/upload',
    {
      schema: { body: shapesUpload, response: { 201: shapesAnswer } },
      config: {
        permission: {
          allOf: [
            { resource: 'regions', action: 'create' },
            { resource: 'regions', action: 'update' },
          ],
        },
        heavy: true,
      },
    },
    async (request, reply) => {
      const shapes = await readShapes(ctx, request);
      const result = await storeShapes(ctx, request.user, shapes);
      return reply.status(201).send({
        data: {
          created: result.created,
          updated: result.updated,
          sites_assigned: result.assigned,
          region_ids: result.ids,
        },
        message: `${shapes.length} ${shapes.length === 1 ? 'shape' : 'shapes'} uploaded.`,
      });
    },
  );

  /**
   * POST /api/regions/preview {geometry, user_ids?, team_id?}: `{data: {sites, people}}`, how many of the sites the
   * person may read lie inside a shape not saved yet (drawing a turf on the map shows it before the region is saved),
   * and for each person it is to be assigned to (by name, or as a member of the team) whether it scopes them (their
   * role's site rule is their turf), how many sites they read now and how many with it (access/outlook.ts).
   */
  app.post(
    '/api/regions/preview',
    {
      schema: {
        body: z
          .object({
            geometry: z.unknown().describe('A GeoJSON Polygon or MultiPolygon (or a Feature of one).'),
            user_ids: z.array(z.coerce.number().int().min(1).max(2_147_483_647)).max(500).optional(),
            team_id: z.coerce.number().int().min(1).max(2_147_483_647).nullable().optional(),
          })
          .strict(),
        response: { 200: answer(z.object({ sites: z.number().int(), people: z.array(turfOutlookShape) })) },
      },
      config: { permission: { resource: 'regions', action: 'create' } },
    },
    async (request) => {
      ctx.records.authorize(request.user, regionsDefinition(ctx), 'create');
      const body = request.body;
      let geometry: AreaGeometry;
      try {
        const raw =
          body.geometry && typeof body.geometry === 'object' && (body.geometry as { type?: unknown }).type === 'Feature'
            ? (body.geometry as { geometry?: unknown }).geometry
            : body.geometry;
        geometry = parseAreaGeometry(raw);
      } catch (error) {
        if (error instanceof GeometryError) throw new ValidationError({ geometry: [error.message] });
        throw error;
      }
      const sites = ctx.resources.get('sites');
      if (!sites || !request.user) return { data: { sites: 0, people: [] } };
      const inside = await sitesInside(ctx.records, sites, request.user, geometry);
      const members = body.team_id ? await teamMemberIds(ctx.db, body.team_id) : [];
      const everyone = await sitesInside(ctx.records, sites, null, geometry);
      const people = await turfOutlook(ctx.records, sites, [...(body.user_ids ?? []), ...members], everyone);
      return { data: { sites: inside.length, people } };
    },
  );

  /**
   * GET /api/turf: `{data: {limited, regions: [{id, name}]}}`, the signed-in person's turf (the regions assigned to
   * them or their team) and whether their reading of sites is limited to it (`site:read:turf`).
   */
  app.get(
    '/api/turf',
    {
      schema: {
        querystring: noQuery,
        response: {
          200: answer(
            z.object({ limited: z.boolean(), regions: z.array(z.object({ id: z.number().int(), name: z.string() })) }),
          ),
        },
      },
      config: { permission: 'signed-in' },
    },
    async (request) => {
      const user = request.user!;
      const sites = ctx.resources.get('sites');
      const limited = Boolean(sites) && (await ctx.records.access.turfLimited(user, sites!));
      return { data: { limited, regions: await turfRegions(ctx.db, user) } };
    },
  );

  /** GET /api/options/geometries?type=state|county|postal-code&q=text&state=06: `{data: [{id, name, geometry_type, code}]}` to pick a region shape. */
  app.get(
    '/api/options/geometries',
    {
      schema: {
        querystring: z.looseObject({
          type: z.string().optional().describe(GEOMETRY_TYPES.join(', ')),
          geometry_type: z.string().optional(),
          q: z.string().optional(),
          state: z.string().optional().describe('A state: FIPS code (06), abbreviation (CA) or name.'),
        }),
        response: { 200: answer(z.array(rowWith({ id: z.union([z.number(), z.string()]) }))) },
      },
      config: { permission: { resource: 'regions', action: 'read' } },
    },
    async (request) => {
      ctx.records.authorize(request.user, regionsDefinition(ctx), 'read');
      const type =
        typeof request.query.type === 'string' && request.query.type
          ? request.query.type
          : typeof request.query.geometry_type === 'string'
            ? request.query.geometry_type
            : null;
      if (type && !(GEOMETRY_TYPES as readonly string[]).includes(type))
        throw new ValidationError({ type: [`The type must be one of: ${GEOMETRY_TYPES.join(', ')}.`] });
      const q = typeof request.query.q === 'string' ? request.query.q.trim().slice(0, 100) : '';
      const state =
        typeof request.query.state === 'string' && request.query.state ? stateCode(request.query.state) : null;
      if (typeof request.query.state === 'string' && request.query.state && !state)
        throw new ValidationError({ state: ['Unknown state.'] });
      return {
        data: await geometryOptions(ctx, request.user!, { type: type as GeometryQuery['type'], state, q }, request.log),
      };
    },
  );
};
