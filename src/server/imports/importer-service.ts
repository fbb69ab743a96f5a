import { z } from 'zod';
import { OPERATOR_LABELS, RULE_OPERATORS } from '../../common/import-rules.js';
import { type ImportRecordType, KEY_TARGETS, suggestTargets, targetsFor } from '../../common/import-targets.js';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { customFields, storedJson } from '../db/dynamic-tables.js';
import { forbidden, ValidationError } from '../http/errors.js';
import { displayName } from '../records/fields.js';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';
import { importableTypes, isCatalogueType } from './importable-types.js';
import type { ImporterConfig } from './mapper.js';
import { definitionFor } from './record-types.js';

/** An importer as a file another installation can import (GET /api/importers/{id}/export writes it). */
export const importerFile = z.object({
  name: z.string().trim().min(1).max(120),
  description: z.string().max(2_000).nullish(),
  record_type: z.string().trim().min(1).max(60),
  key_target: z.string().max(120).nullish(),
  create_related: z.boolean().optional(),
  all_or_nothing: z.boolean().optional(),
  protected_fields: z.array(z.string()).optional(),
  defaults: z.record(z.string(), z.any()).optional(),
  columns: z.array(z.object({ header: z.string(), target: z.string() })).optional(),
  rules: z.array(z.any()).optional(),
});

/**
 * The fields of a type that are import targets of their own (`custom.{slug}`): its custom fields, and for a type
 * made in the app (no catalogue targets) its name too.
 */
export const customTargets = (fields: Record<string, FieldSpec>, type?: string) =>
  Object.entries(fields)
    .filter(
      ([key, spec]) => spec.storage === 'custom' || (type !== undefined && !isCatalogueType(type) && key === 'name'),
    )
    .map(([key, spec]) => ({ key, label: displayName(key, spec) }));

/**
 * Importers beyond their generic resource: the configuration an import runs with, the target catalogue, exporting
 * one as a file and creating one from such a file, reordering, and columns suggested from a file's header. Every
 * write goes through the data service as the person.
 */
export class ImporterService {
  constructor(private readonly ctx: AppContext) {}

  private get def(): ResourceDefinition {
    return this.ctx.resources.get('importers')!;
  }

  /** An importer with its columns and rules, as the job and the preview use it (a snapshot is kept with each import). */
  async config(id: number): Promise<ImporterConfig | null> {
    const { db } = this.ctx;
    const row = await db
      .selectFrom('importers')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    const [columns, rules] = await Promise.all([
      db
        .selectFrom('importer_columns')
        .select(['header', 'target'])
        .where('importer_id', '=', id)
        .orderBy('position')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('importer_rules')
        .select(['source', 'operator', 'value', 'action', 'action_value'])
        .where('importer_id', '=', id)
        .orderBy('position')
        .orderBy('id')
        .execute(),
    ]);
    return {
      id: row.id,
      name: row.name,
      record_type: row.record_type as ImporterConfig['record_type'],
      key_target: row.key_target,
      create_related: row.create_related,
      all_or_nothing: row.all_or_nothing,
      protected_fields: storedJson<string[] | null>(row.protected_fields) ?? [],
      defaults: customFields(row.defaults),
      columns: columns as ImporterConfig['columns'],
      rules: rules as ImporterConfig['rules'],
    };
  }

  /** What each record type can be imported into: targets, keys, fields; the rule operators and actions. */
  async targets(user: AuthUser, recordType?: string) {
    if (!can(user, 'importer:read') && !can(user, 'import:create'))
      throw forbidden('You do not have permission to read importers.');
    const importable = await importableTypes(this.ctx.db);
    const types = recordType ? [recordType] : importable;
    const data: Record<string, unknown> = {};
    for (const type of types) {
      if (!importable.includes(type))
        throw new ValidationError({ record_type: [`The record type must be one of: ${importable.join(', ')}.`] });
      const fields = await this.ctx.records.fields(definitionFor(this.ctx.resources, type));
      data[type] = {
        name: await this.ctx.records.nameOf(definitionFor(this.ctx.resources, type)),
        targets: targetsFor(type as ImportRecordType, customTargets(fields, type)).map(
          ({ synonyms, ...target }) => target,
        ),
        keys: KEY_TARGETS[type as ImportRecordType] ?? ['custom.name'],
        fields: Object.keys(fields).filter((f) => !['id'].includes(f)),
      };
    }
    return {
      data,
      operators: RULE_OPERATORS.map((op) => ({ id: op, name: OPERATOR_LABELS[op] })),
      actions: [{ id: 'trade-set', name: 'Set trade' }],
    };
  }

