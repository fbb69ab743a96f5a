import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { optionsKeptBy } from '../../common/field-types.js';
import { SCHEMA_FIELD_TYPES, type SchemaField } from '../../common/schema-types.js';
import type { AppContext } from '../app-context.js';
import { fieldError, HttpError } from '../http/errors.js';
import { parseBody } from '../http/parse-body.js';
import { idParam } from '../records/routes.js';
import { ArchivedValues } from './archived-values.js';
import { customTypeDefinition } from './custom-types.js';
import { fieldImpact, presentImpact } from './field-changes.js';
import { checkFieldOptions, optionsErrorKey } from './field-specs.js';
import { schemaRelationTargets } from './relation-targets.js';
import { schemaFieldsResource } from './schema-fields-resource.js';
import { reviseSchema } from './schema-revisions.js';
import { type SchemaRow, schemaChanged, schemaRow, schemasResource } from './schemas-resource.js';
import { purgeTrash, restoreTrash, typeImpact } from './type-changes.js';

const proposedChange = z
  .object({
    type: z.enum(SCHEMA_FIELD_TYPES).optional(),
    options: z.record(z.string(), z.unknown()).optional(),
    choice_map: z.record(z.string().max(60), z.string().max(60).nullable()).optional(),
    retarget: z.enum(['archive', 'empty']).optional(),
  })
  .passthrough();

const archiveQuery = z.object({
  type: z.string().min(1).max(60),
  record_id: z.coerce.number().int().positive(),
});

type Params = { Params: { id: number } };

/**
 * What a change to a record type will affect, before it is made (the schema editor asks, then confirms), and the
 * two ways out of a type whose records are all in the trash (docs/records.md "Changing a record type"):
 * - GET /api/schema-fields/{id}/impact: deleting the field; POST with `{type?, options?, choice_map?}`: that change;
 * - GET /api/schemas/{id}/impact: deleting the type;
 * - POST /api/schemas/{id}/purge-trash, POST /api/schemas/{id}/restore-trash;
 * - GET /api/archived-values?type=&record_id=, POST /api/archived-values/{id}/restore: what such changes took out
 *   of a record, and putting it back (archived-values.ts).
 */
export function registerSchemaChangeRoutes(app: FastifyInstance, ctx: AppContext) {
  const fieldOf = async (user: Parameters<AppContext['records']['show']>[0], id: number) => {
    const field = (await ctx.records.show(user, schemaFieldsResource, id)) as SchemaField;
    const schema = await schemaRow(ctx.db, field.schema_id);
    if (!schema) throw new HttpError(404, `No record type has the field ${id}.`);
    return { field, schema: schema as SchemaRow };
  };

  app.get<Params>(
    '/api/schema-fields/:id/impact',
    { schema: { params: idParam }, config: { permission: { resource: 'schema-fields', action: 'delete' } } },
    async (request) => {
      ctx.records.authorize(request.user, schemaFieldsResource, 'delete');
      const { field, schema } = await fieldOf(request.user, request.params.id);
      if (field.column)
        throw new HttpError(
          422,
          `"${field.name}" is a built-in field: it cannot be deleted (hide it with logic instead).`,
        );
      return { data: presentImpact(await fieldImpact(ctx.db, schema, field, { next: null })) };
    },
  );

  app.post<Params>(
    '/api/schema-fields/:id/impact',
    { schema: { params: idParam }, config: { permission: { resource: 'schema-fields', action: 'update' } } },
    async (request) => {
      ctx.records.authorize(request.user, schemaFieldsResource, 'update');
      const body = parseBody(proposedChange, request.body ?? {});
      const { field, schema } = await fieldOf(request.user, request.params.id);
      const type = body.type ?? field.type;
      if (field.column && type !== field.type) throw fieldError('type', 'The type of a built-in field cannot change.');
      const checked = checkFieldOptions(
        type,
        body.options ?? optionsKeptBy(type, field.options),
        await schemaRelationTargets(ctx.db),
      );
      if ('error' in checked) throw fieldError(optionsErrorKey(checked), checked.error);
      return {
        data: presentImpact(
          await fieldImpact(ctx.db, schema, field, {
            next: { type, options: checked.options },
            choiceMap: body.choice_map,
            retarget: body.retarget,
          }),
        ),
      };
    },
  );

  const archive = new ArchivedValues(ctx);
  app.get<{ Querystring: { type?: string; record_id?: string } }>('/api/archived-values', async (request) => {
    const query = parseBody(archiveQuery, request.query ?? {});
    return { data: await archive.list(request.user, query.type, query.record_id) };
  });
  app.post<Params>('/api/archived-values/:id/restore', { schema: { params: idParam } }, async (request) => {
    const { record } = await archive.restore(request.user, request.params.id);
    return { data: record, message: 'The archived value is back on the record.' };
  });

  const typeOf = async (user: Parameters<AppContext['records']['show']>[0], id: number) => {
    const schema = (await ctx.records.show(user, schemasResource, id)) as SchemaRow;
    if (schema.built_in)
      throw new HttpError(422, `${schema.name_singular} is a built-in record type: it cannot be deleted.`);
    return schema;
  };

  app.get<Params>(
    '/api/schemas/:id/impact',
    { schema: { params: idParam }, config: { permission: { resource: 'schemas', action: 'delete' } } },
    async (request) => {
      ctx.records.authorize(request.user, schemasResource, 'delete');
      return { data: await typeImpact(ctx.db, await typeOf(request.user, request.params.id)) };
    },
  );

  app.post<Params>(
    '/api/schemas/:id/purge-trash',
    { schema: { params: idParam }, config: { permission: { resource: 'schemas', action: 'delete' } } },
    async (request) => {
      ctx.records.authorize(request.user, schemasResource, 'delete');
      const schema = await typeOf(request.user, request.params.id);
      ctx.records.authorize(request.user, customTypeDefinition(schema), 'delete');
      const purged = await ctx.db.transaction().execute(async (trx) => {
        const count = await purgeTrash(trx, schema);
        await reviseSchema(trx, schema.id, request.user, { 'records:trash': [count, 0] });
        return count;
      });
      await schemaChanged(ctx.records, schema.id);
      return {
        data: { purged },
        message: `${purged.toLocaleString('en-US')} ${purged === 1 ? schema.name_singular : schema.name_plural} in the trash deleted for good.`,
      };
    },
  );

  app.post<Params>(
    '/api/schemas/:id/restore-trash',
    { schema: { params: idParam }, config: { permission: { resource: 'schemas', action: 'delete' } } },
    async (request) => {
      ctx.records.authorize(request.user, schemasResource, 'delete');
      const schema = await typeOf(request.user, request.params.id);
      const restored = await restoreTrash(ctx.records, request.user, schema);
      return {
        data: { restored },
        message: `${restored.toLocaleString('en-US')} ${restored === 1 ? schema.name_singular : schema.name_plural} restored.`,
      };
    },
  );
}
