import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { canAny } from '../../common/permissions.js';
import type { Feature } from '../app-context.js';
import { forbidden } from '../http/errors.js';
import { type Assignee, assignees } from './assignees.js';

/** Who may name someone to do a piece of work: whoever adds tasks or logs conversations (their next steps). */
export const ASSIGNING_PERMISSIONS = ['task:create', 'task:update', 'conversation:create'] as const;

const id = z.coerce.number().int().min(1).max(2_147_483_647);
const query = z.object({
  q: z.string().max(100).optional().describe('Part of a name.'),
  ids: z
    .union([id, z.array(id).max(100)])
    .optional()
    .describe('These people (ids[]=1&ids[]=2): the names of those a form shows.'),
});

const assignee = z.object({ id: z.number(), name: z.string() }).meta({ id: 'Assignee' }) satisfies z.ZodType<Assignee>;

/**
 * GET /api/assignees?q=&ids=: the people a task or a conversation's next step can be given to, `{data: [{id, name}]}`
 * by name, at most 50. Names only: an organizer assigns a colleague without reading the users' records
 * (`user:read`); people of incognito roles are listed only for those who see them (reports/people.ts).
 */
export const assigneesFeature: Feature = {
  plugin: async (fastify, { ctx }) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/assignees',
      {
        schema: { querystring: query, response: { 200: z.object({ data: z.array(assignee) }) } },
        config: { permission: { anyOf: ASSIGNING_PERMISSIONS } },
      },
      async (request) => {
        const user = request.user!;
        if (!canAny(user, [...ASSIGNING_PERMISSIONS])) throw forbidden('You cannot give work to anyone.');
        const { q, ids } = request.query;
        return { data: await assignees(ctx, user, { q, ids: ids === undefined ? [] : [ids].flat() }) };
      },
    );
  },
};
