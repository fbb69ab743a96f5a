import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { SchemaField } from '../../common/schema-types.js';
import type { AuthUser } from '../auth/auth-user.js';
import { fieldSchema, isBlank } from '../records/fields.js';
import type { FieldSpec } from '../records/resource.js';
import { authorOf, type Revision, writeRevisions } from '../records/revisions.js';
import { builtinDefinition } from './builtin-types.js';

/**
 * The values one field of a record type holds across its records (live and in the trash), for the changes to a
 * record type that touch them (docs/records.md "Changing a record type"): counted, read, rewritten with a revision
 * per record, or archived into `field_value_archive` and taken out of the records.
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

export function valueHome(
  schema: { id: number; type: string },
  field: Pick<SchemaField, 'slug' | 'column'>,
): ValueHome {
  const def = builtinDefinition(schema.type);
  return {
    type: schema.type,
    schemaId: schema.id,
    table: def?.table ?? 'custom_records',
    scoped: !def,
    slug: field.slug,
    column: Boolean(field.column),
  };
}

const ofType = (home: ValueHome) => (home.scoped ? sql<boolean>`t.schema_id = ${home.schemaId}` : sql<boolean>`true`);

/** The value as JSON (a custom key as stored; a column as its JSON). */
function jsonValue(home: ValueHome): RawBuilder<unknown> {
  return home.column ? sql`to_jsonb(${sql.ref(`t.${home.slug}`)})` : sql`(t.custom -> ${sql.lit(home.slug)})`;
}

/** The record holds something under the field: not missing, null, empty text or an empty list. */
function held(home: ValueHome): RawBuilder<boolean> {
  const value = jsonValue(home);
  return sql<boolean>`(${value} is not null and ${value} not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb))`;
}

/** How many records hold a value of the field: live ones and those in the trash. */
export async function countHeld(db: Kysely<any>, home: ValueHome): Promise<{ live: number; trashed: number }> {
  const { rows } = await sql<{ live: number; trashed: number }>`
    select count(*) filter (where t.deleted_at is null)::int as live, count(*) filter (where t.deleted_at is not null)::int as trashed
    from ${sql.table(home.table)} t where ${ofType(home)} and ${held(home)}`.execute(db);
  return { live: Number(rows[0]?.live ?? 0), trashed: Number(rows[0]?.trashed ?? 0) };
}

/**
 * Values more than one live record holds, compared as `key` (the unique index's key): the most shared first, at most
 * `limit`. A field cannot be made unique while there are any.
 */
export async function sharedValues(
  db: Kysely<any>,
  home: ValueHome,
  key: RawBuilder<unknown>,
  limit = 5,
): Promise<Array<{ value: string; records: number }>> {
  const { rows } = await sql<{ value: string; records: number }>`
    select (${key})::text as value, count(*)::int as records from ${sql.table(home.table)} t
    where ${ofType(home)} and t.deleted_at is null and (${key}) is not null
    group by 1 having count(*) > 1 order by 2 desc, 1 limit ${limit}`.execute(db);
  return rows.map((row) => ({ value: row.value, records: Number(row.records) }));
}

/** Every value the field holds, by record. */
export async function readHeld(db: Kysely<any>, home: ValueHome): Promise<Array<{ id: number; value: unknown }>> {
  const { rows } = await sql<{ id: number; value: unknown }>`
    select t.id, ${jsonValue(home)} as value from ${sql.table(home.table)} t where ${ofType(home)} and ${held(home)} order by t.id`.execute(
    db,
  );
  return rows;
}

/** How many records hold each of these choices (a record with a list counts for each choice in it). */
export async function countChoices(
  db: Kysely<any>,
  home: ValueHome,
  values: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map(values.map((value) => [value, 0]));
  if (!values.length) return counts;
  const { rows } = await sql<{ choice: string; n: number }>`
    select c.choice, count(*)::int as n
    from ${sql.table(home.table)} t
    cross join lateral (
      select jsonb_array_elements_text(case jsonb_typeof(${jsonValue(home)}) when 'array' then ${jsonValue(home)} else jsonb_build_array(${jsonValue(home)}) end) as choice
    ) c
    where ${ofType(home)} and ${held(home)} and c.choice in (${sql.join(values)})
    group by c.choice`.execute(db);
  for (const row of rows) counts.set(row.choice, Number(row.n));
  return counts;
}

/** The field as it was, kept beside each archived value. */
export type FieldSnapshot = Pick<SchemaField, 'id' | 'slug' | 'name' | 'type' | 'options' | 'required' | 'category'>;

/**
 * Moves the values of the field (of the records `ids`, or all) into `field_value_archive` and out of the records;
 * returns how many. A built-in column cannot lose its values this way (built-in fields are not deleted or retyped).
 */
export async function archiveValues(
  trx: Kysely<any>,
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
  trx: Kysely<any>,
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
  trx: Kysely<any>,
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
    }));
    await writeRevisions(trx, user, revisions);
  }
}

const TEXT_KINDS = new Set(['text', 'email', 'phone', 'url', 'color']);

/**
 * A stored value as a field of another kind would hold it, checked as a form's value is (a number kept as text
 * becomes 12, "12 hours" does not); `ok: false` when it cannot be one.
 */
export function convertValue(
  slug: string,
  value: unknown,
  spec: FieldSpec,
): { ok: true; value: unknown } | { ok: false } {
  let input = value;
  if (TEXT_KINDS.has(spec.kind)) {
    if (typeof value === 'number' || typeof value === 'boolean') input = String(value);
    else if (Array.isArray(value)) input = value.map(String).join(', ');
  }
  if (spec.kind === 'enum' && Array.isArray(value)) input = value.length === 1 ? String(value[0]) : value;
  if (spec.kind === 'integer' && Array.isArray(value) && value.length === 1) input = value[0];
  // One value becoming a field of several: a list of it.
  if (spec.kind === 'enum[]' && !Array.isArray(value)) input = [String(value)];
  if (spec.kind === 'integer[]' && !Array.isArray(value)) input = [value];
  if ((spec.kind === 'enum' || spec.kind === 'integer' || spec.kind === 'number') && typeof value === 'boolean')
    return { ok: false };
  if (isBlank(input)) return { ok: true, value: null };
  const parsed = fieldSchema(slug, spec).safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false };
}
