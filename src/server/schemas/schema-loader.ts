import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { FIELD_CATEGORIES, LOGIC_ACTIONS, LOGIC_MATCHES, LOGIC_OPERATORS, LOGIC_TRIGGERS, pluralizeSlug, SCHEMA_FIELD_TYPES } from '../../common/schema-types.js';
import { PROJECT_ROOT } from '../config/paths.js';
import { checkFieldOptions } from './field-specs.js';

/** The folder of the default record types (one JSON file per type). */
export const SCHEMAS_DIR = path.join(PROJECT_ROOT, 'schemas');

const fieldFile = z
  .object({
    slug: z.string().regex(/^[a-z][a-z0-9_]*$/),
    name: z.string().min(1).max(100),
    type: z.enum(SCHEMA_FIELD_TYPES),
    category: z.enum(FIELD_CATEGORIES).default('internal'),
    column: z.boolean().optional(),
    required: z.boolean().default(false),
    options: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

/** In the files, logic refers to fields by slug (`field:status`); in the database by id (`field:12`). */
const blockFile = z
  .object({
    description: z.string().max(500).optional(),
    trigger: z.enum(LOGIC_TRIGGERS).default('always'),
    match: z.enum(LOGIC_MATCHES).default('all'),
    conditions: z.array(z.object({ source: z.string(), operator: z.enum(LOGIC_OPERATORS), value: z.string().nullable().default(null) }).strict()).default([]),
    actions: z.array(z.object({ target: z.string(), action: z.enum(LOGIC_ACTIONS), value: z.unknown().optional() }).strict()).default([]),
  })
  .strict();

export const schemaFile = z
  .object({
    $comment: z.string().optional(),
    type: z.string().regex(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/),
    name_singular: z.string().min(1).max(100),
    name_plural: z.string().min(1).max(100),
    resource: z.string().optional(),
    position: z.number().int().min(0).default(0),
    fields: z.array(fieldFile).min(1),
    actions: z.array(blockFile).default([]),
  })
  .strict();
export type SchemaFile = z.infer<typeof schemaFile>;

/** Reads and checks every file in schemas/; a bad file stops start-up with its name and the problem. */
export function readSchemaFiles(dir = SCHEMAS_DIR): SchemaFile[] {
  const files = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  return files.map((name) => {
    const parsed = schemaFile.safeParse(JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
      throw new Error(`schemas/${name} is not a valid record type: ${problems}`);
    }
    const schema = parsed.data;
    if (`${schema.type}.json` !== name) throw new Error(`schemas/${name} describes "${schema.type}": name the file ${schema.type}.json.`);
    const slugs = new Set<string>();
    for (const field of schema.fields) {
      if (slugs.has(field.slug)) throw new Error(`schemas/${name}: the field "${field.slug}" is listed twice.`);
      slugs.add(field.slug);
      const checked = checkFieldOptions(field.type, field.options);
      if ('error' in checked) throw new Error(`schemas/${name}: field "${field.slug}": ${checked.error}`);
      field.options = checked.options;
    }
    for (const block of schema.actions) {
      for (const ref of [...block.conditions.map((c) => c.source), ...block.actions.map((a) => a.target)]) {
        const slug = /^field:([a-z][a-z0-9_]*)$/.exec(ref)?.[1];
        if (!slug || !slugs.has(slug)) throw new Error(`schemas/${name}: logic refers to "${ref}", which is not field:{slug} of this type.`);
      }
    }
    return schema;
  });
}

/**
 * Loads the default record types into the database; idempotent, run on every start. A type not there yet is
 * created with its fields and logic. A type already there (administrators may have renamed it, reordered or
 * added fields, changed its logic) only gains the built-in (column) fields a newer version ships.
 */
export async function loadSchemaFiles(db: Kysely<any>, dir = SCHEMAS_DIR): Promise<{ created: string[]; fieldsAdded: number }> {
  const files = readSchemaFiles(dir);
  const created: string[] = [];
  let fieldsAdded = 0;
  await db.transaction().execute(async (trx) => {
    for (const file of files) {
      const existing = await trx.selectFrom('schemas').select('id').where('type', '=', file.type).executeTakeFirst();
      const fieldRow = (schemaId: number, field: SchemaFile['fields'][number], position: number) => ({
        schema_id: schemaId,
        slug: field.slug,
        name: field.name,
        type: field.type,
        category: field.category,
        required: field.required,
        options: JSON.stringify(field.options),
        position,
        column: field.column ?? field.category === 'internal',
      });
      if (existing) {
        const have = new Set((await trx.selectFrom('schema_fields').select('slug').where('schema_id', '=', existing.id).execute()).map((f) => f.slug));
        const missing = file.fields.map((field, position) => ({ field, position })).filter(({ field }) => !have.has(field.slug) && (field.column ?? field.category === 'internal'));
        if (missing.length) {
          await trx.insertInto('schema_fields').values(missing.map(({ field, position }) => fieldRow(existing.id, field, position))).execute();
          fieldsAdded += missing.length;
        }
        continue;
      }
      const schema = await trx
        .insertInto('schemas')
        .values({ type: file.type, name_singular: file.name_singular, name_plural: file.name_plural, resource: file.resource ?? pluralizeSlug(file.type), position: file.position, built_in: true })
        .returning('id')
        .executeTakeFirstOrThrow();
      const fields = await trx.insertInto('schema_fields').values(file.fields.map((field, position) => fieldRow(schema.id, field, position))).returning(['id', 'slug']).execute();
      const idOf = new Map(fields.map((f) => [f.slug, f.id]));
      const ref = (value: string) => `field:${idOf.get(value.slice('field:'.length))}`;
      for (const [position, block] of file.actions.entries()) {
        const row = await trx.insertInto('logic_blocks').values({ schema_id: schema.id, description: block.description ?? null, trigger: block.trigger, match: block.match, position }).returning('id').executeTakeFirstOrThrow();
        if (block.conditions.length) {
          await trx.insertInto('logic_conditions').values(block.conditions.map((c) => ({ logic_block_id: row.id, source: ref(c.source), operator: c.operator, value: c.value }))).execute();
        }
        if (block.actions.length) {
          await trx.insertInto('logic_actions').values(block.actions.map((a) => ({ logic_block_id: row.id, target: ref(a.target), action: a.action, value: JSON.stringify(a.value ?? null) }))).execute();
        }
      }
      created.push(file.type);
    }
  });
  return { created, fieldsAdded };
}
