import { type QueryExecutorProvider, type RawBuilder, sql } from 'kysely';
import type { Sql } from '../../common/field-types/define.js';
import type { FieldSpec, ResourceDefinition } from './resource.js';

const SQL = sql as unknown as Sql;

/**
 * The values of fields computed from their record (FieldSpec `computed`: when it was made, who last changed it), for a
 * page of records in one query, by the same SQL their filters and sorts use (common/field-types/sql.ts
 * valueExpression), so a list shows what it filtered and sorted by.
 */
export async function presentComputed(
  db: QueryExecutorProvider,
  def: Pick<ResourceDefinition, 'table'>,
  fields: Record<string, FieldSpec>,
  records: Record<string, unknown>[],
) {
  const computed = Object.entries(fields).filter(([, spec]) => spec.computed);
  const ids = records.map((record) => Number(record.id)).filter(Number.isInteger);
  if (!computed.length || !ids.length) return;
  const values = computed.map(
    ([name, spec]) => sql`${spec.computed!(SQL, 't') as unknown as RawBuilder<unknown>} as ${sql.id(name)}`,
  );
  const { rows } = await sql<Record<string, unknown>>`select t.id, ${sql.join(values)} from ${sql.table(def.table)} t
    where t.id in (${sql.join(ids)})`.execute(db);
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  for (const record of records) {
    const row = byId.get(Number(record.id));
    for (const [name] of computed) record[name] = row?.[name] ?? null;
  }
}
