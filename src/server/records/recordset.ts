import { type Kysely, sql, type Transaction } from 'kysely';
import { dynamicTables } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import type { FieldSpec, PivotStorage } from './resource.js';

/**
 * The statements the batch writes are made of: many rows written in one statement whose only parameter is a JSON
 * list (`json_to_recordset`), rather than thousands of bound values.
 */

/** SQL types of a table's columns (for json_to_recordset), read once per table. */
export async function tableColumnTypes(db: Kysely<DB>, table: string): Promise<Map<string, string>> {
  const cached = cacheByTable.get(table);
  if (cached) return cached;
  const result = await sql<{ column_name: string; type: string }>`
    select a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type
    from pg_attribute a where a.attrelid = ${table}::regclass and a.attnum > 0 and not a.attisdropped`.execute(db);
  const types = new Map(result.rows.map((r) => [r.column_name, r.type]));
  cacheByTable.set(table, types);
  return types;
}
const cacheByTable = new Map<string, Map<string, string>>();

export async function insertRecordset(
  trx: Transaction<DB>,
  table: string,
  columns: string[],
  types: Map<string, string>,
  records: Array<Record<string, unknown>>,
  wholeRows: boolean,
) {
  const definitions = columns.map((c) => sql`${sql.ref(c)} ${sql.raw(sqlType(types, c))}`);
  const list = sql.join(columns.map((c) => sql.ref(c)));
  const result = await sql<Record<string, any>>`
    insert into ${sql.table(table)} (${list})
    select ${list} from json_to_recordset(${JSON.stringify(records.map((r, i) => ({ ...r, _ord: i })))}::json) as x(${sql.join(definitions)}, _ord integer)
    order by _ord
    returning ${wholeRows ? sql`*` : sql`id`}`.execute(trx);
  return result.rows;
}

export async function updateRecordset(
  trx: Transaction<DB>,
  table: string,
  columns: string[],
  withCustom: boolean,
  types: Map<string, string>,
  records: Array<Record<string, unknown>>,
  wholeRows = false,
) {
  const all = [...columns, ...(withCustom ? ['custom'] : [])];
  const definitions = [sql`id integer`, ...all.map((c) => sql`${sql.ref(c)} ${sql.raw(sqlType(types, c))}`)];
  const sets = [
    ...columns.map((c) => sql`${sql.ref(c)} = x.${sql.ref(c)}`),
    ...(withCustom ? [sql`custom = t.custom || coalesce(x.custom, '{}'::jsonb)`] : []),
    sql`updated_at = now()`,
  ];
  const result = await sql<Record<string, any>>`
    update ${sql.table(table)} as t set ${sql.join(sets)}
    from json_to_recordset(${JSON.stringify(records)}::json) as x(${sql.join(definitions)})
    where t.id = x.id
    returning ${wholeRows ? sql`t.*` : sql`t.id`}`.execute(trx);
  return result.rows;
}

function sqlType(types: Map<string, string>, column: string) {
  const type = types.get(column);
  if (!type) throw new Error(`Unknown column ${column}`);
  return type;
}

/** Pivot links for many records at once: replace (updates) or add (creates). */
export async function writePivotsBulk(
  trx: Transaction<DB>,
  items: Array<{ id: number; pivots: Record<string, number[]> }>,
  fields: Record<string, FieldSpec>,
  replace: boolean,
) {
  const byField = new Map<string, Array<{ id: number; ids: number[] }>>();
  for (const item of items)
    for (const [key, ids] of Object.entries(item.pivots)) {
      if (!byField.has(key)) byField.set(key, []);
      byField.get(key)!.push({ id: item.id, ids: [...new Set(ids)] });
    }
  for (const [key, list] of byField) {
    const pivot = fields[key].storage as PivotStorage;
    if (replace) {
      let remove = dynamicTables(trx)
        .deleteFrom(pivot.pivot)
        .where(
          pivot.ownKey,
          'in',
          list.map((l) => l.id),
        );
      for (const [column, constant] of Object.entries(pivot.where ?? {})) remove = remove.where(column, '=', constant);
      await remove.execute();
    }
    const links = list.flatMap((l) =>
      l.ids.map((other) => ({ ...pivot.where, [pivot.ownKey]: l.id, [pivot.otherKey]: other })),
    );
    if (!links.length) continue;
    // One statement with one parameter (a JSON list) rather than thousands of bound values.
    const constants = Object.keys(pivot.where ?? {});
    const columns = [pivot.ownKey, pivot.otherKey, ...constants];
    const definitions = [
      sql`${sql.ref(pivot.ownKey)} integer`,
      sql`${sql.ref(pivot.otherKey)} integer`,
      ...constants.map((c) => sql`${sql.ref(c)} text`),
    ];
    const names = sql.join(columns.map((c) => sql.ref(c)));
    await sql`insert into ${sql.table(pivot.pivot)} (${names})
      select ${names} from json_to_recordset(${JSON.stringify(links)}::json) as x(${sql.join(definitions)})
      on conflict do nothing`.execute(trx);
  }
}

/** Items grouped by a key, in their order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string) {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(item);
  }
  return groups;
}
