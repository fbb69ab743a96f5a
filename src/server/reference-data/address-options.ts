import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { notFound } from '../http/errors.js';
import { optionsAnswer } from '../options/options-routes.js';
import { columnValueOptions } from '../options/options-service.js';
import { knownRelationTargets } from '../schemas/schema-files.js';

/**
 * The options lists of the text relation targets (fields with a `text_target` in their schema file: the site
 * address parts): GET /api/options/site-cities?q= (and site-streets, site-counties, site-states,
 * site-postal-codes) answers `{data: [{id: value, name: value}]}`, the distinct values among the records the
 * person may read.
 */
export function registerAddressOptions(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  for (const target of Object.values(knownRelationTargets())) {
    if (target.value !== 'text' || !target.field) continue;
    const column = target.field;
    app.get(
      `/api/options/${target.options}`,
      {
        schema: { querystring: z.object({ q: z.string().optional() }), response: { 200: optionsAnswer } },
        config: { permission: { resource: target.resource, action: 'read' } },
      },
      async (request) => {
        const def = ctx.resources.byType(target.type);
        if (!def) throw notFound(`There are no options for "${target.options}".`);
        const q = request.query.q?.slice(0, 100) ?? '';
        return { data: await columnValueOptions(ctx, request.user, def, column, q) };
      },
    );
  }
}
