import { z } from 'zod';
import { checkRule, RULE_ACTIONS, RULE_OPERATORS } from '../../common/import-rules.js';
import { type ImportRecordType, isKnownTarget, KEY_TARGETS } from '../../common/import-targets.js';
import { fieldError, ValidationError } from '../http/errors.js';
import type { ResourceDefinition, WriteContext } from '../records/resource.js';
import { fieldsOfType } from '../schemas/type-fields.js';
import { presentImport } from './import-service.js';
import { importableTypes } from './importable-types.js';
import { importerProblems } from './importer-problems.js';

const columnShape = z
  .array(
    z.object({
      header: z.string().trim().min(1, 'Each column needs the header it reads.').max(200),
      target: z.string().trim().max(120).default(''),
    }),
  )
  .max(500);

const ruleShape = z
  .array(
    z.object({
      source: z.string().trim().min(1).max(200),
      operator: z.enum(RULE_OPERATORS),
      value: z.string().max(2_000).default(''),
      action: z.enum(RULE_ACTIONS).default('trade-set'),
      action_value: z.string().trim().min(1).max(500),
    }),
  )
  .max(200);

const stringList = z.array(z.string().trim().min(1).max(100)).max(100);
const defaultsShape = z.record(z.string().max(100), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]));

/**
 * Importers (SPEC section 7): a record type, the mapping of CSV columns to targets (`columns`), rules (`rules`),
 * the key matching rows to existing records, whether related records are created, all-or-nothing, protected
 * fields and defaults. `columns` and `rules` are kept in their own tables (importer-columns, importer-rules) and
 * may also be written here as whole lists, which replace the old ones.
 */
