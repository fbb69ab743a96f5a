import type { Kysely } from 'kysely';
import { pluralizeSlug } from '../../common/schema-types.js';
import type { DB } from '../db/schema.generated.js';
import { isColumn, readSchemaFiles, SCHEMAS_DIR, type SchemaFile } from './schema-files.js';

export { SCHEMAS_DIR };

/**
 * Loads the default record types into the database; idempotent, run at start when the files changed. A type not
 * there yet is created with its fields and logic. A type already there (administrators may have renamed it,
 * reordered or added fields, changed its logic) gains the built-in (column) fields a newer version ships, and its
 * built-in fields gain the option keys a newer file gives them (what the server validates by: `max`,
 * `choices_from`, `text_target`...); options an administrator set are kept.
 */
export async function loadSchemaFiles(
  db: Kysely<DB>,
  dir = SCHEMAS_DIR,
): Promise<{ created: string[]; fieldsAdded: number; fieldsUpdated: number }> {
  const files = readSchemaFiles(dir);
  const created: string[] = [];
  let fieldsAdded = 0;
  let fieldsUpdated = 0;
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
        column: isColumn(field),
      });
      if (existing) {
        const stored = await trx
          .selectFrom('schema_fields')
          .select(['id', 'slug', 'options', 'column'])
          .where('schema_id', '=', existing.id)
          .execute();
        const bySlug = new Map(stored.map((field) => [field.slug, field]));
        const missing = file.fields
          .map((field, position) => ({ field, position }))
          .filter(({ field }) => !bySlug.has(field.slug) && isColumn(field));
        if (missing.length) {
          await trx
            .insertInto('schema_fields')
            .values(missing.map(({ field, position }) => fieldRow(existing.id, field, position)))
            .execute();
          fieldsAdded += missing.length;
        }
        for (const field of file.fields) {
          const have = bySlug.get(field.slug);
          if (!have?.column) continue;
          const options = (have.options ?? {}) as Record<string, unknown>;
          const gained = Object.entries(field.options).filter(([key]) => !(key in options));
          if (!gained.length) continue;
          await trx
            .updateTable('schema_fields')
            .set({ options: JSON.stringify({ ...options, ...Object.fromEntries(gained) }) })
            .where('id', '=', have.id)
            .execute();
          fieldsUpdated++;
        }
        continue;
      }
      const schema = await trx
        .insertInto('schemas')
        .values({
          type: file.type,
          name_singular: file.name_singular,
          name_plural: file.name_plural,
          resource: file.resource ?? pluralizeSlug(file.type),
          position: file.position,
          built_in: true,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const fields = await trx
        .insertInto('schema_fields')
        .values(file.fields.map((field, position) => fieldRow(schema.id, field, position)))
        .returning(['id', 'slug'])
        .execute();
      const idOf = new Map(fields.map((f) => [f.slug, f.id]));
      const ref = (value: string) => `field:${idOf.get(value.slice('field:'.length))}`;
      for (const [position, block] of file.actions.entries()) {
        const row = await trx
          .insertInto('logic_blocks')
          .values({
            schema_id: schema.id,
            description: block.description ?? null,
            trigger: block.trigger,
            match: block.match,
            clear_hidden: block.clear_hidden,
            position,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (block.conditions.length) {
          await trx
            .insertInto('logic_conditions')
            .values(
              block.conditions.map((c) => ({
                logic_block_id: row.id,
                source: ref(c.source),
                operator: c.operator,
                value: c.value,
              })),
            )
            .execute();
        }
        if (block.actions.length) {
          await trx
            .insertInto('logic_actions')
            .values(
              block.actions.map((a) => ({
                logic_block_id: row.id,
                target: ref(a.target),
                action: a.action,
                value: JSON.stringify(a.value ?? null),
              })),
            )
            .execute();
        }
      }
      created.push(file.type);
    }
  });
  return { created, fieldsAdded, fieldsUpdated };
}
