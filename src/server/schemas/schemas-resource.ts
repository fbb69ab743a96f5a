import type { Kysely } from 'kysely';
import { z } from 'zod';
import { PERMISSION_ENTITIES } from '../../common/permission-catalogue.js';
import { pluralizeSlug, SCHEMA_FIELD_TYPES, type SchemaField } from '../../common/schema-types.js';
import { slugifyField, slugifyType } from '../../common/slugs.js';
import type { DB } from '../db/schema.generated.js';
import { fieldError, HttpError } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';
import { syncAutonumber } from './autonumbers.js';
import { builtinDefinition, builtinTypes } from './builtin-types.js';
import { checkFieldOptions, type FieldOfType, optionsErrorKey } from './field-specs.js';
import { ensureCustomFieldIndex } from './indexes.js';
import { schemaRelationTargets } from './relation-targets.js';
import { FIELD_SLUG_PATTERN, RESERVED_FIELDS, RESERVED_RESOURCES, TYPE_PATTERN } from './schema-names.js';
import { loadSchemas, schemaStore } from './schema-store.js';
import { purgeTrash, setTypePermissions, typeImpact } from './type-changes.js';

export interface SchemaRow {
  id: number;
  type: string;
  resource: string;
  name_singular: string;
  name_plural: string;
  built_in: boolean;
  [key: string]: any;
}

export async function schemaRow(db: Kysely<DB>, id: number): Promise<SchemaRow | undefined> {
  return (await db.selectFrom('schemas').selectAll().where('id', '=', id).executeTakeFirst()) as SchemaRow | undefined;
}

/** After any write to a schema, field or logic row: the caches, and an event on the schema so every screen reloads it. */
export async function schemaChanged(records: RecordService, schemaId: number | null | undefined) {
  await schemaStore(records.db).changed();
  if (!schemaId) return;
  const row = await schemaRow(records.db, schemaId);
  if (!row) return;
  const [presented] = await records.present(schemasResource, [row]);
  records.announce(schemasResource, 'updated', presented);
}

