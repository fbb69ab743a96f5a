import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { idParams, optionalBody, recordAnswer } from '../http/contracts.js';
import type { ResourceDefinition } from '../records/resource.js';
import { socketOf } from '../records/routes.js';
import { registerCustomTypeRoutes } from './custom-types.js';
import { ensureAllCustomFieldIndexes, ensureSearchIndexes, ensureSortIndexes } from './indexes.js';
import { registerSchemaChangeRoutes } from './schema-change-routes.js';
import { reorderSchema } from './schema-order.js';
import { schemasResource } from './schemas-resource.js';

const reorderBody = z
  .object({
    position: z.number().int().min(0).max(100_000).optional(),
    field_ids: z.array(z.number().int().positive()).max(1_000).optional(),
  })
  .strict()
  .refine((body) => (body.position === undefined) !== (body.field_ids === undefined), {
    message: 'Send position (the new place of this record type) or field_ids (its fields in their new order).',
    path: ['position'],
  });

/**
 * Record types at run time: the schema cache shared by every resource (custom fields, names in messages, the
 * form logic that decides which fields are required), POST /api/schemas/{id}/reorder, the routes of types made in
 * the app, and the indexes custom fields and searches need.
 */
export function registerSchemaRoutes(
  fastify: FastifyInstance,
  ctx: AppContext,
  definitions: readonly ResourceDefinition[],
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/schemas/:id/reorder',
    {
      schema: { params: idParams, body: optionalBody(reorderBody), response: { 200: recordAnswer } },
      config: { permission: { resource: 'schemas', action: 'update' } },
    },
    async (request) => {
      ctx.records.authorize(request.user, schemasResource, 'update');
      const { schema, name } = await reorderSchema(
        ctx.records,
        request.user,
        request.params.id,
        request.body,
        socketOf(request),
      );
      return { data: schema, message: `${name} reordered successfully.` };
    },
  );

  registerSchemaChangeRoutes(app, ctx);
  registerCustomTypeRoutes(app, ctx);

  app.addHook('onReady', async () => {
    try {
      await ensureSearchIndexes(ctx.db, definitions);
      await ensureSortIndexes(ctx.db, definitions);
      await ensureAllCustomFieldIndexes(ctx.db);
    } catch (error) {
      app.log.error({ err: error }, 'Could not create the search and custom field indexes');
    }
  });
}
