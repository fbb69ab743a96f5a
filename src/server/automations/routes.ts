import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  answer,
  idParams,
  messageAnswer,
  noBody,
  noQuery,
  optionalBody,
  pageMeta,
  rowWith,
  timestamp,
} from '../http/contracts.js';
import { HttpError, notFound, ValidationError } from '../http/errors.js';
import { verifySignature } from '../webhooks/signing.js';
import type { AutomationService } from './automation-service.js';
import { automationBody, automationPatch } from './automation-shapes.js';
import type { AutomationTriggers } from './automation-triggers.js';

const automation = rowWith({
  id: z.number().int(),
  name: z.string(),
  record_type: z.string().nullable(),
  trigger: z.looseObject({ kind: z.string() }),
  actions: z.array(z.looseObject({ kind: z.string() })),
  enabled: z.boolean(),
  owner_id: z.number().int(),
});
const withSecret = rowWith({ id: z.number().int(), secret: z.string() });
const step = z.object({
  path: z.string(),
  kind: z.string(),
  outcome: z.string(),
  at: z.string(),
  detail: z.unknown().optional(),
  error: z.string().optional(),
});
const run = rowWith({
  id: z.number().int(),
  status: z.enum(['queued', 'running', 'done', 'failed', 'skipped', 'stopped']),
  trigger: z.looseObject({ kind: z.string() }),
  steps: z.array(step),
  error: z.string().nullable(),
  created_at: timestamp,
  finished_at: timestamp.nullable(),
});
const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  per_page: z.coerce.number().int().min(1).max(100).optional().default(25),
});
const runParams = z.object({
  id: z.coerce.number().int().min(1).max(2_147_483_647),
  run: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});
const testBody = optionalBody(
  z.object({
    record_id: z.number().int().min(1).max(2_147_483_647).nullable().optional(),
    body: z.unknown().optional(),
  }),
);
const testAnswer = z.object({
  data: z.object({
    conditions_met: z.boolean(),
    record: z.record(z.string(), z.unknown()).nullable(),
    steps: z.array(step),
  }),
});

/** An incoming message's body, at most (docs/automations.md "Incoming webhooks"). */
export const MAX_INCOMING_BYTES = 64 * 1024;

/** Automations and their runs (docs/api.md "Automations"): `automation:*` permissions, checked by the service. */
export function registerAutomationRoutes(
  fastify: FastifyInstance,
  automations: AutomationService,
  triggers: AutomationTriggers,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/automations',
    {
      schema: { querystring: noQuery, response: { 200: z.object({ data: z.array(automation) }) } },
      config: { permission: 'automation:read' },
    },
    async (request) => ({ data: await automations.list(request.user!) }),
  );
  app.post(
    '/api/automations',
    {
      schema: { body: automationBody, response: { 201: answer(withSecret) } },
      config: { permission: 'automation:create' },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await automations.create(request.user!, request.body),
        message: 'Automation created.',
      }),
  );
  app.get(
    '/api/automations/:id',
    {
      schema: { params: idParams, querystring: noQuery, response: { 200: answer(automation) } },
      config: { permission: 'automation:read' },
    },
    async (request) => ({ data: await automations.show(request.user!, request.params.id) }),
  );
  app.patch(
    '/api/automations/:id',
    {
      schema: { params: idParams, body: automationPatch, response: { 200: answer(automation) } },
      config: { permission: 'automation:update' },
    },
    async (request) => ({
      data: await automations.update(request.user!, request.params.id, request.body),
      message: 'Automation saved.',
    }),
  );
  app.delete(
    '/api/automations/:id',
    {
      schema: { params: idParams, body: noBody, response: { 200: messageAnswer } },
      config: { permission: 'automation:delete' },
    },
    async (request) => {
      await automations.remove(request.user!, request.params.id);
      return { message: 'Automation deleted.' };
    },
  );
  for (const [verb, enabled, message] of [
    ['pause', false, 'Automation paused: it starts no runs until it is resumed.'],
    ['resume', true, 'Automation resumed.'],
  ] as const)
    app.post(
      `/api/automations/:id/${verb}`,
      {
        schema: { params: idParams, body: noBody, response: { 200: answer(automation) } },
        config: { permission: 'automation:update' },
      },
      async (request) => ({ data: await automations.setEnabled(request.user!, request.params.id, enabled), message }),
    );
  app.get(
    '/api/automations/:id/runs',
    {
      schema: {
        params: idParams,
        querystring: pageQuery,
        response: { 200: z.object({ data: z.array(run), meta: pageMeta }) },
      },
      config: { permission: 'automation:read' },
    },
    async (request) => automations.runs(request.user!, request.params.id, request.query.page, request.query.per_page),
  );
  app.post(
    '/api/automations/:id/runs/:run/retry',
    {
      schema: { params: runParams, body: noBody, response: { 200: answer(run), 409: messageAnswer } },
      config: { permission: 'automation:update' },
    },
    async (request) => ({
      data: await automations.retry(request.user!, request.params.id, request.params.run),
      message: 'Trying the run again from the action that failed.',
    }),
  );
  app.post(
    '/api/automations/:id/test',
    {
      schema: { params: idParams, body: testBody, response: { 200: testAnswer } },
      config: { permission: 'automation:read' },
    },
    async (request) => ({
      data: await automations.test(request.user!, request.params.id, request.body.record_id ?? null, request.body.body),
    }),
  );

  // Incoming messages: signed with the automation's secret (Standard Webhooks), no session, at most 64 KB of JSON.
  fastify.register(async (incoming) => {
    // Kept as text: the signature covers the exact bytes.
    incoming.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    incoming.withTypeProvider<ZodTypeProvider>().post(
      '/api/automations/:id/webhook',
      {
        schema: { params: idParams, body: z.string(), response: { 202: messageAnswer } },
        config: { permission: 'public', signedNotSession: true },
      },
      async (request, reply) => {
        if (Buffer.byteLength(request.body) > MAX_INCOMING_BYTES)
          throw new ValidationError({ body: [`The message is larger than ${MAX_INCOMING_BYTES / 1024} KB.`] });
        const target = await automations.forMessage(request.params.id);
        const header = (name: string) => {
          const value = request.headers[name];
          return typeof value === 'string' ? value : undefined;
        };
        const signed =
          target &&
          verifySignature(
            target.secret,
            {
              id: header('webhook-id'),
              timestamp: header('webhook-timestamp'),
              signature: header('webhook-signature'),
            },
            request.body,
          );
        if (!target) throw notFound(`No automation takes messages at the id ${request.params.id}.`);
        if (!signed) throw new HttpError(401, 'The message is not signed with this automation’s secret.');
        let body: unknown;
        try {
          body = JSON.parse(request.body);
        } catch {
          throw new HttpError(422, 'The body must be JSON.');
        }
        if (!body || typeof body !== 'object' || Array.isArray(body))
          throw new HttpError(422, 'The body must be a JSON object.');
        if (!target.enabled) return reply.status(202).send({ message: 'The automation is paused: nothing was done.' });
        await triggers.onMessage(target, body);
        return reply.status(202).send({ message: 'Received: the automation runs in the background.' });
      },
    );
  });
}
