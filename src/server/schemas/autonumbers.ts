/**
 * The numbering of autonumber fields (common/field-types/autonumber.ts): each field has a sequence of its own and a
 * trigger on its records' table calling `autonumber_fill` (migration 042) with the field's key, sequence, prefix and
 * padding, so every write path, imports and the server's own SQL included, numbers a new record, and no number is
 * given twice (a sequence never goes back; a number stays with its record, deleted or not). Both are named by the
 * field's id, made in the transaction that saves the field, and dropped with the field or when it stops being one.
 */
import { type QueryExecutorProvider, sql } from 'kysely';
import type { SchemaField } from '../../common/schema-types.js';
import { target } from './indexes.js';

type Field = Pick<SchemaField, 'id' | 'slug' | 'type' | 'options' | 'column'>;

const triggerName = (field: Pick<Field, 'id'>) => `autonumber_field_${Number(field.id)}`;
const sequenceName = (field: Pick<Field, 'id'>) => `autonumber_field_${Number(field.id)}_seq`;

/**
 * Makes (or remakes, with its options as they are now) the numbering of an autonumber field; the records there are
 * without a number get one, in the order they were made; the sequence goes on after the last. Drops the numbering
 * of a field that is no autonumber (any more).
 */
export async function syncAutonumber(db: QueryExecutorProvider, schema: { id: number; type: string }, field: Field) {
  if (field.type !== 'autonumber' || field.column) return dropAutonumber(db, schema, field);
  const { table, schemaId } = target(schema);
  const prefix = typeof field.options?.prefix === 'string' ? field.options.prefix : '';
  const padding = typeof field.options?.padding === 'number' ? field.options.padding : 0;
  const trigger = sql.id(triggerName(field));
  const sequence = sequenceName(field);
  // Writes of the table wait from here to the commit: no record is made between the numbering and the trigger.
  await sql`lock table ${sql.table(table)} in share row exclusive mode`.execute(db);
  await sql`create sequence if not exists ${sql.id(sequence)} as bigint`.execute(db);
  const { rows } = await sql<{
    last: string;
  }>`select case when is_called then last_value else 0 end as last from ${sql.id(sequence)}`.execute(db);
  const last = Number(rows[0]?.last ?? 0);
  const scope = schemaId ? sql`schema_id = ${schemaId} and ` : sql``;
  const key = sql.lit(field.slug);
  const numbered = await sql`with unnumbered as (
      select id, ${last}::bigint + row_number() over (order by id) as n from ${sql.table(table)}
      where ${scope}custom ->> ${key} is null
    )
    update ${sql.table(table)} t
    set custom = coalesce(t.custom, '{}'::jsonb) || jsonb_build_object(${key}::text, ${prefix}::text || lpad(u.n::text, greatest(${padding}::integer, length(u.n::text)), '0'))
    from unnumbered u where t.id = u.id`.execute(db);
  const count = Number(numbered.numAffectedRows ?? 0);
  if (count > 0) await sql`select setval(${sequence}::regclass, ${last + count})`.execute(db);
  await sql`drop trigger if exists ${trigger} on ${sql.table(table)}`.execute(db);
  const when = schemaId ? sql` when (new.schema_id = ${sql.lit(schemaId)})` : sql``;
  await sql`create trigger ${trigger} before insert or update on ${sql.table(table)} for each row${when}
    execute function autonumber_fill(${sql.lit(field.slug)}, ${sql.lit(sequence)}, ${sql.lit(prefix)}, ${sql.lit(String(padding))})`.execute(
    db,
  );
}

/** Stops numbering a field (deleted, or no autonumber any more): its trigger and sequence go; its values stay as they are. */
export async function dropAutonumber(
  db: QueryExecutorProvider,
  schema: { id: number; type: string },
  field: Pick<Field, 'id'>,
) {
  const { table } = target(schema);
  await sql`drop trigger if exists ${sql.id(triggerName(field))} on ${sql.table(table)}`.execute(db);
  await sql`drop sequence if exists ${sql.id(sequenceName(field))}`.execute(db);
}