const initialField = z
  .object({
    name: z.string().trim().min(1).max(100),
    slug: z.string().trim().max(60).optional(),
    type: z.enum(SCHEMA_FIELD_TYPES),
    category: z.enum(['importer', 'custom']).optional(),
    required: z.boolean().optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** A new type's fields as a formula among them sees them: its name, then the fields it is made with. */
function initialFields(fields: ReadonlyArray<z.infer<typeof initialField>>): FieldOfType[] {
  return [
    { slug: 'name', name: 'Name', type: 'text', required: true, options: {}, column: true },
    ...fields.map((field) => ({
      slug: field.slug || slugifyField(field.name),
      name: field.name,
      type: field.type,
      required: field.required ?? false,
      options: field.options ?? {},
      column: false,
    })),
  ];
}

/**
 * Record types. Built-in types come from the files in schemas/ (their type cannot change and they cannot be
 * deleted); POST creates a new type whose records live in `custom_records` and are served at /api/{resource}.
 */
export const schemasResource: ResourceDefinition = {
  name: 'schemas',
  type: 'schema',
  table: 'schemas',
  singular: 'Schema',
  fields: {
    type: {
      kind: 'text',
      max: 60,
      pattern: TYPE_PATTERN,
      patternMessage: 'The type may only hold lower-case letters, digits and single dashes, starting with a letter.',
    },
    name_singular: { kind: 'text', required: true, max: 100, label: 'singular name' },
    name_plural: { kind: 'text', required: true, max: 100, label: 'plural name' },
    position: { kind: 'integer', min: 0, max: 100_000 },
    // Create only: the type's first fields (checked in beforeWrite). Sent back on update, they are ignored.
    fields: {
      kind: 'json',
      storage: 'virtual',
      shape: z.array(z.unknown()).max(500),
      sortable: false,
      filterable: false,
    },
  },
  readOnly: ['custom', 'built_in', 'resource', 'restorable', 'actions'],
  search: ['name_singular', 'name_plural', 'type'],
  defaultSort: { field: 'position', order: 'asc' },
  softDelete: false,
  restorable: false,
  hooks: {
    async beforeWrite(values, { trx, action, existing }) {
      const prepared = { ...values };
      if (action === 'update') {
        // The client may send the whole schema back: its fields are edited through /api/schema-fields.
        delete prepared.fields;
        if ('type' in prepared && prepared.type !== existing!.type)
          throw fieldError('type', 'The type of a record type cannot change.');
        delete prepared.type;
        return prepared;
      }
      const initial = z
        .array(initialField)
        .max(200)
        .safeParse(prepared.fields ?? []);
      if (!initial.success) {
        const issue = initial.error.issues[0];
        throw fieldError(['fields', ...issue.path].join('.'), issue.message);
      }
      prepared.fields = initial.data;
      const type = prepared.type ?? slugifyType(prepared.name_singular ?? '');
      if (!type || !TYPE_PATTERN.test(type))
        throw fieldError('type', 'Give the record type a name made of letters and digits.');
      const resource = pluralizeSlug(type);
      const taken = await trx
        .selectFrom('schemas')
        .select('id')
        .where((eb) => eb.or([eb('type', '=', type), eb('resource', '=', resource)]))
        .executeTakeFirst();
      const reserved =
        (PERMISSION_ENTITIES as readonly string[]).includes(type) ||
        builtinTypes().includes(type) ||
        RESERVED_RESOURCES.has(resource) ||
        builtinTypes().some((t) => builtinDefinition(t)!.name === resource);
      if (taken || reserved) throw fieldError('type', `The type "${type}" is already taken; choose another name.`);
      const slugs = new Set<string>(['name']);
      const targets = await schemaRelationTargets(trx);
      for (const [i, field] of (prepared.fields ?? []).entries()) {
        const slug = field.slug || slugifyField(field.name);
        if (!FIELD_SLUG_PATTERN.test(slug) || RESERVED_FIELDS.has(slug) || slugs.has(slug))
          throw fieldError(`fields.${i}.slug`, `The field slug "${slug}" is not allowed or used twice.`);
        slugs.add(slug);
        const checked = checkFieldOptions(field.type, field.options, targets, {
          self: slug,
          fields: initialFields(prepared.fields ?? []),
        });
        if ('error' in checked) throw fieldError(optionsErrorKey(checked, `fields.${i}.options`), checked.error);
      }
      if (prepared.position === undefined) {
        const last = await trx
          .selectFrom('schemas')
          .select((eb) => eb.fn.max('position').as('max'))
          .executeTakeFirst();
        prepared.position = Number(last?.max ?? -1) + 1;
      }
      return { ...prepared, type, resource, built_in: false };
    },
    async beforeRemove(existing, { trx }) {
      if (existing.built_in)
        throw new HttpError(422, `${existing.name_singular} is a built-in record type: it cannot be deleted.`);
      const impact = await typeImpact(trx, existing as SchemaRow);
      if (impact.blocking.length) throw new HttpError(422, impact.blocking.join(' '));
      // Records in the trash would have no screen left to be restored from: they go with the type.
      await purgeTrash(trx, existing as SchemaRow);
    },
    async afterWrite(record, { trx, action, values }) {
      if (action !== 'create') return;
      const targets = await schemaRelationTargets(trx);
      const fields = [
        {
          schema_id: record.id,
          slug: 'name',
          name: 'Name',
          type: 'text',
          category: 'internal',
          required: true,
          options: '{}',
          position: 0,
          column: true,
        },
        ...(values?.fields ?? []).map((field: z.infer<typeof initialField>, i: number) => {
          const slug = field.slug || slugifyField(field.name);
          const checked = checkFieldOptions(field.type, field.options, targets, {
            self: slug,
            fields: initialFields(values?.fields ?? []),
          }) as { options: object };
          return {
            schema_id: record.id,
            slug,
            name: field.name,
            type: field.type,
            category: field.category ?? 'custom',
            required: field.required ?? false,
            options: JSON.stringify(checked.options),
            position: i + 1,
            column: false,
          };
        }),
      ];
      const inserted = await trx.insertInto('schema_fields').values(fields).returning(['id', 'slug']).execute();
      const ids = new Map(inserted.map((field) => [field.slug, field.id]));
      for (const field of fields)
        if (field.type === 'autonumber')
          await syncAutonumber(
            trx,
            record as SchemaRow,
            {
              ...field,
              id: ids.get(field.slug)!,
              options: JSON.parse(field.options),
            } as SchemaField,
          );
    },
    async present(records, db) {
      const loaded = new Map(
        (
          await loadSchemas(
            db,
            records.map((r) => r.id),
          )
        ).map((schema) => [schema.id, schema]),
      );
      for (const record of records) {
        const schema = loaded.get(record.id);
        record.custom = schema?.custom ?? false;
        // Types made in the app restore; a built-in one as its resource does (tags and features do not).
        record.restorable = builtinDefinition(record.type)?.restorable ?? true;
        record.fields = schema?.fields ?? [];
        record.actions = schema?.actions ?? [];
      }
    },
    async afterCommit(record, { action, user, records }) {
      await schemaStore(records.db).changed();
      if (action === 'create' && user) await setTypePermissions(records, record.type, 'grant');
      if (action === 'delete') await setTypePermissions(records, record.type, 'revoke');
      if (action === 'create') {
        for (const field of record.fields ?? [])
          if (!field.column) await ensureCustomFieldIndex(records.db, record as SchemaRow, field);
      }
    },
  },
};
