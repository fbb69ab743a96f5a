import { sql, type Kysely, type Transaction } from 'kysely';
import { z } from 'zod';
import { isCircular } from '../../common/form-logic/index.js';
import { LOGIC_ACTIONS, LOGIC_OPERATORS, LOGIC_TRIGGERS, parseFieldRef, pluralizeSlug, SCHEMA_FIELD_TYPES, type LogicBlock, type SchemaField, type SchemaFieldType } from '../../common/schema-types.js';
import { PERMISSION_ENTITIES } from '../../common/permission-catalogue.js';
import { fieldError, HttpError, ValidationError } from '../http/errors.js';
import type { RecordService } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';
import { builtinDefinition, builtinTypes } from './builtin-types.js';
import { checkFieldOptions } from './field-specs.js';
import { dropCustomFieldIndex, ensureCustomFieldIndex } from './indexes.js';
import { loadSchemas, presentBlock, schemaStore } from './schema-store.js';

const TYPE_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const FIELD_SLUG_PATTERN = /^[a-z][a-z0-9_]*$/;
/** First path segments of /api that are not record types (a new type may not take them). */
const RESERVED_RESOURCES = new Set([
  'auth', 'password', 'profile', 'options', 'system', 'dashboard', 'health', 'revisions', 'actions', 'map', 'reports', 'assistant',
  'imports', 'importers', 'importer-columns', 'importer-rules', 'exports', 'attachments', 'documents', 'notes', 'notifications', 'tasks',
  'records', 'schemas', 'schema-fields', 'logic-blocks', 'logic-conditions', 'logic-actions', 'broadcasting', 'sanctum', 'statistics', 'files',
]);
/** Column names every table has or the record service owns: never a custom field's slug. */
const RESERVED_FIELDS = new Set(['id', 'custom', 'created_at', 'updated_at', 'deleted_at', 'schema_id', 'attachments', 'name', 'user_id', 'team_id', 'import_id', 'type']);

const slugifyField = (name: string) => name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').replace(/^(\d)/, 'f_$1').slice(0, 60);
const slugifyType = (name: string) => name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').replace(/^(\d)/, 't-$1').slice(0, 60);

interface SchemaRow {
  id: number;
  type: string;
  name_singular: string;
  name_plural: string;
  built_in: boolean;
  [key: string]: any;
}

async function schemaRow(db: Kysely<any>, id: number): Promise<SchemaRow | undefined> {
  return (await db.selectFrom('schemas').selectAll().where('id', '=', id).executeTakeFirst()) as SchemaRow | undefined;
}

/** The table a schema's records live in, and (for types created in the app) the schema they are scoped to. */
export function tableOf(schema: { type: string; id: number; built_in: boolean }): { table: string; scoped: boolean } {
  const def = builtinDefinition(schema.type);
  return def ? { table: def.table, scoped: false } : { table: 'custom_records', scoped: true };
}

/** After any write to a schema, field or logic row: the caches, and an event on the schema so every screen reloads it. */
async function schemaChanged(records: RecordService, schemaId: number | null | undefined) {
  await schemaStore(records.db).changed();
  if (!schemaId) return;
  const row = await schemaRow(records.db, schemaId);
  if (!row) return;
  const [presented] = await records.present(schemasResource, [row]);
  await records.announce(schemasResource, 'updated', presented);
}

