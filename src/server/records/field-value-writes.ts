import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { SchemaField } from '../../common/schema-types.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import { authorOf, type Revision, writeRevisions } from './revisions.js';

/**
 * Where one field of a record type keeps its values across the type's records (live and in the trash), for the
 * changes to a record type that touch them (docs/records.md "Changing a record type"): schemas/field-values.ts counts
 * and reads them; the record service rewrites them with a revision per record, or archives them into
 * `field_value_archive` and takes them out of the records (below).
 */
export interface ValueHome {
  /** The record type and its schema row. */
  type: string;
  schemaId: number;
  table: string;
  /** The rows of a type made in the app are those of its schema in the shared custom_records. */
  scoped: boolean;
  slug: string;
  /** A built-in column; otherwise a key of `custom`. */
  column: boolean;
}

export const ofType = (home: ValueHome) =>
  home.scoped ? sql<boolean>`t.schema_id = ${home.schemaId}` : sql<boolean>`true`;

/** The value as JSON (a custom key as stored; a column as its JSON). */
export function jsonValue(home: ValueHome): RawBuilder<unknown> {
  return home.column ? sql`to_jsonb(${sql.ref(`t.${home.slug}`)})` : sql`(t.custom -> ${sql.lit(home.slug)})`;
}

/** The record holds something under the field: not missing, null, empty text or an empty list. */
export function held(home: ValueHome): RawBuilder<boolean> {
  const value = jsonValue(home);
  return sql<boolean>`(${value} is not null and ${value} not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb))`;
}

/** The field as it was, kept beside each archived value. */
export type FieldSnapshot = Pick<SchemaField, 'id' | 'slug' | 'name' | 'type' | 'options' | 'required' | 'category'>;

/**
 * Moves the values of the field (of the records `ids`, or all) into `field_value_archive` and out of the records;
 * returns how many. A built-in column cannot lose its values this way (built-in fields are not deleted or retyped).
 */
export async function archiveValues(
  trx: Kysely<DB>,
  home: ValueHome,
  field: FieldSnapshot,
  reason: string,
  user: AuthUser | null,
  ids?: readonly number[],
): Promise<number> {
  if (home.column) throw new Error(`The values of the built-in field ${home.slug} are never archived.`);
  if (ids && !ids.length) return 0;
  const which = ids ? sql<boolean>`t.id in (${sql.join(ids)})` : sql<boolean>`true`;
  const snapshot = JSON.stringify(snapshotOf(field));
  const archived = await sql`
    insert into field_value_archive (schema_id, record_type, record_id, field_slug, field, value, reason, archived_by)
    select ${home.schemaId}, ${home.type}, t.id, ${home.slug}, ${snapshot}::jsonb, ${jsonValue(home)}, ${reason}, ${authorOf(user)}
    from ${sql.table(home.table)} t where ${ofType(home)} and ${which} and ${held(home)}`.execute(trx);
  // Empty leftovers (null, '') go too: the key is gone from every record of the type.
  await sql`update ${sql.table(home.table)} t set custom = t.custom - ${sql.lit(home.slug)}
    where ${ofType(home)} and ${which} and t.custom ? ${sql.lit(home.slug)}`.execute(trx);
  return Number(archived.numAffectedRows ?? 0);
}

/**
 * Keeps parts of values in `field_value_archive` (what a record held that its new value leaves out: the values after
 * the first when a field of several becomes a field of one), the records keeping the rest.
 */
export async function archiveParts(
  trx: Kysely<DB>,
  home: ValueHome,
  field: FieldSnapshot,
  reason: string,
  user: AuthUser | null,
  parts: ReadonlyArray<{ id: number; value: unknown }>,
): Promise<number> {
  const snapshot = JSON.stringify(snapshotOf(field));
  for (let start = 0; start < parts.length; start += 1_000) {
    const rows = parts
      .slice(start, start + 1_000)
      .map(
        (part) =>
          sql`(${home.schemaId}, ${home.type}, ${part.id}, ${home.slug}, ${snapshot}::jsonb, ${JSON.stringify(part.value)}::jsonb, ${reason}, ${authorOf(user)})`,
      );
    await sql`insert into field_value_archive (schema_id, record_type, record_id, field_slug, field, value, reason, archived_by)
      values ${sql.join(rows)}`.execute(trx);
  }
  return parts.length;
}

const snapshotOf = (field: FieldSnapshot) => ({
  id: field.id,
  slug: field.slug,
  name: field.name,
  type: field.type,
  options: field.options,
  required: field.required,
  category: field.category,
});

export interface ValueChange {
  id: number;
  before: unknown;
  /** null: the record no longer holds a value. */
  after: unknown;
}

/**
 * Writes new values of the field into these records, with a revision each (`{slug: [before, after]}`), in a few
 * statements whatever their number. `updated_at` moves: a form opened before sees the change (409) instead of
 * writing the old value back.
 */
export async function rewriteValues(
  trx: Kysely<DB>,
  home: ValueHome,
  changes: readonly ValueChange[],
  user: AuthUser | null,
) {
  if (!changes.length) return;
  const slug = sql.lit(home.slug);
  for (let start = 0; start < changes.length; start += 2_000) {
    const slice = changes.slice(start, start + 2_000);
    const rows = JSON.stringify(slice.map((change) => ({ id: change.id, v: change.after ?? null })));
    const set = home.column
      ? sql`${sql.ref(home.slug)} = (x.v #>> '{}')`
      : sql`custom = case when x.v is null or x.v = 'null'::jsonb then t.custom - ${slug} else jsonb_set(t.custom, array[${slug}], x.v) end`;
    await sql`update ${sql.table(home.table)} t set ${set}, updated_at = now()
      from json_to_recordset(${rows}::json) as x(id integer, v jsonb) where t.id = x.id and ${ofType(home)}`.execute(
      trx,
    );
    const revisions: Revision[] = slice.map((change) => ({
      type: home.type,
      id: change.id,
      action: 'updated',
      changes: { [home.slug]: [change.before, change.after ?? null] },
      // The record type changed, not the record: no automation or webhook hears of it (as before the outbox).
      event: null,
    }));
    await writeRevisions(trx, user, revisions);
  }
}
