import { type RawBuilder, sql } from 'kysely';
import { fieldExpression } from '../records/list-query.js';
import type { FieldSpec } from '../records/resource.js';

/** A row rule worked out for one person: SQL over the row `t`, or a constant when the rule needs no SQL. */
export type Predicate = RawBuilder<boolean> | boolean;

export function and(parts: Predicate[]): Predicate {
  if (parts.includes(false)) return false;
  const left = parts.filter((p): p is RawBuilder<boolean> => p !== true);
  if (!left.length) return true;
  return left.length === 1 ? left[0] : sql<boolean>`(${sql.join(left, sql` and `)})`;
}

export function or(parts: Predicate[]): Predicate {
  if (parts.includes(true)) return true;
  const left = parts.filter((p): p is RawBuilder<boolean> => p !== false);
  if (!left.length) return false;
  return left.length === 1 ? left[0] : sql<boolean>`(${sql.join(left, sql` or `)})`;
}

export function not(predicate: Predicate): Predicate {
  return typeof predicate === 'boolean' ? !predicate : sql<boolean>`not (${predicate})`;
}

/** The predicate as SQL (a constant as `true` / `false`). */
export const asSql = (predicate: Predicate): RawBuilder<boolean> =>
  typeof predicate === 'boolean' ? sql<boolean>`${sql.raw(String(predicate))}` : predicate;

/**
 * How a rule's ids are looked up when they are one person's few, fixed for the whole query (their id, their teams,
 * their teammates): gathered once into an array, so that each part of an `or` is a range of an index of its own and
 * the planner can read the rule as one bitmap of the rows (a BitmapOr) instead of testing every row with `in
 * (subquery)` or `exists`, which no index serves. `values`: the ids are a list of values; `query`: a subquery of them.
 * Left out (undefined) when the ids change from row to row (the fan-out's `users u`: access/who.ts `perRow`).
 */
export type Gather = 'values' | 'query' | undefined;

/**
 * A field of the row `alias` holds one of the ids `ids` (a list or a subquery): a column, a key of `custom` (one id or
 * a list of them), or a pivot table of links.
 */
export function fieldHolds(
  field: string,
  spec: FieldSpec,
  alias: string,
  ids: RawBuilder<unknown>,
  gather?: Gather,
): RawBuilder<boolean> {
  const storage = spec.storage;
  if (typeof storage === 'object') {
    const constants = Object.entries(storage.where ?? {}).map(
      ([column, constant]) => sql` and fh.${sql.ref(column)} = ${constant}`,
    );
    if (gather)
      return sql<boolean>`${sql.ref(`${alias}.id`)} = any(array(select fh.${sql.ref(storage.ownKey)} from ${sql.table(storage.pivot)} fh where fh.${sql.ref(storage.otherKey)} in (${ids})${sql.join(constants, sql``)}))`;
    return sql<boolean>`exists (select 1 from ${sql.table(storage.pivot)} fh where fh.${sql.ref(storage.ownKey)} = ${sql.ref(`${alias}.id`)}${sql.join(constants, sql``)} and fh.${sql.ref(storage.otherKey)} in (${ids}))`;
  }
  if (storage === 'custom') {
    const value = sql`(${sql.ref(`${alias}.custom`)} -> ${sql.lit(field)})`;
    if (spec.kind === 'integer[]')
      return sql<boolean>`exists (select 1 from jsonb_array_elements_text(case when jsonb_typeof(${value}) = 'array' then ${value} else '[]'::jsonb end) fh(v) where fh.v ~ '^[0-9]{1,9}$' and fh.v::int in (${ids}))`;
    // The expression the custom field's index holds (records/list-query.ts fieldExpression).
    return holds(fieldExpression(field, spec, alias), ids, gather);
  }
  return holds(sql.ref(`${alias}.${field}`), ids, gather);
}

/** `expression in (ids)`; a subquery of few ids gathered into an array first (see Gather). */
function holds(expression: RawBuilder<unknown> | ReturnType<typeof sql.ref>, ids: RawBuilder<unknown>, gather: Gather) {
  if (gather === 'query') return sql<boolean>`${expression} = any(array(${ids}))`;
  return sql<boolean>`${expression} in (${ids})`;
}
