import type { Transaction } from 'kysely';
import { FIELD_CATEGORIES, SCHEMA_FIELD_TYPES, type SchemaField, type SchemaFieldType } from '../../common/schema-types.js';
import { slugifyField } from '../../common/slugs.js';
import { fieldError, HttpError } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { builtinDefinition } from './builtin-types.js';
import { checkFieldOptions } from './field-specs.js';
import { dropCustomFieldIndex, ensureCustomFieldIndex } from './indexes.js';
import { knownRelationTargets } from './schema-files.js';
import { FIELD_SLUG_PATTERN, RESERVED_FIELDS } from './schema-names.js';
import { schemaChanged, schemaRow } from './schemas-resource.js';

/** The table a schema's records live in, and (for types created in the app) the schema they are scoped to. */
function tableOf(schema: { type: string; id: number; built_in: boolean }): { table: string; scoped: boolean } {
  const def = builtinDefinition(schema.type);
  return def ? { table: def.table, scoped: false } : { table: 'custom_records', scoped: true };
}

async function reservedSlugs(trx: Transaction<any>, schema: { id: number; type: string; built_in: boolean }) {
  const { table } = tableOf(schema);
  const columns = await trx.selectFrom('information_schema.columns' as any).select('column_name').where('table_name', '=', table).execute();
  const def = builtinDefinition(schema.type);
  return new Set([...RESERVED_FIELDS, ...columns.map((c: any) => c.column_name as string), ...Object.keys(def?.fields ?? {}), ...(def?.readOnly ?? []), ...(def?.hidden ?? [])]);
}

/**
 * The fields of a record type. Internal (built-in, `column`) fields come with the type: their slug, type and
 * category are fixed and they cannot be deleted; their name, position, options and required flag can change.
 * Custom and importer fields are added here; their values live in the record's `custom` JSON, indexed for filters.
 */
export const schemaFieldsResource: ResourceDefinition = {
  name: 'schema-fields',
  type: 'schema-field',
  table: 'schema_fields',
  singular: 'Field',
  fields: {
    schema_id: { kind: 'integer', required: true, min: 1, label: 'schema', references: { table: 'schemas' } },
    name: { kind: 'text', required: true, max: 100 },
    slug: { kind: 'text', max: 60, pattern: FIELD_SLUG_PATTERN, patternMessage: 'The slug may only hold lower-case letters, digits and underscores, starting with a letter.' },
    type: { kind: 'enum', required: true, options: SCHEMA_FIELD_TYPES },
    category: { kind: 'enum', options: FIELD_CATEGORIES },
    required: { kind: 'boolean' },
    options: { kind: 'json', max: 50_000, sortable: false, filterable: false },
    position: { kind: 'integer', min: 0, max: 100_000 },
  },
  readOnly: ['internal', 'column'],
  search: ['name', 'slug'],
  defaultSort: { field: 'position', order: 'asc' },
  softDelete: false,
  restorable: false,
  hooks: {
    async beforeWrite(values, { trx, action, existing }) {
      const prepared = { ...values };
      if (action === 'update') {
        if ('schema_id' in prepared && prepared.schema_id !== existing!.schema_id) throw fieldError('schema_id', 'A field cannot move to another record type.');
        if ('slug' in prepared && prepared.slug !== existing!.slug) throw fieldError('slug', 'The slug of a field cannot change (its values are stored under it).');
        if (existing!.column) {
          if ('type' in prepared && prepared.type !== existing!.type) throw fieldError('type', 'The type of a built-in field cannot change.');
          if ('category' in prepared && prepared.category !== existing!.category) throw fieldError('category', 'The category of a built-in field cannot change.');
        } else if (prepared.category === 'internal') {
          throw fieldError('category', 'Only built-in fields are internal: choose custom or importer.');
        }
        delete prepared.schema_id;
        delete prepared.slug;
      }
      const schemaId = prepared.schema_id ?? existing!.schema_id;
      const schema = await schemaRow(trx, schemaId);
      if (!schema) throw fieldError('schema_id', 'The selected schema does not exist.');
      const type = (prepared.type ?? existing?.type) as SchemaFieldType;
      if (action === 'create' || 'options' in prepared || 'type' in prepared) {
        const checked = checkFieldOptions(type, 'options' in prepared ? prepared.options : existing?.options, knownRelationTargets());
        if ('error' in checked) throw fieldError('options', checked.error);
        prepared.options = checked.options;
      }
      if (action === 'create') {
        if (prepared.category === 'internal') throw fieldError('category', 'Internal fields come with the record type: choose custom or importer.');
        prepared.category ??= 'custom';
        prepared.slug ||= slugifyField(prepared.name);
        if (!FIELD_SLUG_PATTERN.test(prepared.slug)) throw fieldError('slug', 'The slug may only hold lower-case letters, digits and underscores, starting with a letter.');
        const [taken, reserved] = await Promise.all([
          trx.selectFrom('schema_fields').select('id').where('schema_id', '=', schemaId).where('slug', '=', prepared.slug).executeTakeFirst(),
          reservedSlugs(trx, schema),
        ]);
        if (taken || reserved.has(prepared.slug)) throw fieldError('slug', `The slug "${prepared.slug}" is already used by ${schema.name_singular}: choose another.`);
        prepared.column = false;
        prepared.required ??= false;
        if (prepared.position === undefined) {
          const last = await trx.selectFrom('schema_fields').select((eb) => eb.fn.max('position').as('max')).where('schema_id', '=', schemaId).executeTakeFirst();
          prepared.position = Number(last?.max ?? -1) + 1;
        }
      }
      if (prepared.required === null) prepared.required = false;
      return prepared;
    },
    beforeRemove(existing) {
      if (existing.column) throw new HttpError(422, `"${existing.name}" is a built-in field: it cannot be deleted (hide it with logic instead).`);
    },
    async afterWrite(_record, { trx, action, existing }) {
      // Logic that reads or writes a deleted field goes with it.
      if (action === 'delete') {
        const ref = `field:${existing!.id}`;
        const blocks = await trx.selectFrom('logic_blocks').select('id').where('schema_id', '=', existing!.schema_id).execute();
        const blockIds = blocks.map((b) => b.id);
        if (blockIds.length) {
          await trx.deleteFrom('logic_conditions').where('logic_block_id', 'in', blockIds).where('source', '=', ref).execute();
          await trx.deleteFrom('logic_actions').where('logic_block_id', 'in', blockIds).where('target', '=', ref).execute();
        }
      }
    },
    present(records) {
      for (const record of records) record.internal = record.category === 'internal';
    },
    async afterCommit(record, { action, records }) {
      await schemaChanged(records, record.schema_id);
      const schema = await schemaRow(records.db, record.schema_id);
      if (!schema || record.column) return;
      if (action === 'delete') await dropCustomFieldIndex(records.db, schema, record as SchemaField);
      else await ensureCustomFieldIndex(records.db, schema, record as SchemaField);
    },
  },
};

