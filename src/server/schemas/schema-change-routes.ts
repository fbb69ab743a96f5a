import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { optionsKeptBy } from '../../common/field-types.js';
import { SCHEMA_FIELD_TYPES, type SchemaField } from '../../common/schema-types.js';
import type { AppContext } from '../app-context.js';
import { answer, idParams, messageAnswer, noBody, noQuery, optionalBody, recordAnswer } from '../http/contracts.js';
import { fieldError, HttpError } from '../http/errors.js';
import { type ArchivedValue, ArchivedValues } from './archived-values.js';
import { storedFields, withField } from './computed-dependents.js';
import { customTypeDefinition } from './custom-types.js';
import { type FieldImpact, fieldImpact, presentImpact } from './field-changes.js';
import { checkFieldOptions, optionsErrorKey } from './field-specs.js';
import { schemaRelationTargets } from './relation-targets.js';
import { schemaFieldsResource } from './schema-fields-resource.js';
import { type SchemaRow, schemaRow, schemasResource } from './schemas-resource.js';
import { purgeTypeTrash, restoreTrash, type TypeImpact, typeImpact } from './type-changes.js';

const proposedChange = z
  .object({
    type: z.enum(SCHEMA_FIELD_TYPES).optional(),
    options: z.record(z.string(), z.unknown()).optional(),
    choice_map: z.record(z.string().max(60), z.string().max(60).nullable()).optional(),
    retarget: z.enum(['archive', 'empty']).optional(),
  })
  .passthrough();

const counts = z.object({ live: z.number().int(), trashed: z.number().int() });

/** What a change to a field would do (schemas/field-changes.ts FieldImpact). */
const fieldImpactAnswer = answer(
  z.object({
    action: z.enum(['delete', 'update']),
    field: z.object({ id: z.number().int(), slug: z.string(), name: z.string(), type: z.enum(SCHEMA_FIELD_TYPES) }),
    records: counts,
    archived: z.number().int(),
    converted: z.number().int(),
    retarget: z
      .object({
        from: z.string(),
        to: z.string(),
        records: z.number().int(),
        decided: z.enum(['archive', 'empty']).optional(),
      })
      .nullable(),
    kept_first: z.number().int(),
    left_failing: z.object({ records: z.number().int(), fields: z.array(z.string()) }).nullable(),
    choices: z.array(
      z.object({
        value: z.string(),
        label: z.string(),
        records: z.number().int(),
        in_logic: z.boolean(),
        mapped_to: z.string().nullable().optional(),
      }),
    ),
    logic_blocks: z.array(
      z.object({
        id: z.number().int(),
        description: z.string().nullable(),
        effect: z.enum(['removed', 'action removed', 'uses the field']),
      }),
    ),
    importers: z.array(z.object({ id: z.number().int(), name: z.string(), uses: z.array(z.string()) })),
    exports: z.array(z.object({ id: z.number().int(), status: z.string() })),
    blocking: z.array(z.string()),
    summary: z.array(z.string()),
  }) satisfies z.ZodType<FieldImpact>,
);

/** What deleting a record type would touch (schemas/type-changes.ts TypeImpact). */
const typeImpactAnswer = answer(
  z.object({
    records: counts,
    relations: z.array(
      z.object({ schema_id: z.number().int(), schema: z.string(), field_id: z.number().int(), field: z.string() }),
    ),
    importers: z.array(z.object({ id: z.number().int(), name: z.string() })),
    roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
    blocking: z.array(z.string()),
    summary: z.array(z.string()),
  }) satisfies z.ZodType<TypeImpact>,
);

/** The record whose archived values are listed. */
const archiveQuery = z.object({
  type: z.string().min(1).max(60),
  record_id: z.coerce.number().int().positive(),
});

/** A value a change to the record type took out of the record (schemas/archived-values.ts). */
const archivedValue = z.object({
  id: z.number().int(),
  field: z.object({ slug: z.string(), name: z.string(), type: z.string() }),
  value: z.unknown(),
  reason: z.string(),
  archived_at: z.string(),
  archived_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  restored_at: z.string().nullable(),
  restorable: z.boolean(),
}) satisfies z.ZodType<ArchivedValue>;

