import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Action } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { ResourceDefinition } from './resource.js';

/** The X-Socket-Id laravel-echo sends: that browser is not sent the event of its own change. */
export const socketOf = (request: FastifyRequest) => {
  const id = request.headers['x-socket-id'];
  return typeof id === 'string' && /^\d+\.\d+$/.test(id) ? id : undefined;
};

export const idParam = { type: 'object', properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } }, required: ['id'] } as const;

/** The generic routes of DESIGN.md 6 for one resource; the data service checks permissions on every call. */
export function registerResourceRoutes(app: FastifyInstance, ctx: AppContext, def: ResourceDefinition) {
  const base = `/api/${def.name}`;
  const { records, readCache } = ctx;
  const read = (request: FastifyRequest, reply: FastifyReply, compute: () => Promise<unknown>) => (readCache ? readCache.serve(request, reply, compute) : compute());
  // Routes the resource serves itself (def.ownRoutes) are left out.
  const own = new Set(def.ownRoutes ?? []);

  // What each route needs: the resource's own permission, checked by the record service (http/route-permissions.ts).
  const needs = (action: Action) => ({ permission: { resource: def.name, action } }) as const;

  if (!own.has('list')) app.get(base, { config: needs('read') }, async (request, reply) => read(request, reply, () => records.list(request.user, def, request.query as Record<string, unknown>)));

  if (!own.has('show')) app.get<{ Params: { id: number }; Querystring: { with_trashed?: string } }>(`${base}/:id`, { schema: { params: idParam }, config: needs('read') }, async (request, reply) =>
    read(request, reply, async () => ({
      data: await records.show(request.user, def, request.params.id, { withTrashed: request.query.with_trashed === '1' }),
    })),
  );

  if (!own.has('create')) app.post(base, { config: needs('create') }, async (request, reply) => {
    const { record, message } = await records.create(request.user, def, request.body, { socketId: socketOf(request) });
    return reply.status(201).send({ data: record, message });
  });

  const update = async (request: any) => {
    const { record, message } = await records.update(request.user, def, request.params.id, request.body, { socketId: socketOf(request) });
    return { data: record, message };
  };
  for (const method of ['POST', 'PUT', 'PATCH'] as const) {
    if (!own.has('update')) app.route({ method, url: `${base}/:id`, schema: { params: idParam }, config: needs('update'), handler: update });
  }

  if (!own.has('delete')) app.delete<{ Params: { id: number } }>(`${base}/:id`, { schema: { params: idParam }, config: needs('delete') }, async (request) => {
    const { record, message } = await records.remove(request.user, def, request.params.id, { socketId: socketOf(request) });
    return { data: record, message };
  });

  if (def.restorable && !own.has('restore')) {
    app.post<{ Params: { id: number } }>(`${base}/:id/restore`, { schema: { params: idParam }, config: needs('restore') }, async (request) => {
      const { record, message } = await records.restore(request.user, def, request.params.id, { socketId: socketOf(request) });
      return { data: record, message };
    });
  }
}
