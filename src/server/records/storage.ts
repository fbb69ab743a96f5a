import type { Kysely, Transaction } from 'kysely';
import { dynamicTables } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import { ValidationError } from '../http/errors.js';
import { humanise } from './fields.js';
import type { FieldSpec, PivotStorage } from './resource.js';

/**
 * Ids sent for fields with `references` must name rows that exist (and are not deleted): else 422 on the field.
 * `known` remembers ids already found (a batch checks many rows in one transaction).
 */
export async function checkReferences(
  trx: Kysely<DB>,
  values: Record<string, any>,
  fields: Record<string, FieldSpec>,
  known = new Set<string>(),
) {
  const errors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(values)) {
    const ref = fields[key]?.references;
    if (!ref || value === null || value === undefined) continue;
    const ids = [...new Set((Array.isArray(value) ? value : [value]).map(Number))];
    const unknown = ids.filter((id) => !known.has(`${ref.table}:${id}`));
    if (!unknown.length) continue;
    let query = dynamicTables(trx).selectFrom(ref.table).select('id').where('id', 'in', unknown);
    if (ref.softDelete) query = query.where('deleted_at', 'is', null);
    if (ref.scope) query = query.where(ref.scope.column, '=', ref.scope.value);
    const found = new Set((await query.execute()).map((row) => row.id));
    for (const id of found) known.add(`${ref.table}:${id}`);
    const missing = unknown.filter((id) => !found.has(id));
    if (missing.length)
      errors[key] = [`The selected ${fields[key].label ?? humanise(key)} (${missing.join(', ')}) does not exist.`];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** A column value as a single-row write sends it: JSON kinds as text for the driver. */
const asColumnParameter = (value: unknown, spec: FieldSpec | undefined) =>
  spec?.kind === 'json' || spec?.kind === 'enum[]' ? JSON.stringify(value) : value;

/**
 * Splits validated values by where they are stored: real columns (encoded by `encode`), the `custom` JSONB
 * column, and pivot tables. Virtual fields are left to the record type's hooks.
 */
export function splitByStorage(
  values: Record<string, any>,
  fields: Record<string, FieldSpec>,
  encode: (value: unknown, spec: FieldSpec | undefined) => unknown = asColumnParameter,
) {
  const columns: Record<string, any> = {};
  const custom: Record<string, any> = {};
  const pivots: Record<string, number[]> = {};
  for (const [key, value] of Object.entries(values)) {
    const storage = fields[key]?.storage ?? 'column';
    if (storage === 'custom') custom[key] = value;
    else if (storage === 'virtual') continue;
    else if (typeof storage === 'object') pivots[key] = value ?? [];
    else columns[key] = encode(value, fields[key]);
  }
  return { columns, custom, pivots };
}
/** Replaces the pivot links of one record. */
export async function writePivots(
  trx: Transaction<DB>,
  id: number,
  pivots: Record<string, number[]>,
  fields: Record<string, FieldSpec>,
) {
  for (const [key, ids] of Object.entries(pivots)) {
    const pivot = fields[key].storage as PivotStorage;
    let remove = dynamicTables(trx).deleteFrom(pivot.pivot).where(pivot.ownKey, '=', id);
    for (const [column, constant] of Object.entries(pivot.where ?? {})) remove = remove.where(column, '=', constant);
    await remove.execute();
    const unique = [...new Set(ids)];
    if (unique.length)
      await dynamicTables(trx)
        .insertInto(pivot.pivot)
        .values(unique.map((other) => ({ ...pivot.where, [pivot.ownKey]: id, [pivot.otherKey]: other })))
        .execute();
  }
}
