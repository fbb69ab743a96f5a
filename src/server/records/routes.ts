import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Action } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import {
  idParams,
  listQuery,
  messageAnswer,
  noBody,
  recordAnswer,
  recordInput,
  recordPage,
  showQuery,
} from '../http/contracts.js';
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
  // Sent as JSON text (what an Idempotency-Key keeps and replays byte for byte); its shape is the route's declared
  // `recordAnswer`, whose records pass through as they are.
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

/** A write that carries the `updated_at` the client read answers 409 when the record changed since. */
const stale = { 409: messageAnswer };
/** Idempotency-Key (records/idempotency.ts), X-Socket-Id (the browser that made the change is not told). */
export const writeHeaders = z.looseObject({
  'idempotency-key': z.string().optional(),
  'x-socket-id': z.string().optional(),
});

/** The generic routes of DESIGN.md 6 for one resource; the data service checks permissions on every call. */
export function registerResourceRoutes(fastify: FastifyInstance, ctx: AppContext, def: ResourceDefinition) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = `/api/${def.name}`;
  const { records, readCache } = ctx;
  const answer = (request: FastifyRequest, reply: FastifyReply, written: WriteAnswer, status: 200 | 201 = 200) =>
    writeAnswer(ctx, def, request, reply, written, status);
  const read = <T>(request: FastifyRequest, reply: FastifyReply, compute: () => Promise<T>) =>
    readCache ? readCache.serve(request, reply, compute) : compute();
  // Routes the resource serves itself (def.ownRoutes) are left out.
  const own = new Set(def.ownRoutes ?? []);

  // What each route needs: the resource's own permission, checked by the record service (http/route-permissions.ts).
  const needs = (action: Action) => ({ permission: { resource: def.name, action } }) as const;

  if (!own.has('list'))
    app.get(
      base,
      { schema: { querystring: listQuery, response: { 200: recordPage } }, config: needs('read') },
      async (request, reply) => read(request, reply, () => records.list(request.user, def, request.query)),
    );

  if (!own.has('show'))
    app.get(
      `${base}/:id`,
      { schema: { params: idParams, querystring: showQuery, response: { 200: recordAnswer } }, config: needs('read') },
      async (request, reply) =>
        read(request, reply, async () => ({
          data: await records.show(request.user, def, request.params.id, {
            withTrashed: request.query.with_trashed === '1',
          }),
        })),
    );

  if (!own.has('create'))
    app.post(
      base,
      {
        schema: { headers: writeHeaders, body: recordInput, response: { 200: recordAnswer, 201: recordAnswer } },
        config: needs('create'),
      },
      async (request, reply) =>
        // A repeated create (same Idempotency-Key) answers as the first did.
        answer(request, reply, await records.create(request.user, def, request.body, writeOptionsOf(request)), 201),
    );

  for (const method of ['POST', 'PUT', 'PATCH'] as const) {
    if (!own.has('update'))
      app.route({
        method,
        url: `${base}/:id`,
        schema: {
          params: idParams,
          headers: writeHeaders,
          body: recordInput,
          response: { 200: recordAnswer, ...stale },
        },
        config: needs('update'),
        handler: async (request, reply) =>
          answer(
            request,
            reply,
            await records.update(request.user, def, request.params.id, request.body, writeOptionsOf(request)),
          ),
      });
  }

  if (!own.has('delete'))
    app.delete(
      `${base}/:id`,
      { schema: { params: idParams, body: noBody, response: { 200: recordAnswer } }, config: needs('delete') },
      async (request, reply) =>
        answer(
          request,
          reply,
          await records.remove(request.user, def, request.params.id, { socketId: socketOf(request) }),
        ),
    );

  if (def.restorable && !own.has('restore')) {
    app.post(
      `${base}/:id/restore`,
      { schema: { params: idParams, body: noBody, response: { 200: recordAnswer } }, config: needs('restore') },
      async (request, reply) =>
        answer(
          request,
          reply,
          await records.restore(request.user, def, request.params.id, { socketId: socketOf(request) }),
        ),
    );
  }
}
