import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { listQuery } from '../http/contracts.js';
import { fieldError } from '../http/errors.js';
import { readableType } from './readable-type.js';

const sums = z.record(z.string(), z.number());
const listGroup = z.object({ value: z.unknown(), count: z.number().int(), sums }).meta({ id: 'ListGroup' });
const listGroups = z
  .object({
    data: z.array(listGroup),
    meta: z.object({ group_by: z.string(), total: z.number().int(), sums }),
  })
  .meta({ id: 'ListGroups' });

/**
 * GET /api/records/{resource}/groups?group_by=<field>: a list grouped by a field's value (a grid's grouping, a saved
 * view's `group_by`): each value with its count and the sums of the number fields, and the list's total and sums. It
 * takes the list's own query (`filters=`, `filter[...]`, `search`, `view=`), read with the same access rules.
 */
export function registerGroupRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/records/:resource/groups',
    {
      schema: {
        params: z.object({ resource: z.string() }),
        querystring: listQuery.extend({ group_by: z.string().optional().describe('The field to group by.') }),
        response: { 200: listGroups },
      },
      config: { permission: { resource: ':resource', action: 'read' } },
    },
    async (request) => {
      const { def, user } = readableType(ctx, request.user, request.params.resource);
      const { group_by: groupBy, ...query } = request.query;
      if (!groupBy) throw fieldError('group_by', 'Name the field to group by.');
      const grouped = await ctx.records.groups(user, def, query, groupBy);
      return {
        data: grouped.groups,
        meta: { group_by: groupBy, total: grouped.total, sums: grouped.sums },
      };
    },
  );
}
