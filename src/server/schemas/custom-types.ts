import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Action } from '../../common/permissions.js';
import type { RecordSchema } from '../../common/schema-types.js';
import type { AppContext } from '../app-context.js';
import {
  listQuery,
  messageAnswer,
  noBody,
  recordAnswer,
  recordInput,
  recordPage,
  showQuery,
} from '../http/contracts.js';
import type { ResourceDefinition } from '../records/resource.js';
import { socketOf, writeAnswer, writeOptionsOf } from '../records/routes.js';
import { ownership, schemaBacked } from './schema-backed.js';
import { schemaStore } from './schema-store.js';

/**
 * The resource of a record type created in the app (POST /api/schemas): its records are rows of `custom_records`
 * with its `schema_id`, a `name`, the organizer and team, and every other field in `custom`. Its permission
 * entity is its type (`vehicle:read`).
 */
export function customTypeDefinition(
  schema: Pick<RecordSchema, 'id' | 'type' | 'resource' | 'name_singular'>,
): ResourceDefinition {
  return schemaBacked(
    {
      name: schema.resource,
      type: schema.type,
      table: 'custom_records',
      singular: schema.name_singular,
      fields: { name: { kind: 'text', required: true, max: 200 }, ...ownership() },
      hidden: ['schema_id'],
      readOnly: ['schema_id'],
      search: ['name'],
      defaultSort: { field: 'name', order: 'asc' },
      softDelete: true,
      restorable: true,
      scope: { column: 'schema_id', value: schema.id },
    },
    { attachments: true },
  );
}

/**
 * Serves the record types created in the app without a restart: /api/{resource} for list and create,
 * /api/{resource}/{id} for show, update (POST, PUT, PATCH) and delete, /api/{resource}/{id}/restore. The paths of
 * the built-in resources are static routes and win; any other first segment that is not a record type answers
 * exactly as an unknown route does (404). The definitions are kept in the resource registry too (options,
 * history and activity find them there), refreshed whenever schemas change, here or in another server process.
 */
export function registerCustomTypeRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const store = schemaStore(ctx.db);
  const cache = new Map<number, { key: string; def: ResourceDefinition }>();
  const dynamicNames = new Set<string>();

  const definitionFor = (schema: RecordSchema) => {
    const key = `${schema.resource}|${schema.name_singular}|${schema.type}`;
    const cached = cache.get(schema.id);
    if (cached?.key === key) return cached.def;
    const def = customTypeDefinition(schema);
    cache.set(schema.id, { key, def });
    return def;
  };

  const sync = async () => {
    const snapshot = await store.snapshot();
    const live = new Set<string>();
    for (const schema of snapshot.list) {
      if (schema.built_in) continue;
      const def = definitionFor(schema);
      live.add(def.name);
      const registered = ctx.resources.get(def.name);
      if (registered === def) continue;
      if (registered && !dynamicNames.has(def.name)) continue; // never replace a built-in resource
      ctx.resources.remove(def.name);
      ctx.resources.add(def);
      dynamicNames.add(def.name);
    }
    for (const name of [...dynamicNames]) {
      if (!live.has(name)) {
        ctx.resources.remove(name);
        dynamicNames.delete(name);
      }
    }
  };
  store.onInvalidate(
    () => void sync().catch((error) => app.log.error({ err: error }, 'Could not refresh the record types')),
  );
  app.addHook('onReady', sync);

  const resolve = async (name: string) => {
    const schema = (await store.snapshot()).byResource.get(name);
    return schema && !schema.built_in ? definitionFor(schema) : null;
  };
  const idOf = (raw: string) =>
    /^\d{1,10}$/.test(raw) && Number(raw) <= 2_147_483_647 && Number(raw) >= 1 ? Number(raw) : null;

  // The record type and row a request names, found before its input is checked: a path that is no record type, or an
  // id that is no row's, answers 404 as an unknown route does, whatever the request carries.
  const targets = new WeakMap<FastifyRequest, { def: ResourceDefinition; id: number }>();
  const findTarget = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { resource: string; id?: string };
    const def = await resolve(params.resource);
    const id = params.id === undefined ? 0 : idOf(params.id);
    if (!def || id === null) {
      reply.callNotFound();
      return reply;
    }
    targets.set(request, { def, id });
  };
  const target = (request: FastifyRequest) => targets.get(request)!;

  // The record type is named by the path: unknown paths answer 404 signed in or not; records need a session (401).
  const needs = (action: Action) => ({ permission: { resource: ':resource', action } }) as const;
  const typeParams = z.object({ resource: z.string() });
  const recordParams = z.object({ resource: z.string(), id: z.string() });

  app.get(
    '/api/:resource',
    {
      schema: { params: typeParams, querystring: listQuery, response: { 200: recordPage } },
      config: needs('read'),
      preValidation: findTarget,
    },
    async (request) => ctx.records.list(request.user, target(request).def, request.query),
  );
  app.post(
    '/api/:resource',
    {
      schema: { params: typeParams, body: recordInput, response: { 200: recordAnswer, 201: recordAnswer } },
      config: needs('create'),
      preValidation: findTarget,
    },
    async (request, reply) => {
      const { def } = target(request);
      const written = await ctx.records.create(request.user, def, request.body, writeOptionsOf(request));
      return writeAnswer(ctx, def, request, reply, written, 201);
    },
  );
  app.get(
    '/api/:resource/:id',
    {
      schema: { params: recordParams, querystring: showQuery, response: { 200: recordAnswer } },
      config: needs('read'),
      preValidation: findTarget,
    },
    async (request) => {
      const { def, id } = target(request);
      return {
        data: await ctx.records.show(request.user, def, id, { withTrashed: request.query.with_trashed === '1' }),
      };
    },
  );
  for (const method of ['POST', 'PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/:resource/:id',
      schema: { params: recordParams, body: recordInput, response: { 200: recordAnswer, 409: messageAnswer } },
      config: needs('update'),
      preValidation: findTarget,
      handler: async (request, reply) => {
        const { def, id } = target(request);
        const written = await ctx.records.update(request.user, def, id, request.body, writeOptionsOf(request));
        return writeAnswer(ctx, def, request, reply, written, 200);
      },
    });
  }
  app.delete(
    '/api/:resource/:id',
    {
      schema: { params: recordParams, body: noBody, response: { 200: recordAnswer } },
      config: needs('delete'),
      preValidation: findTarget,
    },
    async (request) => {
      const { def, id } = target(request);
      const { record, message } = await ctx.records.remove(request.user, def, id, { socketId: socketOf(request) });
      return { data: record, message };
    },
  );
  app.post(
    '/api/:resource/:id/restore',
    {
      schema: { params: recordParams, body: noBody, response: { 200: recordAnswer } },
      config: needs('restore'),
      preValidation: findTarget,
    },
    async (request) => {
      const { def, id } = target(request);
      const { record, message } = await ctx.records.restore(request.user, def, id, { socketId: socketOf(request) });
      return { data: record, message };
    },
  );
}
