import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MessageStatus } from '../../common/messages.js';
import type { Feature, FeaturePlugin } from '../app-context.js';
import { PERSON_TYPES } from '../conversations/people.js';
import { answer, idParams, messageAnswer, noBody, noQuery, optionalBody } from '../http/contracts.js';
import { HttpError, notFound, ValidationError } from '../http/errors.js';
import { MessageSender } from './message-sender.js';
import { MESSAGES_JOB, type MessageSend, MessageService, type Message as PersonMessage } from './message-service.js';
import { isSignedByProvider, isStopReply } from './sms-provider.js';

const STATUSES = ['queued', 'sending', 'sent', 'failed', 'opted_out', 'no_address', 'not_sent', 'received'] as const;

const messageSend = z
  .object({
    id: z.number(),
    channel: z.enum(['sms', 'email']),
    person_type: z.enum(PERSON_TYPES),
    query: z.record(z.string(), z.unknown()).describe('The people list query that picked the people.'),
    subject: z.string().nullable(),
    body: z.string().describe('As written, with its merge fields.'),
    created_by: z.number().nullable(),
    created_by_name: z.string().nullable(),
    created_at: z.string(),
    counts: z.partialRecord(z.enum(STATUSES), z.number()).describe("People's copies by status."),
    total: z.number(),
  })
  .meta({ id: 'MessageSend' }) satisfies z.ZodType<MessageSend>;

const personMessage = z
  .object({
    id: z.number(),
    send_id: z.number().nullable(),
    channel: z.enum(['sms', 'email']),
    direction: z.enum(['out', 'in']),
    person_type: z.enum(PERSON_TYPES).nullable(),
    person_id: z.number().nullable(),
    address: z.string(),
    subject: z.string().nullable(),
    body: z.string().describe('As sent to this person: merge fields filled.'),
    status: z.enum(STATUSES),
    detail: z.string().nullable(),
    created_at: z.string(),
    sent_at: z.string().nullable(),
  })
  .meta({ id: 'PersonMessage' }) satisfies z.ZodType<PersonMessage>;

const sendInput = z.looseObject({
  channel: z.string().optional().describe('sms or email.'),
  person_type: z.string().optional().describe('contact, recruit or member.'),
  query: z.unknown().optional().describe('The people list query: {"filter": {...}, "filters": view filters}.'),
  subject: z.string().nullable().optional().describe('An email’s subject; merge fields allowed.'),
  body: z.string().optional().describe('The message, with merge fields such as {{first_name}}.'),
});

/** A text received: what a Twilio-compatible provider posts (form-encoded) to the reply webhook. */
const inboundSms = z.looseObject({
  From: z.string().max(40),
  Body: z.string().max(5_000).optional(),
  MessageSid: z.string().max(100).optional(),
});

/**
 * Texts and emails to the people of a list (docs/messages.md): writing one, its progress, the copies, sending the
 * ones kept while no provider was configured; the provider's reply webhook and the unsubscribe link's page (public,
 * each proved by its own signature); the job that sends; the messages on a person's timeline.
 */
const messages: FeaturePlugin = async (fastify, { ctx }) => {
  const service = new MessageService(ctx, () => fastify.jobs.wake());
  const sender = new MessageSender(ctx);
  fastify.decorate('messages', service);
  fastify.jobs.register(MESSAGES_JOB, (_payload, job) => sender.run(job));
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/message-sends',
    {
      schema: { querystring: noQuery, response: { 200: z.object({ data: z.array(messageSend) }) } },
      config: { permission: 'message:send' },
    },
    async (request) => ({ data: await service.list(request.user) }),
  );
  app.post(
    '/api/message-sends',
    {
      schema: { body: optionalBody(sendInput), response: { 201: answer(messageSend) } },
      config: { permission: 'message:send' },
    },
    async (request, reply) => {
      const send = await service.create(request.user, request.body);
      const queued = send.counts.queued ?? 0;
      return reply.status(201).send({
        data: send,
        message:
          queued > 0
            ? `${queued.toLocaleString('en-US')} ${send.channel === 'sms' ? 'texts' : 'emails'} are on their way.`
            : 'Nothing could be sent now: see why beside each person.',
      });
    },
  );
  app.get(
    '/api/message-sends/:id',
    {
      schema: { params: idParams, querystring: noQuery, response: { 200: answer(messageSend) } },
      config: { permission: 'message:send' },
    },
    async (request) => ({ data: await service.show(request.user, request.params.id) }),
  );
  app.get(
    '/api/message-sends/:id/messages',
    {
      schema: {
        params: idParams,
        querystring: z.object({ status: z.enum(STATUSES).optional() }),
        response: { 200: z.object({ data: z.array(personMessage) }) },
      },
      config: { permission: 'message:send' },
    },
    async (request) => ({
      data: await service.copies(request.user, request.params.id, request.query.status as MessageStatus | undefined),
    }),
  );
  app.post(
    '/api/message-sends/:id/send-unsent',
    {
      schema: { params: idParams, body: noBody, response: { 200: messageAnswer } },
      config: { permission: 'message:send' },
    },
    async (request) => {
      const count = await service.sendUnsent(request.user, request.params.id);
      return { message: count ? `${count.toLocaleString('en-US')} kept messages are on their way.` : 'None was kept.' };
    },
  );

  // Public: each request proves itself (the provider's signature, the link's signed token), with no session.
  await fastify.register(async (open) => {
    const route = open.withTypeProvider<ZodTypeProvider>();
    route.post(
      '/api/messages/sms/inbound',
      {
        schema: { body: inboundSms, response: { 204: z.null() } },
        config: { permission: 'public', signedNotSession: true },
      },
      async (request, reply) => {
        const sms = ctx.config.messages.sms;
        if (!sms) throw notFound('Texts are not set up here (SMS_API_URL).');
        const params = Object.fromEntries(
          Object.entries(request.body as Record<string, unknown>).map(([key, value]) => [key, String(value ?? '')]),
        );
        const signature = request.headers['x-twilio-signature'];
        const url = `${ctx.config.appUrl}/api/messages/sms/inbound`;
        if (!isSignedByProvider(sms.authToken, url, params, typeof signature === 'string' ? signature : undefined))
          throw new HttpError(401, 'The request is not signed by the SMS provider.');
        const body = request.body.Body ?? '';
        await service.receiveSms(request.body.From, body, request.body.MessageSid ?? null, isStopReply(body));
        return reply.status(204).send(null);
      },
    );
    route.post(
      '/api/messages/unsubscribe',
      {
        schema: { body: z.object({ token: z.string().max(1_000) }), response: { 200: messageAnswer } },
        config: { permission: 'public', signedNotSession: true },
      },
      async (request) => {
        const address = service.addressOfToken(request.body.token);
        if (!address)
          throw new ValidationError({ token: ['This unsubscribe link is not valid. Copy it whole from the email.'] });
        await service.optOut('email', address, 'Unsubscribed from an email.');
        return { message: `${address} will get no more emails from us.` };
      },
    );
  });
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Texts and emails to people (the timeline reads a person's through it). */
    messages: MessageService;
  }
}

export const messagesFeature: Feature = { plugin: fp(messages, { name: 'messages', dependencies: ['jobs'] }) };
