import { type Kysely, sql } from 'kysely';
import { dynamicTables } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import type { ResourceRegistry } from '../records/registry.js';
import type { FieldSpec } from '../records/resource.js';

const isName = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '' && !/^\d+$/.test(value.trim());

/**
 * A relation column of a file may name the related record (`Riverside Tower`) instead of giving its id: the names
 * of a chunk (or of a preview) are looked up at once, by name (case and spaces aside) among the live records of the related type
 * (a type made in the app: its records only). Returns, by field, the id of each name found; a name that matches
 * no record or several is left out, and `resolve` says so for the row.
 */
export async function relationNames(
  trx: Kysely<DB>,
  resources: ResourceRegistry,
  fields: Record<string, FieldSpec>,
  rows: ReadonlyArray<Record<string, unknown>>,
) {
  const found = new Map<string, Map<string, number | 'several'>>();
  for (const [field, spec] of Object.entries(fields)) {
    const ref = spec.references;
    if (!ref || (spec.kind !== 'integer' && spec.kind !== 'integer[]')) continue;
    const names = [
      ...new Set(
        rows
          .flatMap((row) => [row[field] ?? []].flat())
          .filter(isName)
          .map(nameKey),
      ),
    ];
    if (!names.length) continue;
    const target = resources
      .all()
      .find(
        (def) =>
          def.table === ref.table && (!ref.scope || def.scope?.value === ref.scope.value) && 'name' in def.fields,
      );
    if (!target) continue;
    let query = dynamicTables(trx)
      .selectFrom(ref.table)
      .select(['id', sql<string>`lower(btrim(name))`.as('key')])
      .where(sql<boolean>`lower(btrim(name)) in (${sql.join(names)})`);
    if (ref.softDelete ?? target.softDelete) query = query.where('deleted_at', 'is', null);
    if (ref.scope) query = query.where(ref.scope.column, '=', ref.scope.value);
    const ids = new Map<string, number | 'several'>();
    for (const row of await query.execute()) ids.set(row.key, ids.has(row.key) ? 'several' : Number(row.id));
    found.set(field, ids);
  }
  return {
    /** The row's values with names replaced by ids; the problems of names that match no record or several. */
    resolve(values: Record<string, unknown>): string[] {
      const problems: string[] = [];
      for (const [field, ids] of found) {
        const one = (value: unknown) => {
          if (!isName(value)) return value;
          const id = ids.get(nameKey(value));
          if (typeof id === 'number') return id;
          problems.push(
            `${fields[field].label ?? field}: ${id === 'several' ? `several records are named “${value}”; give the id instead.` : `no record is named “${value}”.`}`,
          );
          return value;
        };
        if (Array.isArray(values[field])) values[field] = (values[field] as unknown[]).map(one);
        else if (field in values) values[field] = one(values[field]);
      }
      return problems;
    },
  };
}

const nameKey = (name: string) => name.trim().toLowerCase();
