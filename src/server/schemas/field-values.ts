import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { SchemaField } from '../../common/schema-types.js';
import type { DB } from '../db/schema.generated.js';
import { held, jsonValue, ofType, type ValueHome } from '../records/field-value-writes.js';
import { fieldSchema, isBlank } from '../records/fields.js';
import type { FieldSpec } from '../records/resource.js';
import { builtinDefinition } from './builtin-types.js';

export type { FieldSnapshot, ValueChange, ValueHome } from '../records/field-value-writes.js';

/**
 * The values one field of a record type holds across its records (live and in the trash), for the changes to a
 * record type that touch them (docs/records.md "Changing a record type"): counted and read here; rewritten with a
 * revision per record, or archived and taken out of the records, by the record service (records/field-value-writes.ts).
 */

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

/** How many records hold a value of the field: live ones and those in the trash. */
export async function countHeld(db: Kysely<DB>, home: ValueHome): Promise<{ live: number; trashed: number }> {
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
  db: Kysely<DB>,
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
export async function readHeld(db: Kysely<DB>, home: ValueHome): Promise<Array<{ id: number; value: unknown }>> {
  const { rows } = await sql<{ id: number; value: unknown }>`
    select t.id, ${jsonValue(home)} as value from ${sql.table(home.table)} t where ${ofType(home)} and ${held(home)} order by t.id`.execute(
    db,
  );
  return rows;
}

/** How many records hold each of these choices (a record with a list counts for each choice in it). */
export async function countChoices(
  db: Kysely<DB>,
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
