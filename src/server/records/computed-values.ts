import { type Kysely, sql } from 'kysely';
import { dynamicTables } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import { fieldExpression } from './list-query.js';
import type { FieldSpec, ResourceDefinition } from './resource.js';

/** A computed value as a record carries it: numbers as numbers, days as `YYYY-MM-DD`, text and yes/no as they are. */
function presentedSql(field: string, spec: FieldSpec) {
  const value = fieldExpression(field, spec);
  if (spec.kind === 'number' || spec.kind === 'integer') return sql`(${value})::float8`;
  if (spec.kind === 'date') return sql`to_char(${value}, 'YYYY-MM-DD')`;
  return value;
}

/**
 * The values of the computed fields (formulas: FieldSpec `computed`) of these records, by their SQL, in one query for
 * the page: what a list shows is what it filters and sorts on.
 */
export async function addComputedValues(
  db: Kysely<DB>,
  def: ResourceDefinition,
  fields: Record<string, FieldSpec>,
  records: Record<string, unknown>[],
) {
  const computed = Object.entries(fields).filter(([, spec]) => spec.computed);
  const ids = records.map((record) => record.id).filter((id) => id !== undefined && id !== null);
  if (!computed.length || !ids.length) return;
  const rows = await dynamicTables(db)
    .selectFrom(`${def.table} as t`)
    .select([sql`t.id`.as('id'), ...computed.map(([field, spec]) => presentedSql(field, spec).as(field))])
    .where('t.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((row) => [String(row.id), row]));
  for (const record of records) {
    const row = byId.get(String(record.id));
    for (const [field] of computed) record[field] = row?.[field] ?? null;
  }
}
