import type { Kysely } from 'kysely';
import { can, LOG_FOR_OTHERS_PERMISSION } from '../../common/permissions.js';
import type { DB } from '../db/schema.generated.js';
import { fieldError } from '../http/errors.js';
import { liveSlugs } from '../records/choice-keys.js';
import { humanise } from '../records/fields.js';
import type { FieldSpec, ResourceDefinition, WriteContext } from '../records/resource.js';
import { type SchemaSnapshot, schemaStore } from './schema-store.js';

/** A built-in relation column: the id of a row of `table`, checked to exist. */
export const ref = (table: string, label?: string, softDelete = true): FieldSpec => ({
  kind: 'integer',
  min: 1,
  label,
  references: { table, softDelete },
});

/** A list of ids kept in a pivot table (its kind and the records it names come from the schema file). */
export const pivot = (table: string, ownKey: string, otherKey: string): Partial<FieldSpec> => ({
  storage: { pivot: table, ownKey, otherKey },
});

/** Tags of a record of `type`: the polymorphic `taggables` pivot. */
export const taggables = (type: string): Partial<FieldSpec> => ({
  storage: { pivot: 'taggables', ownKey: 'taggable_id', otherKey: 'tag_id', where: { taggable_type: type } },
});

/** Who works a record of a type made in the app: the organizer (defaults to whoever creates it) and the team. */
export const ownership = (): Record<string, FieldSpec> => ({
  user_id: ref('users', 'organizer'),
  team_id: ref('teams', 'team'),
});

/** The files attached to records (documents whose owner is the record), for the record's `attachments`. */
export async function presentAttachments(type: string, records: Record<string, any>[], db: Kysely<DB>) {
  const ids = records.map((r) => r.id);
  const documents = ids.length
    ? await db
        .selectFrom('documents')
        .select(['id', 'documentable_id', 'file_name', 'mime_type', 'size', 'created_at', 'user_id'])
        .where('documentable_type', '=', type)
        .where('documentable_id', 'in', ids)
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .execute()
    : [];
  const byOwner = new Map<number, any[]>();
  for (const document of documents) {
    const { documentable_id, ...rest } = document;
    byOwner.set(documentable_id, [
      ...(byOwner.get(documentable_id) ?? []),
      { ...rest, url: `/api/documents/${document.id}/download` },
    ]);
  }
  for (const record of records) record.attachments = byOwner.get(record.id) ?? [];
}

export interface SchemaBackedOptions {
  /** Set `user_id` to whoever creates the record when they did not choose one. */
  ownedByCreator?: boolean;
  /**
   * A field naming who did the work the record tells of (a visit's "Logged by"): the signed-in person, unless they
   * hold `user:log-for-others` (common/permissions.ts); see `assertLoggedBy`.
   */
  loggedBy?: string;
  /** Add `attachments` (the record's documents) to each record. */
  attachments?: boolean;
}

/**
 * A resource whose record type is a schema: its custom fields come from the schema (cached), its records carry
 * their attachments, its creator becomes its organizer unless another was chosen, and a value of a field whose
 * choices are a list (`slugOf`: site types, contact statuses...) must be the slug of a live row of that list.
 */
export function schemaBacked(def: ResourceDefinition, options: SchemaBackedOptions = {}): ResourceDefinition {
  const { ownedByCreator = 'user_id' in def.fields, attachments = false, loggedBy } = options;
  const hooks = def.hooks ?? {};
  // Worked out once per snapshot of the schemas: every read and write of the type asks for them (the access policy's
  // compile, the holders kept on each write).
  let known: { snapshot: SchemaSnapshot; fields: Record<string, FieldSpec> } | null = null;
  return {
    ...def,
    readOnly: [...new Set([...(def.readOnly ?? []), ...(attachments ? ['attachments'] : [])])],
    customFields: async (db) => {
      const snapshot = await schemaStore(db).snapshot();
      if (known?.snapshot !== snapshot)
        known = {
          snapshot,
          fields: { ...snapshot.customSpecs(def.type), ...withColumnRules(def.fields, snapshot.columnRules(def.type)) },
        };
      return known.fields;
    },
    hooks: {
      ...hooks,
      async beforeWrite(values, ctx) {
        for (const [key, spec] of Object.entries(def.fields)) {
          if (!spec.slugOf || !(key in values)) continue;
          const allowed = await checkSlug(ctx.trx, spec.slugOf, values[key]);
          if (allowed)
            throw fieldError(key, `The ${spec.label ?? humanise(key)} must be one of: ${allowed.join(', ')}.`);
        }
        let prepared = values;
        if (loggedBy) prepared = loggedByOf(loggedBy, prepared, ctx);
        if (ownedByCreator && ctx.action === 'create' && prepared.user_id === undefined && ctx.user)
          prepared = { ...prepared, user_id: ctx.user.id };
        return (await hooks.beforeWrite?.(prepared, ctx)) ?? prepared;
      },
      async present(records, db) {
        if (attachments) await presentAttachments(def.type, records, db);
        await hooks.present?.(records, db);
      },
    },
  };
}

/**
 * The `field` naming who did the work (logged the visit, collected the card): on create, left empty it is the
 * signed-in person; naming anyone else, or changing it on update (other than filling an empty one with oneself),
 * takes `user:log-for-others`, else a 422 on the field. Writes the server makes itself (no user) are not checked.
 */
function loggedByOf(
  field: string,
  values: Record<string, any>,
  ctx: WriteContext & { action: 'create' | 'update' },
): Record<string, any> {
  const { user, existing } = ctx;
  if (!user || !(field in values || ctx.action === 'create')) return values;
  const sent = values[field] ?? null;
  if (ctx.action === 'create' && sent === null) return { ...values, [field]: user.id };
  const before = existing?.[field] ?? null;
  const allowed = ctx.action === 'create' ? sent === user.id : sent === before || (before === null && sent === user.id);
  if (!allowed && !can(user, LOG_FOR_OTHERS_PERMISSION))
    throw fieldError(
      field,
      'You can name only yourself here. Naming someone else takes the permission to log work for others.',
    );
  return values;
}

/**
 * The built-in fields with the validation an administrator set on them (schema-store.ts columnRules): a field the
 * schema file makes required stays required; only fields whose rules differ are given (over `def.fields`).
 */
function withColumnRules(fields: Record<string, FieldSpec>, rules: Record<string, Partial<FieldSpec>>) {
  const kept = overlaid.get(rules);
  if (kept) return kept;
  const out: Record<string, FieldSpec> = {};
  for (const [slug, rule] of Object.entries(rules)) {
    const spec = fields[slug];
    if (!spec || typeof spec.storage === 'object' || spec.storage === 'virtual') continue;
    const next: FieldSpec = { ...spec, ...rule, required: Boolean(spec.required || rule.required) };
    if (JSON.stringify(next, regexAsText) !== JSON.stringify(spec, regexAsText)) out[slug] = next;
  }
  overlaid.set(rules, out);
  return out;
}

/** The overlaid fields by the rules they were made from (one per type and schema snapshot): field checks are kept by spec. */
const overlaid = new WeakMap<object, Record<string, FieldSpec>>();

const regexAsText = (_key: string, value: unknown) => (value instanceof RegExp ? value.source : value);

/** A text column whose value must be the slug of a live row of `table` (site types, contact statuses...). */
export async function checkSlug(db: Kysely<DB>, table: string, slug: unknown): Promise<readonly string[] | null> {
  if (slug === undefined || slug === null) return null;
  const slugs = await liveSlugs(db, table);
  return slugs.includes(String(slug)) ? null : slugs;
}
