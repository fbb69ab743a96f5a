import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { queryValue, rowWith } from '../http/contracts.js';
import { notFound } from '../http/errors.js';
import { recordOptions } from './options-service.js';

/** `q`: text the name holds (the first 100 characters count); `ids` / `ids[]`: these records (a list or a,b,c). */
export const optionsQuery = z.object({
  q: z.string().optional(),
  ids: queryValue.optional(),
  'ids[]': queryValue.optional(),
});

/** `{data: [{id, name}]}`, with the resource's option columns where it has some. */
export const optionsAnswer = z.object({
  data: z.array(rowWith({ id: z.union([z.number(), z.string()]), name: z.string().nullable() })),
});

/**
 * GET /api/options/{resource}?q=&ids[]=: `{data: [{id, name}]}` for pickers. The same row rules as lists apply
 * (soft deletes, category permissions); reading options needs the resource's read permission, in any category.
 */
export function registerOptionsRoutes(app: FastifyInstance, ctx: AppContext) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/options/:resource',
    {
      schema: {
        params: z.object({ resource: z.string() }),
        querystring: optionsQuery,
        response: { 200: optionsAnswer },
      },
      config: { permission: { resource: ':resource', action: 'read' } },
    },
    async (request) => {
      const def = ctx.resources.get(request.params.resource);
      if (!def) throw notFound(`There are no options for "${request.params.resource}".`);
      const rawIds = request.query['ids[]'] ?? request.query.ids;
      const ids = (Array.isArray(rawIds) ? rawIds : rawIds ? String(rawIds).split(',') : [])
        .map(Number)
        .filter(Number.isInteger);
      const q = request.query.q?.slice(0, 100) ?? '';
      return { data: await recordOptions(ctx, request.user, def, { q, ids }) };
    },
  );
}
