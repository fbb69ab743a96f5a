import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Feature } from '../app-context.js';
import { conversationsResource } from '../conversations/conversations-resource.js';
import { PERSON_TYPES } from '../conversations/people.js';
import { answer, idParams, noBody, noQuery, optionalBody, recordAnswer } from '../http/contracts.js';
import { writeAnswer, writeHeaders, writeOptionsOf } from '../records/routes.js';
import { type CallList, type CallListEntry, CallListService } from './call-list-service.js';

const callList = z
  .object({
    id: z.number(),
    name: z.string(),
    person_type: z.enum(PERSON_TYPES),
    query: z.record(z.string(), z.unknown()).describe('The people list query that picked the people.'),
    script: z.string().nullable(),
    created_by: z.number().nullable(),
    created_by_name: z.string().nullable(),
    created_at: z.string(),
    progress: z.object({
      total: z.number(),
      done: z.number(),
      calling: z.number().describe('Being called now by someone.'),
      left: z.number(),
      outcomes: z.record(z.string(), z.number()).describe('People done, by the outcome slug of their conversation.'),
    }),
  })
  .meta({ id: 'CallList' }) satisfies z.ZodType<CallList>;

const callListEntry = z
  .object({
    id: z.number(),
    call_list_id: z.number(),
    position: z.number(),
    person_type: z.enum(PERSON_TYPES),
    person_id: z.number(),
    claimed_until: z.string().describe('Until when this caller holds the person.'),
  })
  .meta({ id: 'CallListEntry' }) satisfies z.ZodType<CallListEntry>;

const callListInput = z.looseObject({
  name: z.string().optional(),
  person_type: z.string().optional().describe('contact, recruit or member.'),
  query: z
    .unknown()
    .optional()
    .describe('The people list query: {"filter": {...react-admin filter values, q: search}, "filters": view filters}.'),
  script: z.string().nullable().optional(),
});

const entryParams = idParams.extend({ entry: z.coerce.number().int().min(1).max(2_147_483_647) });
const mayCall = { resource: conversationsResource.name, action: 'create' } as const;

/**
 * Call lists, the phone bank (docs/conversations.md "Call lists"): a list made from a people list's filters, its
 * progress, the next person for this caller (claimed so no one else is given them), skipping, and the call logged
 * as a conversation that marks the person done.
 */
export const callListsFeature: Feature = {
  plugin: async (fastify, { ctx }) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = new CallListService(ctx);
    app.get(
      '/api/call-lists',
      {
        schema: { querystring: noQuery, response: { 200: z.object({ data: z.array(callList) }) } },
        config: { permission: mayCall },
      },
      async (request) => ({ data: await service.list(request.user) }),
    );
    app.post(
      '/api/call-lists',
      {
        schema: { body: optionalBody(callListInput), response: { 201: answer(callList) } },
        config: { permission: mayCall },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send({ data: await service.create(request.user, request.body), message: 'Call list created.' }),
    );
    app.get(
      '/api/call-lists/:id',
      {
        schema: { params: idParams, querystring: noQuery, response: { 200: answer(callList) } },
        config: { permission: mayCall },
      },
      async (request) => ({ data: await service.show(request.user, request.params.id) }),
    );
    app.post(
      '/api/call-lists/:id/next',
      {
        schema: { params: idParams, body: noBody, response: { 200: answer(callListEntry.nullable()) } },
        config: { permission: mayCall },
      },
      async (request) => ({ data: await service.next(request.user, request.params.id) }),
    );
    app.post(
      '/api/call-lists/:id/entries/:entry/skip',
      {
        schema: { params: entryParams, body: noBody, response: { 200: z.object({ message: z.string() }) } },
        config: { permission: mayCall },
      },
      async (request) => {
        await service.skip(request.user, request.params.id, request.params.entry);
        return { message: 'Skipped: they are back at the end of the list.' };
      },
    );
    app.post(
      '/api/call-lists/:id/entries/:entry/conversation',
      {
        schema: {
          params: entryParams,
          headers: writeHeaders,
          body: optionalBody(z.looseObject({})),
          response: { 201: recordAnswer },
        },
        config: { permission: mayCall },
      },
      async (request, reply) =>
        writeAnswer(
          ctx,
          conversationsResource,
          request,
          reply,
          await service.logCall(
            request.user,
            request.params.id,
            request.params.entry,
            request.body,
            writeOptionsOf(request),
          ),
          201,
        ),
    );
  },
};
