import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Action } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import { idempotencyOf, rememberSent } from './idempotency.js';
import type { WriteAnswer } from './record-service.js';
import type { ResourceDefinition } from './resource.js';

/** The X-Socket-Id laravel-echo sends: that browser is not sent the event of its own change. */
export const socketOf = (request: FastifyRequest) => {
  const id = request.headers['x-socket-id'];
  return typeof id === 'string' && /^\d+\.\d+$/.test(id) ? id : undefined;
};

/** The write options a browser's request carries: its socket id and its Idempotency-Key (records/idempotency.ts). */
export const writeOptionsOf = (request: FastifyRequest) => ({
  socketId: socketOf(request),
  idempotency: idempotencyOf(request),
});

/**
 * Sends a write's answer with `status`: the record as the person reads it (the names of its links, as a show gives
 * them). A write made under an Idempotency-Key keeps this answer as sent; a repeated attempt gets it again unchanged,
 * saying so in a header.
 */
export async function writeAnswer(
  ctx: AppContext,
  def: ResourceDefinition,
  request: FastifyRequest,
  reply: FastifyReply,
  written: WriteAnswer,
  status: 200 | 201,
) {
  if (written.replayed) reply.header('Idempotent-Replayed', 'true');
  if (written.sent)
    return reply.status(written.sent.status).type('application/json; charset=utf-8').send(written.sent.body);
  const body = JSON.stringify({
    data: await ctx.records.readerCopy(request.user, def, written.record),
    message: written.message,
  });
  if (written.claimed) await rememberSent(ctx.db, written.claimed, status, body);
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

export const idParam = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } },
  required: ['id'],
} as const;

/** The generic routes of DESIGN.md 6 for one resource; the data service checks permissions on every call. */
export function registerResourceRoutes(app: FastifyInstance, ctx: AppContext, def: ResourceDefinition) {
  const base = `/api/${def.name}`;
  const { records, readCache } = ctx;
  const answer = (request: FastifyRequest, reply: FastifyReply, written: WriteAnswer, status: 200 | 201 = 200) =>
    writeAnswer(ctx, def, request, reply, written, status);
  const read = (request: FastifyRequest, reply: FastifyReply, compute: () => Promise<unknown>) =>
    readCache ? readCache.serve(request, reply, compute) : compute();
  // Routes the resource serves itself (def.ownRoutes) are left out.
  const own = new Set(def.ownRoutes ?? []);

  // What each route needs: the resource's own permission, checked by the record service (http/route-permissions.ts).
  const needs = (action: Action) => ({ permission: { resource: def.name, action } }) as const;

  if (!own.has('list'))
    app.get(base, { config: needs('read') }, async (request, reply) =>
      read(request, reply, () => records.list(request.user, def, request.query as Record<string, unknown>)),
    );

  if (!own.has('show'))
    app.get<{ Params: { id: number }; Querystring: { with_trashed?: string } }>(
      `${base}/:id`,
      { schema: { params: idParam }, config: needs('read') },
      async (request, reply) =>
        read(request, reply, async () => ({
          data: await records.show(request.user, def, request.params.id, {
            withTrashed: request.query.with_trashed === '1',
          }),
        })),
    );

  if (!own.has('create'))
    app.post(base, { config: needs('create') }, async (request, reply) =>
      answer(request, reply, await records.create(request.user, def, request.body, writeOptionsOf(request)), 201),
    );

  const update = async (request: any, reply: FastifyReply) =>
    answer(
      request,
      reply,
      await records.update(request.user, def, request.params.id, request.body, writeOptionsOf(request)),
    );
  for (const method of ['POST', 'PUT', 'PATCH'] as const) {
    if (!own.has('update'))
      app.route({ method, url: `${base}/:id`, schema: { params: idParam }, config: needs('update'), handler: update });
  }

  if (!own.has('delete'))
    app.delete<{ Params: { id: number } }>(
      `${base}/:id`,
      { schema: { params: idParam }, config: needs('delete') },
      async (request, reply) => {
        return answer(
          request,
          reply,
          await records.remove(request.user, def, request.params.id, { socketId: socketOf(request) }),
        );
      },
    );

  if (def.restorable && !own.has('restore')) {
    app.post<{ Params: { id: number } }>(
      `${base}/:id/restore`,
      { schema: { params: idParam }, config: needs('restore') },
      async (request, reply) => {
        return answer(
          request,
          reply,
          await records.restore(request.user, def, request.params.id, { socketId: socketOf(request) }),
        );
      },
    );
  }
}
