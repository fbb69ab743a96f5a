import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { fieldError } from '../http/errors.js';
import { parseBody } from '../http/parse-body.js';
import type { ResourceDefinition } from '../records/resource.js';
import { idParam, socketOf } from '../records/routes.js';
import { registerCustomTypeRoutes } from './custom-types.js';
import { ensureAllCustomFieldIndexes, ensureSearchIndexes, ensureSortIndexes } from './indexes.js';
import { registerSchemaChangeRoutes } from './schema-change-routes.js';
import { schemaFieldsResource } from './schema-fields-resource.js';
import { schemaStore } from './schema-store.js';
import { schemasResource } from './schemas-resource.js';

const NOTIFY_CHANNEL = 'organizing_map_schemas';

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
  app: FastifyInstance,
  ctx: AppContext,
  definitions: readonly ResourceDefinition[],
) {
  const store = schemaStore(ctx.db);
  // Tells this app's own notices from other processes' (pids repeat across containers).
  const INSTANCE = randomUUID();
  // Other server processes (PostgreSQL) clear their cache when this one changes a schema, and the other way round.
  store.broadcast = () => ctx.database.notify(NOTIFY_CHANNEL, INSTANCE);
  void ctx.database.listen(NOTIFY_CHANNEL, (payload) => {
    if (payload !== INSTANCE) store.invalidate();
  });
  // A change announced while this process's LISTEN connection was lost (a database restart) was not heard.
  const stopMissing = ctx.database.onNotificationsMissed(() => store.invalidate());
  app.addHook('onClose', async () => stopMissing());

  // 'Site created successfully.' with the schema's singular name; every write runs the type's form logic.
  ctx.records.nameOf = async (def, db) =>
    (await store.snapshot(db)).byType.get(def.type)?.name_singular ?? def.singular;
  ctx.records.formLogic = (def, values, db) => store.logic(def.type, values, db, (message) => app.log.warn(message));
  ctx.records.logError = (error, message) => app.log.error({ err: error }, message);

  app.post<{ Params: { id: number } }>(
    '/api/schemas/:id/reorder',
    { schema: { params: idParam }, config: { permission: { resource: 'schemas', action: 'update' } } },
    async (request: FastifyRequest<{ Params: { id: number } }>) => {
      const body = parseBody(reorderBody, request.body ?? {});
      const user = request.user;
      ctx.records.authorize(user, schemasResource, 'update');
      const schema = await ctx.records.show(user, schemasResource, request.params.id);
      const socketId = socketOf(request);
      if (body.field_ids) {
        const ids: number[] = schema.fields.map((f: { id: number }) => f.id);
        const unknown = body.field_ids.filter((id) => !ids.includes(id));
        if (unknown.length)
          throw fieldError('field_ids', `Not fields of ${schema.name_singular}: ${unknown.join(', ')}.`);
        const order = [...new Set(body.field_ids), ...ids.filter((id) => !body.field_ids!.includes(id))];
        for (const [position, id] of order.entries()) {
          const field = schema.fields.find((f: { id: number }) => f.id === id);
          if (field.position !== position)
            await ctx.records.update(user, schemaFieldsResource, id, { position }, { socketId });
        }
      } else {
        const all = await ctx.db
          .selectFrom('schemas')
          .select(['id', 'position'])
          .orderBy('position')
          .orderBy('id')
          .execute();
        const order = all.filter((s) => s.id !== schema.id);
        order.splice(Math.min(body.position!, order.length), 0, { id: schema.id, position: schema.position });
        for (const [position, row] of order.entries()) {
          if (row.position !== position)
            await ctx.records.update(user, schemasResource, row.id, { position }, { socketId });
        }
      }
      return {
        data: await ctx.records.show(user, schemasResource, request.params.id),
        message: `${schema.name_singular} reordered successfully.`,
      };
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
