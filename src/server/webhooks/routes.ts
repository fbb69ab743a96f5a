import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answer, idParams, messageAnswer, noBody, noQuery, pageMeta, rowWith, timestamp } from '../http/contracts.js';
import { type WebhookService, webhookBody, webhookPatch } from './webhook-service.js';

const webhook = rowWith({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  record_type: z.string(),
  events: z.array(z.string()),
  failures: z.number().int(),
  paused_at: timestamp.nullable(),
});
const withSecret = rowWith({ id: z.number().int(), secret: z.string() });
const delivery = rowWith({
  id: z.number().int(),
  message_id: z.string(),
  event: z.string(),
  status: z.enum(['pending', 'delivered', 'failed', 'paused']),
  attempts: z.number().int(),
  response_status: z.number().int().nullable(),
  response_ms: z.number().int().nullable(),
  error: z.string().nullable(),
});
const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  per_page: z.coerce.number().int().min(1).max(100).optional().default(25),
});

/** Outgoing webhooks (docs/api.md "Webhooks"): `webhook:*` permissions, checked by the service. */
export function registerWebhookRoutes(fastify: FastifyInstance, webhooks: WebhookService) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/webhooks',
    {
      schema: { querystring: noQuery, response: { 200: z.object({ data: z.array(webhook) }) } },
      config: { permission: 'webhook:read' },
    },
    async (request) => ({ data: await webhooks.list(request.user!) }),
  );
  app.post(
    '/api/webhooks',
    { schema: { body: webhookBody, response: { 201: answer(withSecret) } }, config: { permission: 'webhook:create' } },
    async (request, reply) =>
      reply.status(201).send({
        data: await webhooks.create(request.user!, request.body),
        message: 'Webhook created. Copy its secret now: it is not shown again.',
      }),
  );
  app.get(
    '/api/webhooks/:id',
    {
      schema: { params: idParams, querystring: noQuery, response: { 200: answer(webhook) } },
      config: { permission: 'webhook:read' },
    },
    async (request) => ({ data: await webhooks.show(request.user!, request.params.id) }),
  );
  app.patch(
    '/api/webhooks/:id',
    {
      schema: { params: idParams, body: webhookPatch, response: { 200: answer(webhook) } },
      config: { permission: 'webhook:update' },
    },
    async (request) => ({
      data: await webhooks.update(request.user!, request.params.id, request.body),
      message: 'Webhook saved.',
    }),
  );
  app.delete(
    '/api/webhooks/:id',
    {
      schema: { params: idParams, body: noBody, response: { 200: messageAnswer } },
      config: { permission: 'webhook:delete' },
    },
    async (request) => {
      await webhooks.remove(request.user!, request.params.id);
      return { message: 'Webhook deleted.' };
    },
  );
  app.post(
    '/api/webhooks/:id/resume',
    {
      schema: { params: idParams, body: noBody, response: { 200: answer(webhook) } },
      config: { permission: 'webhook:update' },
    },
    async (request) => ({
      data: await webhooks.resume(request.user!, request.params.id),
      message: 'Webhook resumed: the messages held while it was paused are being sent.',
    }),
  );
  app.get(
    '/api/webhooks/:id/deliveries',
    {
      schema: {
        params: idParams,
        querystring: pageQuery,
        response: { 200: z.object({ data: z.array(delivery), meta: pageMeta }) },
      },
      config: { permission: 'webhook:read' },
    },
    async (request) =>
      webhooks.deliveryPage(request.user!, request.params.id, request.query.page, request.query.per_page),
  );
}
