import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  FIELD_CATEGORIES,
  LOGIC_ACTIONS,
  LOGIC_MATCHES,
  LOGIC_OPERATORS,
  LOGIC_TRIGGERS,
  type RelationTarget,
  type RelationTargetInfo,
  relationTargets,
  SCHEMA_FIELD_TYPES,
} from '../../common/schema-types.js';
import { PROJECT_ROOT } from '../config/paths.js';
import { checkFieldOptions } from './field-specs.js';

/** The folder of the default record types (one JSON file per type), loaded into the database (schema-loader.ts). */
export const SCHEMAS_DIR = path.join(PROJECT_ROOT, 'schemas');
/**
 * Resources described by a schema file that are not record types (tags, features): never stored, not in
 * GET /api/schemas, not editable. The server derives their fields from these files and the client builds their
 * screens from them (records/schema.ts).
 */
export const FIXED_SCHEMAS_DIR = path.join(SCHEMAS_DIR, 'fixed');

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
    clear_hidden: z.boolean().default(false),
    conditions: z
      .array(
        z
          .object({ source: z.string(), operator: z.enum(LOGIC_OPERATORS), value: z.string().nullable().default(null) })
          .strict(),
      )
      .default([]),
    actions: z
      .array(z.object({ target: z.string(), action: z.enum(LOGIC_ACTIONS), value: z.unknown().optional() }).strict())
      .default([]),
  })
  .strict();

export const schemaFile = z
  .object({
    $comment: z.string().optional(),
    type: z.string().regex(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/),
    name_singular: z.string().min(1).max(100),
    name_plural: z.string().min(1).max(100),
    /** The API path of its records; the plural of the type unless given. */
    resource: z.string().optional(),
    /** Deleted records can be restored (POST /api/{resource}/{id}/restore). */
    restorable: z.boolean().default(true),
    position: z.number().int().min(0).default(0),
    fields: z.array(fieldFile).min(1),
    actions: z.array(blockFile).default([]),
  })
  .strict();
export type SchemaFile = z.infer<typeof schemaFile>;
export type SchemaFileField = SchemaFile['fields'][number];

/** Whether a field of a file is a built-in column of the type's table (internal fields are, unless `column: false`). */
export const isColumn = (field: Pick<SchemaFileField, 'column' | 'category'>) =>
  field.column ?? field.category === 'internal';

/** Reads every file of a folder; a bad file stops start-up with its name and the problem. */
function parseSchemaFiles(dir: string): SchemaFile[] {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  return files.map((name) => {
    const parsed = schemaFile.safeParse(JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
    const where = `${path.relative(PROJECT_ROOT, dir)}/${name}`;
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
      throw new Error(`${where} is not a valid record type: ${problems}`);
    }
    const schema = parsed.data;
    if (`${schema.type}.json` !== name)
      throw new Error(`${where} describes "${schema.type}": name the file ${schema.type}.json.`);
    return schema;
  });
}

/** Checks each file's fields (options, against the relation targets) and logic; normalises their options. */
function checkSchemaFiles(files: SchemaFile[], targets: Record<RelationTarget, RelationTargetInfo>) {
  for (const schema of files) {
    const name = `schemas/${schema.type}.json`;
    const slugs = new Set<string>();
    for (const field of schema.fields) {
      if (slugs.has(field.slug)) throw new Error(`${name}: the field "${field.slug}" is listed twice.`);
      slugs.add(field.slug);
      const checked = checkFieldOptions(field.type, field.options, targets, {
        self: field.slug,
        fields: schema.fields.map((other) => ({ ...other, column: Boolean(other.column) })),
      });
      if ('error' in checked) throw new Error(`${name}: field "${field.slug}": ${checked.error}`);
      field.options = checked.options;
    }
    for (const block of schema.actions) {
      for (const ref of [...block.conditions.map((c) => c.source), ...block.actions.map((a) => a.target)]) {
        const slug = /^field:([a-z][a-z0-9_]*)$/.exec(ref)?.[1];
        if (!slug || !slugs.has(slug))
          throw new Error(`${name}: logic refers to "${ref}", which is not field:{slug} of this type.`);
      }
    }
  }
  return files;
}

/** Reads and checks the record types of a folder (schemas/ unless told). */
export function readSchemaFiles(dir = SCHEMAS_DIR): SchemaFile[] {
  const files = parseSchemaFiles(dir);
  return checkSchemaFiles(files, relationTargets(files));
}

interface Shipped {
  /** The record types of schemas/, by type. */
  recordTypes: Map<string, SchemaFile>;
  /** The resources of schemas/fixed/, by type. */
  fixed: Map<string, SchemaFile>;
  /** The relation targets the shipped record types offer. */
  targets: Record<RelationTarget, RelationTargetInfo>;
}
let shipped: Shipped | null = null;

/** The files shipped with the product, read once (the resource definitions are derived from them when loaded). */
export function shippedSchemas(): Shipped {
  if (!shipped) {
    const recordTypes = parseSchemaFiles(SCHEMAS_DIR);
    const targets = relationTargets(recordTypes);
    checkSchemaFiles(recordTypes, targets);
    const fixed = checkSchemaFiles(parseSchemaFiles(FIXED_SCHEMAS_DIR), targets);
    shipped = {
      recordTypes: new Map(recordTypes.map((file) => [file.type, file])),
      fixed: new Map(fixed.map((file) => [file.type, file])),
      targets,
    };
  }
  return shipped;
}

/** The file describing `type`: a record type of schemas/ or a resource of schemas/fixed/. */
export function shippedSchema(type: string): SchemaFile {
  const { recordTypes, fixed } = shippedSchemas();
  const file = recordTypes.get(type) ?? fixed.get(type);
  if (!file) throw new Error(`No schema file describes "${type}": add schemas/${type}.json.`);
  return file;
}

/**
 * The relation targets a field may point at: those the shipped record types offer. Record types made in the app
 * are not targets.
 */
export function knownRelationTargets(): Record<RelationTarget, RelationTargetInfo> {
  return shippedSchemas().targets;
}