export const importersResource: ResourceDefinition = {
  name: 'importers',
  type: 'importer',
  table: 'importers',
  singular: 'Importer',
  fields: {
    name: { kind: 'text', required: true, max: 120 },
    slug: { kind: 'text', max: 120 },
    description: { kind: 'text', max: 2_000 },
    record_type: { kind: 'text', required: true, max: 60, label: 'record type' },
    key_target: { kind: 'text', max: 120, label: 'key' },
    create_related: { kind: 'boolean', label: 'create related records' },
    all_or_nothing: { kind: 'boolean', label: 'all or nothing' },
    protected_fields: {
      kind: 'json',
      shape: stringList,
      label: 'protected fields',
      sortable: false,
      filterable: false,
    },
    defaults: { kind: 'json', shape: defaultsShape, sortable: false, filterable: false },
    position: { kind: 'integer', min: 0, max: 100_000 },
    columns: { kind: 'json', shape: columnShape, storage: 'virtual', sortable: false, filterable: false },
    rules: { kind: 'json', shape: ruleShape, storage: 'virtual', sortable: false, filterable: false },
  },
  readOnly: ['mapping_hash', 'custom', 'columns_count', 'rules_count', 'problems'],
  hidden: ['mapping_hash', 'custom'],
  search: ['name', 'description'],
  defaultSort: { field: 'position', order: 'asc' },
  softDelete: true,
  restorable: true,
  hooks: {
    async beforeWrite(values, { trx, action, existing }) {
      const prepared = { ...values };
      const type = (prepared.record_type ?? existing?.record_type) as ImportRecordType;
      if (action === 'update' && prepared.record_type && existing && prepared.record_type !== existing.record_type) {
        throw fieldError('record_type', 'The record type of an importer cannot change; make a new importer instead.');
      }
      if (action === 'create') {
        const types = await importableTypes(trx);
        if (!types.includes(type))
          throw fieldError('record_type', `The record type must be one of: ${types.join(', ')}.`);
      }
      const keys = KEY_TARGETS[type] ?? [];
      if (
        prepared.key_target &&
        !keys.includes(prepared.key_target) &&
        !String(prepared.key_target).startsWith('custom.')
      ) {
        throw fieldError('key_target', `The key must be one of: ${[...keys, 'a field (custom.{slug})'].join(', ')}.`);
      }
      if (prepared.columns) {
        const errors: Record<string, string[]> = {};
        (prepared.columns as Array<{ header: string; target: string }>).forEach((column, i) => {
          if (!isKnownTarget(column.target, type))
            errors[`columns.${i}.target`] = [`"${column.target}" is not a target of ${type} imports.`];
        });
        if (Object.keys(errors).length) throw new ValidationError(errors);
      }
      if (prepared.rules) {
        const errors: Record<string, string[]> = {};
        (prepared.rules as any[]).forEach((rule, i) => {
          for (const [key, message] of Object.entries(checkRule(rule))) errors[`rules.${i}.${key}`] = [message];
        });
        if (Object.keys(errors).length) throw new ValidationError(errors);
      }
      if (action === 'create' && prepared.position === undefined) {
        const last = await trx
          .selectFrom('importers')
          .select((eb) => eb.fn.max('position').as('max'))
          .executeTakeFirst();
        prepared.position = Number(last?.max ?? -1) + 1;
      }
      return prepared;
    },
    async afterWrite(record, ctx) {
      if (ctx.action !== 'create' && ctx.action !== 'update') return;
      const values = ctx.values ?? {};
      if (Array.isArray(values.columns)) {
        await ctx.trx.deleteFrom('importer_columns').where('importer_id', '=', record.id).execute();
        const rows = (values.columns as Array<{ header: string; target: string }>).map((c, position) => ({
          importer_id: record.id,
          header: c.header,
          target: c.target ?? '',
          position,
        }));
        if (rows.length) await ctx.trx.insertInto('importer_columns').values(rows).execute();
      }
      if (Array.isArray(values.rules)) {
        await ctx.trx.deleteFrom('importer_rules').where('importer_id', '=', record.id).execute();
        const rows = (values.rules as any[]).map((r, position) => ({
          importer_id: record.id,
          source: r.source,
          operator: r.operator,
          value: r.value ?? '',
          action: r.action ?? 'trade-set',
          action_value: r.action_value,
          position,
        }));
        if (rows.length) await ctx.trx.insertInto('importer_rules').values(rows).execute();
      }
    },
    async present(records, db) {
      const ids = records.map((r) => r.id);
      if (!ids.length) return;
      const [columns, rules] = await Promise.all([
        db
          .selectFrom('importer_columns')
          .select(['id', 'importer_id', 'header', 'target', 'position'])
          .where('importer_id', 'in', ids)
          .orderBy('position')
          .orderBy('id')
          .execute(),
        db
          .selectFrom('importer_rules')
          .select(['id', 'importer_id', 'source', 'operator', 'value', 'action', 'action_value', 'position'])
          .where('importer_id', 'in', ids)
          .orderBy('position')
          .orderBy('id')
          .execute(),
      ]);
      for (const record of records) {
        record.columns = columns
          .filter((c) => c.importer_id === record.id)
          .map(({ header, target }) => ({ header, target }));
        record.rules = rules
          .filter((r) => r.importer_id === record.id)
          .map(({ source, operator, value, action, action_value }) => ({
            source,
            operator,
            value,
            action,
            action_value,
          }));
        // What needs attention before the next import (a field deleted since): shown with the importer, refused at upload.
        const fields = await fieldsOfType(db, record.record_type);
        record.problems = fields
          ? importerProblems(record as Parameters<typeof importerProblems>[0], fields)
          : [`The record type “${record.record_type}” no longer exists.`];
      }
    },
  },
};

async function checkImporter(trx: WriteContext['trx'], importerId: unknown) {
  const importer = await trx
    .selectFrom('importers')
    .select(['id', 'record_type'])
    .where('id', '=', Number(importerId))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!importer) throw fieldError('importer_id', 'The selected importer does not exist.');
  return importer;
}

/** One column of an importer: the CSV header it reads and the target it fills. */
export const importerColumnsResource: ResourceDefinition = {
  name: 'importer-columns',
  type: 'importer-column',
  permission: 'importer',
  table: 'importer_columns',
  singular: 'Importer column',
  fields: {
    importer_id: { kind: 'integer', required: true, min: 1, label: 'importer' },
    header: { kind: 'text', required: true, max: 200 },
    target: { kind: 'text', max: 120 },
    position: { kind: 'integer', min: 0, max: 100_000 },
  },
  defaultSort: { field: 'position', order: 'asc' },
  softDelete: false,
  restorable: false,
  hooks: {
    async beforeWrite(values, { trx, existing }) {
      const importer = await checkImporter(trx, values.importer_id ?? existing?.importer_id);
      const target = values.target ?? existing?.target ?? '';
      if (!isKnownTarget(target, importer.record_type as ImportRecordType))
        throw fieldError('target', `"${target}" is not a target of ${importer.record_type} imports.`);
      return values;
    },
  },
};

