import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Feature } from '../app-context.js';
import { idParams, noQuery, recordAnswer, recordInput } from '../http/contracts.js';
import { writeAnswer, writeHeaders, writeOptionsOf } from '../records/routes.js';
import { conversationsResource } from './conversations-resource.js';
import { assessmentLevelsResource, conversationOutcomesResource } from './lists.js';
import { logConversation } from './log-conversation.js';
import { PERSON_TYPES, personResource } from './people.js';
import { type TimelineEntry, timelineOf } from './timeline.js';

const timelineEntry = z
  .object({
    kind: z.string().describe('conversation, assessment or card.'),
    key: z.string(),
    at: z.string(),
    record: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'TimelineEntry' }) satisfies z.ZodType<TimelineEntry>;

/**
 * Conversations with people (docs/conversations.md): the record type and its two lists, logging one with the task
 * its next step becomes (`POST /api/conversations`), and a person's timeline.
 */
export const conversationsFeature: Feature = {
  resources: [conversationsResource, conversationOutcomesResource, assessmentLevelsResource],
  plugin: async (fastify, { ctx }) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.post(
      `/api/${conversationsResource.name}`,
      {
        schema: { headers: writeHeaders, body: recordInput, response: { 200: recordAnswer, 201: recordAnswer } },
        config: { permission: { resource: conversationsResource.name, action: 'create' } },
      },
      async (request, reply) =>
        writeAnswer(
          ctx,
          conversationsResource,
          request,
          reply,
          await logConversation(ctx, request.user, request.body, writeOptionsOf(request)),
          201,
        ),
    );
    for (const type of PERSON_TYPES) {
      const resource = personResource(type);
      app.get(
        `/api/${resource}/:id/timeline`,
        {
          schema: {
            params: idParams,
            querystring: noQuery,
            response: { 200: z.object({ data: z.array(timelineEntry) }) },
          },
          config: { permission: { resource, action: 'read' } },
        },
        async (request) => ({ data: await timelineOf(ctx, request.user!, { type, id: request.params.id }) }),
      );
    }
  },
};