  /** An importer as a file, and the name to save it under. */
  async exportFile(user: AuthUser | null, id: number) {
    const record = await this.ctx.records.show(user, this.def, id);
    const file = {
      format: 'organizing-map-importer',
      version: 1,
      name: record.name,
      description: record.description,
      record_type: record.record_type,
      key_target: record.key_target,
      create_related: record.create_related,
      all_or_nothing: record.all_or_nothing,
      protected_fields: record.protected_fields,
      defaults: record.defaults,
      columns: record.columns,
      rules: record.rules,
    };
    return {
      file,
      fileName: `${String(record.slug ?? record.name)
        .replace(/[^\w.-]+/g, '-')
        .toLowerCase()}.importer.json`,
    };
  }

  /** Creates an importer from an exported file's contents. */
  async createFromFile(user: AuthUser | null, parsed: z.infer<typeof importerFile>, socketId?: string) {
    const { record } = await this.ctx.records.create(
      user,
      this.def,
      {
        name: parsed.name,
        description: parsed.description ?? null,
        record_type: parsed.record_type,
        key_target: parsed.key_target ?? null,
        create_related: parsed.create_related ?? true,
        all_or_nothing: parsed.all_or_nothing ?? false,
        protected_fields: parsed.protected_fields ?? [],
        defaults: parsed.defaults ?? {},
        columns: parsed.columns ?? [],
        rules: parsed.rules ?? [],
      },
      { socketId },
    );
    return record;
  }

  /**
   * Refuses a person who may not edit importers. Asked before the request is read: a move that changes no position
   * or a header that adds no column would otherwise answer without any write being checked.
   */
  assertMayEdit(user: AuthUser | null) {
    this.ctx.records.authorize(user, this.def, 'update');
  }

  /** Moves an importer to `position` (0-based) in the list; the others shift. Returns the whole list. */
  async reorder(user: AuthUser, id: number, position: number, socketId?: string) {
    this.assertMayEdit(user);
    await this.ctx.records.show(user, this.def, id);
    const ordered = await this.ctx.db
      .selectFrom('importers')
      .select(['id', 'position'])
      .where('deleted_at', 'is', null)
      .orderBy('position')
      .orderBy('id')
      .execute();
    const ids = ordered.map((r) => r.id).filter((other) => other !== id);
    ids.splice(Math.min(position, ids.length), 0, id);
    for (let i = 0; i < ids.length; i++) {
      const current = ordered.find((r) => r.id === ids[i]);
      if (current && current.position !== i)
        await this.ctx.records.update(user, this.def, ids[i], { position: i }, { socketId });
    }
    return (await this.ctx.records.list(user, this.def, { per_page: -1 })).data;
  }

  /** Each header not yet mapped becomes a column with its suggested target (a target already used stays free). */
  async addColumnsFromHeaders(user: AuthUser, importerId: number, headers: string[], socketId?: string) {
    this.assertMayEdit(user);
    const importer = await this.config(importerId);
    if (!importer) throw new ValidationError({ importer_id: ['The selected importer does not exist.'] });
    await this.ctx.records.show(user, this.def, importer.id);
    const fields = await this.ctx.records.fields(definitionFor(this.ctx.resources, importer.record_type));
    const known = new Set(importer.columns.map((c) => c.header.toLowerCase()));
    const taken = new Set(importer.columns.map((c) => c.target).filter(Boolean));
    const suggestions = suggestTargets(headers, importer.record_type, customTargets(fields, importer.record_type));
    const added = headers
      .map((header, i) => ({ header, target: taken.has(suggestions[i]) ? '' : suggestions[i] }))
      .filter((c) => !known.has(c.header.toLowerCase()));
    if (added.length)
      await this.ctx.records.update(
        user,
        this.def,
        importer.id,
        { columns: [...importer.columns, ...added] },
        { socketId },
      );
    const updated = await this.ctx.records.show(user, this.def, importer.id);
    return { columns: updated.columns, added: added.length };
  }
}