/** One rule of an importer: when `source` `operator` `value`, do `action` with `action_value` (trade-set). */
export const importerRulesResource: ResourceDefinition = {
  name: 'importer-rules',
  type: 'importer-rule',
  permission: 'importer',
  table: 'importer_rules',
  singular: 'Importer rule',
  fields: {
    importer_id: { kind: 'integer', required: true, min: 1, label: 'importer' },
    source: { kind: 'text', required: true, max: 200, label: 'column' },
    operator: { kind: 'enum', required: true, options: RULE_OPERATORS },
    value: { kind: 'text', max: 2_000 },
    action: { kind: 'enum', options: RULE_ACTIONS },
    action_value: { kind: 'text', required: true, max: 500, label: 'trade' },
    position: { kind: 'integer', min: 0, max: 100_000 },
  },
  defaultSort: { field: 'position', order: 'asc' },
  softDelete: false,
  restorable: false,
  hooks: {
    async beforeWrite(values, { trx, existing }) {
      await checkImporter(trx, values.importer_id ?? existing?.importer_id);
      const merged = { ...existing, ...values };
      const problems = checkRule({ ...merged, action: merged.action ?? 'trade-set' });
      if (Object.keys(problems).length)
        throw new ValidationError(Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, [v]])));
      return values;
    },
  },
};

/**
 * Imports: created by uploading files (POST /api/imports, multipart `files[]`, served by imports/import-routes.ts);
 * listed, shown, renamed (`name`) and deleted here. Counts and status are written by the import job only.
 */
export const importsResource: ResourceDefinition = {
  name: 'imports',
  type: 'import',
  table: 'imports',
  singular: 'Import',
  fields: {
    name: { kind: 'text', required: true, max: 200 },
    status: { kind: 'enum', options: ['pending', 'processing', 'complete', 'failed'], sortable: true },
    record_type: { kind: 'text', max: 40, label: 'record type' },
    importer_id: { kind: 'integer', min: 1, label: 'importer' },
    user_id: { kind: 'integer', min: 1, label: 'user' },
  },
  readOnly: [
    'status',
    'record_type',
    'importer_id',
    'user_id',
    'files',
    'importer_name',
    'progress',
    'total_rows',
    'processed_rows',
    'created_count',
    'updated_count',
    'skipped_count',
    'failed_count',
    'message',
    'undo_status',
    'undone_at',
    'undo_user_id',
    'started_at',
    'finished_at',
    'user_name',
  ],
  hidden: ['checkpoint', 'custom', 'importer'],
  search: ['name'],
  defaultSort: { field: 'created_at', order: 'desc' },
  softDelete: true,
  restorable: false,
  ownRoutes: ['create'],
  hooks: {
    async beforeWrite(values, { action, existing }) {
      if (action === 'create') throw fieldError('files', 'Upload the CSV files as multipart form data (files[]).');
      // Only the name may change; status and counts belong to the job.
      const prepared: Record<string, any> = {};
      if ('name' in values) prepared.name = values.name;
      if (
        existing &&
        Object.keys(values).some((k) => k !== 'name' && values[k] !== undefined && values[k] !== existing[k])
      ) {
        throw fieldError('status', 'Only the name of an import can be changed.');
      }
      return prepared;
    },
    async afterWrite(record, { action }) {
      if (action === 'delete' && record.status === 'processing')
        throw fieldError('status', 'This import is still running; wait for it to finish before deleting it.');
    },
    async present(records, db) {
      const userIds = [...new Set(records.map((r) => r.user_id).filter(Boolean))];
      const users = userIds.length
        ? await db.selectFrom('users').select(['id', 'first_name', 'last_name']).where('id', 'in', userIds).execute()
        : [];
      const names = new Map(users.map((u) => [u.id, `${u.first_name} ${u.last_name}`.trim()]));
      const importers = await db
        .selectFrom('imports')
        .select(['id', 'importer'])
        .where('id', 'in', records.map((r) => r.id).concat(-1))
        .execute();
      const snapshot = new Map(importers.map((i) => [i.id, i.importer]));
      for (const record of records) {
        Object.assign(record, presentImport({ ...record, importer: snapshot.get(record.id) }));
        record.user_name = names.get(record.user_id) ?? null;
      }
    },
  },
};

export const importResourceDefinitions = [
  importersResource,
  importerColumnsResource,
  importerRulesResource,
  importsResource,
];