/**
 * What a change to a record type will affect, before it is made (the schema editor asks, then confirms), and the
 * two ways out of a type whose records are all in the trash (docs/records.md "Changing a record type"):
 * - GET /api/schema-fields/{id}/impact: deleting the field; POST with `{type?, options?, choice_map?}`: that change;
 * - GET /api/schemas/{id}/impact: deleting the type;
 * - POST /api/schemas/{id}/purge-trash, POST /api/schemas/{id}/restore-trash;
 * - GET /api/archived-values?type=&record_id=, POST /api/archived-values/{id}/restore: what such changes took out
 *   of a record, and putting it back (archived-values.ts).
 */
export function registerSchemaChangeRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const fieldOf = async (user: Parameters<AppContext['records']['show']>[0], id: number) => {
    const field = (await ctx.records.show(user, schemaFieldsResource, id)) as SchemaField;
    const schema = await schemaRow(ctx.db, field.schema_id);
    if (!schema) throw new HttpError(404, `No record type has the field ${id}.`);
    return { field, schema: schema as SchemaRow };
  };

  app.get(
    '/api/schema-fields/:id/impact',
    {
      schema: { params: idParams, querystring: noQuery, response: { 200: fieldImpactAnswer } },
      config: { permission: { resource: 'schema-fields', action: 'delete' } },
    },
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

  app.post(
    '/api/schema-fields/:id/impact',
    {
      schema: { params: idParams, body: optionalBody(proposedChange), response: { 200: fieldImpactAnswer } },
      config: { permission: { resource: 'schema-fields', action: 'update' } },
    },
    async (request) => {
      ctx.records.authorize(request.user, schemaFieldsResource, 'update');
      const body = request.body;
      const { field, schema } = await fieldOf(request.user, request.params.id);
      const type = body.type ?? field.type;
      if (field.column && type !== field.type) throw fieldError('type', 'The type of a built-in field cannot change.');
      const options = body.options ?? optionsKeptBy(type, field.options);
      const checked = checkFieldOptions(type, options, await schemaRelationTargets(ctx.db), {
        self: field.slug,
        fields: withField(await storedFields(ctx.db, schema.id), field.slug, { ...field, type, options }),
      });
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
  // Who may read the record sees its archived values; who may update it puts one back (the record service decides).
  app.get(
    '/api/archived-values',
    {
      schema: { querystring: archiveQuery, response: { 200: answer(z.array(archivedValue)) } },
      config: { permission: 'signed-in' },
    },
    async (request) => ({ data: await archive.list(request.user, request.query.type, request.query.record_id) }),
  );
  app.post(
    '/api/archived-values/:id/restore',
    {
      schema: { params: idParams, body: noBody, response: { 200: recordAnswer, 409: messageAnswer } },
      config: { permission: 'signed-in' },
    },
    async (request) => {
      const { record } = await archive.restore(request.user, request.params.id);
      return { data: record, message: 'The archived value is back on the record.' };
    },
  );

  const typeOf = async (user: Parameters<AppContext['records']['show']>[0], id: number) => {
    const schema = (await ctx.records.show(user, schemasResource, id)) as SchemaRow;
    if (schema.built_in)
      throw new HttpError(422, `${schema.name_singular} is a built-in record type: it cannot be deleted.`);
    return schema;
  };

  app.get(
    '/api/schemas/:id/impact',
    {
      schema: { params: idParams, querystring: noQuery, response: { 200: typeImpactAnswer } },
      config: { permission: { resource: 'schemas', action: 'delete' } },
    },
    async (request) => {
      ctx.records.authorize(request.user, schemasResource, 'delete');
      return { data: await typeImpact(ctx.db, await typeOf(request.user, request.params.id)) };
    },
  );

  app.post(
    '/api/schemas/:id/purge-trash',
    {
      schema: { params: idParams, body: noBody, response: { 200: answer(z.object({ purged: z.number().int() })) } },
      config: { permission: { resource: 'schemas', action: 'delete' } },
    },
    async (request) => {
      ctx.records.authorize(request.user, schemasResource, 'delete');
      const schema = await typeOf(request.user, request.params.id);
      ctx.records.authorize(request.user, customTypeDefinition(schema), 'delete');
      const purged = await purgeTypeTrash(ctx.records, request.user, schema);
      return {
        data: { purged },
        message: `${purged.toLocaleString('en-US')} ${purged === 1 ? schema.name_singular : schema.name_plural} in the trash deleted for good.`,
      };
    },
  );

  app.post(
    '/api/schemas/:id/restore-trash',
    {
      schema: { params: idParams, body: noBody, response: { 200: answer(z.object({ restored: z.number().int() })) } },
      config: { permission: { resource: 'schemas', action: 'delete' } },
    },
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