// ---- schemas -------------------------------------------------------------------------------------------------

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
    type: { kind: 'text', max: 60, pattern: TYPE_PATTERN, patternMessage: 'The type may only hold lower-case letters, digits and single dashes, starting with a letter.' },
    name_singular: { kind: 'text', required: true, max: 100, label: 'singular name' },
    name_plural: { kind: 'text', required: true, max: 100, label: 'plural name' },
    position: { kind: 'integer', min: 0, max: 100_000 },
    // Create only: the type's first fields (checked in beforeWrite). Sent back on update, they are ignored.
    fields: { kind: 'json', storage: 'virtual', shape: z.array(z.unknown()).max(500), sortable: false, filterable: false },
  },
  readOnly: ['custom', 'built_in', 'resource', 'actions'],
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
        if ('type' in prepared && prepared.type !== existing!.type) throw fieldError('type', 'The type of a record type cannot change.');
        delete prepared.type;
        return prepared;
      }
      const initial = z.array(initialField).max(200).safeParse(prepared.fields ?? []);
      if (!initial.success) {
        const issue = initial.error.issues[0];
        throw fieldError(['fields', ...issue.path].join('.'), issue.message);
      }
      prepared.fields = initial.data;
      const type = prepared.type ?? slugifyType(prepared.name_singular ?? '');
      if (!type || !TYPE_PATTERN.test(type)) throw fieldError('type', 'Give the record type a name made of letters and digits.');
      const resource = pluralizeSlug(type);
      const taken = await trx.selectFrom('schemas').select('id').where((eb) => eb.or([eb('type', '=', type), eb('resource', '=', resource)])).executeTakeFirst();
      const reserved = (PERMISSION_ENTITIES as readonly string[]).includes(type) || builtinTypes().includes(type) || RESERVED_RESOURCES.has(resource) || builtinTypes().some((t) => builtinDefinition(t)!.name === resource);
      if (taken || reserved) throw fieldError('type', `The type "${type}" is already taken; choose another name.`);
      const slugs = new Set<string>(['name']);
      for (const [i, field] of (prepared.fields ?? []).entries()) {
        const slug = field.slug || slugifyField(field.name);
        if (!FIELD_SLUG_PATTERN.test(slug) || RESERVED_FIELDS.has(slug) || slugs.has(slug)) throw fieldError(`fields.${i}.slug`, `The field slug "${slug}" is not allowed or used twice.`);
        slugs.add(slug);
        const checked = checkFieldOptions(field.type, field.options);
        if ('error' in checked) throw fieldError(`fields.${i}.options`, checked.error);
      }
      if (prepared.position === undefined) {
        const last = await trx.selectFrom('schemas').select((eb) => eb.fn.max('position').as('max')).executeTakeFirst();
        prepared.position = Number(last?.max ?? -1) + 1;
      }
      return { ...prepared, type, resource, built_in: false };
    },
    async beforeRemove(existing, { trx }) {
      if (existing.built_in) throw new HttpError(422, `${existing.name_singular} is a built-in record type: it cannot be deleted.`);
      const count = await trx.selectFrom('custom_records').select(sql<number>`count(*)`.as('n')).where('schema_id', '=', existing.id).where('deleted_at', 'is', null).executeTakeFirst();
      if (Number(count?.n ?? 0) > 0) throw new HttpError(422, `${existing.name_plural} still has ${count!.n} record(s): delete them first.`);
    },
    async afterWrite(record, { trx, action, values }) {
      if (action !== 'create') return;
      const fields = [
        { schema_id: record.id, slug: 'name', name: 'Name', type: 'text', category: 'internal', required: true, options: '{}', position: 0, column: true },
        ...(values?.fields ?? []).map((field: z.infer<typeof initialField>, i: number) => {
          const checked = checkFieldOptions(field.type, field.options) as { options: object };
          return {
            schema_id: record.id,
            slug: field.slug || slugifyField(field.name),
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
      await trx.insertInto('schema_fields').values(fields).execute();
    },
    async present(records, db) {
      const loaded = new Map((await loadSchemas(db, records.map((r) => r.id))).map((schema) => [schema.id, schema]));
      for (const record of records) {
        const schema = loaded.get(record.id);
        record.custom = schema?.custom ?? false;
        record.fields = schema?.fields ?? [];
        record.actions = schema?.actions ?? [];
      }
    },
    async afterCommit(record, { action, user, records }) {
      await schemaStore(records.db).changed();
      if (action === 'create' && user) await grantTypePermissions(records, record.type);
      if (action === 'create') {
        for (const field of record.fields ?? []) if (!field.column) await ensureCustomFieldIndex(records.db, record as SchemaRow, field);
      }
    },
  },
};

/** A new record type `vehicle` gets its permissions `vehicle:create|read|update|delete|restore` on every role that may create schemas. */
async function grantTypePermissions(records: RecordService, type: string) {
  const { rolesResource } = await import('../roles/roles-resource.js');
  const roles = await records.db.selectFrom('roles').select(['id', 'permissions']).where('deleted_at', 'is', null).execute();
  for (const role of roles) {
    const held = role.permissions as string[];
    if (!held.includes('schema:create')) continue;
    const permissions = [...new Set([...held, ...['create', 'read', 'update', 'delete', 'restore'].map((a) => `${type}:${a}`)])];
    await records.update(null, rolesResource, role.id, { permissions }, { system: true });
  }
}

// ---- schema fields ---------------------------------------------------------------------------------------------

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
    category: { kind: 'enum', options: ['internal', 'importer', 'custom'] },
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
        const checked = checkFieldOptions(type, 'options' in prepared ? prepared.options : existing?.options);
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

// ---- logic ---------------------------------------------------------------------------------------------------

const conditionShape = z.object({ source: z.string().max(40), operator: z.enum(LOGIC_OPERATORS), value: z.union([z.string(), z.number(), z.boolean()]).nullable().optional() }).strict();
const actionShape = z.object({ target: z.string().max(40), action: z.enum(LOGIC_ACTIONS), value: z.unknown().optional() }).strict();

/** Field refs must be `field:{id}` of a field of the block's own schema; a block must not be circular. */
async function checkLogic(trx: Transaction<any>, schemaId: number, block: Pick<LogicBlock, 'conditions' | 'actions'>, prefix: { conditions: string; actions: string }) {
  const errors: Record<string, string[]> = {};
  const fields = new Set((await trx.selectFrom('schema_fields').select('id').where('schema_id', '=', schemaId).execute()).map((f) => f.id));
  block.conditions.forEach((condition, i) => {
    const id = parseFieldRef(condition.source);
    if (id === null) errors[`${prefix.conditions}${i}.source`.replace(/^\./, '')] = ['Invalid source type'];
    else if (!fields.has(id)) errors[`${prefix.conditions}${i}.source`.replace(/^\./, '')] = [`field:${id} is not a field of this record type.`];
  });
  block.actions.forEach((action, i) => {
    const id = parseFieldRef(action.target);
    if (id === null) errors[`${prefix.actions}${i}.target`.replace(/^\./, '')] = ['Invalid target type'];
    else if (!fields.has(id)) errors[`${prefix.actions}${i}.target`.replace(/^\./, '')] = [`field:${id} is not a field of this record type.`];
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  if (isCircular(block)) throw new ValidationError({ actions: ['A field cannot be both a condition source and an action target of one block (it would be circular).'] });
}

async function blockChildren(db: Kysely<any>, blockId: number): Promise<{ conditions: any[]; actions: any[] }> {
  const [conditions, actions] = await Promise.all([
    db.selectFrom('logic_conditions').selectAll().where('logic_block_id', '=', blockId).orderBy('id').execute(),
    db.selectFrom('logic_actions').selectAll().where('logic_block_id', '=', blockId).orderBy('id').execute(),
  ]);
  return { conditions, actions };
}

/**
 * Logic blocks (SPEC 4): a trigger, conditions and actions. `conditions` and `actions` may be sent with the block
 * (they replace its current ones) or written one by one through /api/logic-conditions and /api/logic-actions.
 */
export const logicBlocksResource: ResourceDefinition = {
  name: 'logic-blocks',
  type: 'logic-block',
  table: 'logic_blocks',
  singular: 'Logic block',
  fields: {
    schema_id: { kind: 'integer', required: true, min: 1, label: 'schema', references: { table: 'schemas' } },
    description: { kind: 'text', max: 500 },
    trigger: { kind: 'enum', options: LOGIC_TRIGGERS },
    position: { kind: 'integer', min: 0, max: 100_000 },
    conditions: { kind: 'json', storage: 'virtual', shape: z.array(conditionShape).max(50), sortable: false, filterable: false },
    actions: { kind: 'json', storage: 'virtual', shape: z.array(actionShape).max(50), sortable: false, filterable: false },
  },
  search: ['description'],
  defaultSort: { field: 'position', order: 'asc' },
  softDelete: false,
  restorable: false,
  hooks: {
    async beforeWrite(values, { trx, action, existing }) {
      const prepared = { ...values };
      if (action === 'update' && 'schema_id' in prepared && prepared.schema_id !== existing!.schema_id) throw fieldError('schema_id', 'A logic block cannot move to another record type.');
      const schemaId = prepared.schema_id ?? existing!.schema_id;
      if (prepared.trigger === null || (action === 'create' && !prepared.trigger)) prepared.trigger = 'always';
      if ('conditions' in prepared || 'actions' in prepared) {
        const block = {
          conditions: prepared.conditions ?? existing?.conditions ?? [],
          actions: prepared.actions ?? existing?.actions ?? [],
        };
        await checkLogic(trx, schemaId, block, { conditions: 'conditions.', actions: 'actions.' });
      }
      if (action === 'create' && prepared.position === undefined) {
        const last = await trx.selectFrom('logic_blocks').select((eb) => eb.fn.max('position').as('max')).where('schema_id', '=', schemaId).executeTakeFirst();
        prepared.position = Number(last?.max ?? -1) + 1;
      }
      return prepared;
    },
    async afterWrite(record, { trx, action, values }) {
      if (action !== 'create' && action !== 'update') return;
      if (values && 'conditions' in values) {
        await trx.deleteFrom('logic_conditions').where('logic_block_id', '=', record.id).execute();
        const rows = (values.conditions ?? []).map((c: any) => ({ logic_block_id: record.id, source: c.source, operator: c.operator, value: c.value == null ? null : String(c.value) }));
        if (rows.length) await trx.insertInto('logic_conditions').values(rows).execute();
      }
      if (values && 'actions' in values) {
        await trx.deleteFrom('logic_actions').where('logic_block_id', '=', record.id).execute();
        const rows = (values.actions ?? []).map((a: any) => ({ logic_block_id: record.id, target: a.target, action: a.action, value: JSON.stringify(a.value ?? null) }));
        if (rows.length) await trx.insertInto('logic_actions').values(rows).execute();
      }
    },
    async present(records, db) {
      for (const record of records) {
        const { conditions, actions } = await blockChildren(db, record.id);
        Object.assign(record, presentBlock(record, conditions, actions));
      }
    },
    async afterCommit(record, { records }) {
      await schemaChanged(records, record.schema_id);
    },
  },
};

async function blockSchema(trx: Transaction<any>, blockId: number) {
  const block = await trx.selectFrom('logic_blocks').select(['id', 'schema_id']).where('id', '=', blockId).executeTakeFirst();
  if (!block) throw fieldError('logic_block_id', 'The selected logic block does not exist.');
  return block.schema_id as number;
}

async function schemaOfBlock(db: Kysely<any>, blockId: number) {
  return (await db.selectFrom('logic_blocks').select('schema_id').where('id', '=', blockId).executeTakeFirst())?.schema_id as number | undefined;
}

/** One condition of a block: `source` is `field:{id}` ('Invalid source type' otherwise). Permission entity: logic-block. */
export const logicConditionsResource: ResourceDefinition = {
  name: 'logic-conditions',
  type: 'logic-condition',
  permission: 'logic-block',
  table: 'logic_conditions',
  singular: 'Logic condition',
  fields: {
    logic_block_id: { kind: 'integer', required: true, min: 1, label: 'logic block' },
    source: { kind: 'text', required: true, max: 40 },
    operator: { kind: 'enum', required: true, options: LOGIC_OPERATORS },
    value: { kind: 'text', max: 2_000 },
  },
  defaultSort: { field: 'id', order: 'asc' },
  softDelete: false,
  restorable: false,
  hooks: {
    async beforeWrite(values, { trx, existing }) {
      const mine = { source: values.source ?? existing?.source, operator: values.operator ?? existing?.operator, value: null };
      await checkBlockPart(trx, values, existing, 'conditions', mine);
      return values;
    },
    async afterCommit(record, { records }) {
      await schemaChanged(records, await schemaOfBlock(records.db, record.logic_block_id));
    },
  },
};

/**
 * A condition or action is checked with the rest of its block (the block's logic must stay valid): it may not
 * move to another block, and an error about it lands on its own `source` / `target` field.
 */
async function checkBlockPart(trx: Transaction<any>, values: Record<string, any>, existing: Record<string, any> | undefined, part: 'conditions' | 'actions', mine: Record<string, unknown>) {
  const blockId = values.logic_block_id ?? existing!.logic_block_id;
  if (existing && blockId !== existing.logic_block_id) throw fieldError('logic_block_id', `${part === 'conditions' ? 'A condition' : 'An action'} cannot move to another block.`);
  const schemaId = await blockSchema(trx, blockId);
  const children = await blockChildren(trx, blockId);
  const logic = { ...children, [part]: [mine, ...children[part].filter((child: { id?: number }) => child.id !== existing?.id)] };
  const prefixes = part === 'conditions' ? { conditions: '', actions: 'actions.' } : { conditions: 'conditions.', actions: '' };
  const field = part === 'conditions' ? 'source' : 'target';
  await checkLogic(trx, schemaId, logic as any, prefixes).catch((error) => {
    if (error instanceof ValidationError && error.errors[`0.${field}`]) throw fieldError(field, error.errors[`0.${field}`][0]);
    throw error;
  });
}

/** One action of a block: `target` is `field:{id}` ('Invalid target type' otherwise). Permission entity: logic-block. */
export const logicActionsResource: ResourceDefinition = {
  name: 'logic-actions',
  type: 'logic-action',
  permission: 'logic-block',
  table: 'logic_actions',
  singular: 'Logic action',
  fields: {
    logic_block_id: { kind: 'integer', required: true, min: 1, label: 'logic block' },
    target: { kind: 'text', required: true, max: 40 },
    action: { kind: 'enum', required: true, options: LOGIC_ACTIONS },
    value: { kind: 'json', max: 20_000, sortable: false },
  },
  defaultSort: { field: 'id', order: 'asc' },
  softDelete: false,
  restorable: false,
  hooks: {
    async beforeWrite(values, { trx, existing }) {
      const mine = { target: values.target ?? existing?.target, action: values.action ?? existing?.action };
      await checkBlockPart(trx, values, existing, 'actions', mine);
      return values;
    },
    async afterCommit(record, { records }) {
      await schemaChanged(records, await schemaOfBlock(records.db, record.logic_block_id));
    },
  },
};

export const schemaResources = [schemasResource, schemaFieldsResource, logicBlocksResource, logicConditionsResource, logicActionsResource];
