import type { Feature } from '../app-context.js';
import { idParam, writeAnswer, writeOptionsOf } from '../records/routes.js';
import { conversationsResource } from './conversations-resource.js';
import { assessmentLevelsResource, conversationOutcomesResource } from './lists.js';
import { logConversation } from './log-conversation.js';
import { PERSON_TYPES, personResource } from './people.js';
import { timelineOf } from './timeline.js';

/**
 * Conversations with people (docs/conversations.md): the record type and its two lists, logging one with the task
 * its next step becomes (`POST /api/conversations`), and a person's timeline.
 */
export const conversationsFeature: Feature = {
  resources: [conversationsResource, conversationOutcomesResource, assessmentLevelsResource],
  plugin: async (app, { ctx }) => {
    app.post(
      `/api/${conversationsResource.name}`,
      { config: { permission: { resource: conversationsResource.name, action: 'create' } } },
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
      app.get<{ Params: { id: number } }>(
        `/api/${resource}/:id/timeline`,
        {
          schema: { params: idParam },
          config: { permission: { resource, action: 'read' } },
        },
        async (request) => ({ data: await timelineOf(ctx, request.user!, { type, id: request.params.id }) }),
      );
    }
  },
};
