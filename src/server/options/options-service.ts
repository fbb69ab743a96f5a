import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { notFound } from '../http/errors.js';
import { escapeLike } from '../records/list-query.js';
import { labelSql } from '../records/representation.js';
import type { ResourceDefinition } from '../records/resource.js';

/** At most this many options in one answer. */
export const MAX_OPTIONS = 500;

/**
 * The records of `def` the person may read, as `{id, name}` options (and the resource's option columns), by name:
 * those whose label holds `q`, or those of `ids`. The same row rules as lists (soft deletes, categories); with `view`,
 * only the records of that saved view (as the person reads it). A resource without a label (no name, nor columns to
 * make one of) has no options: 404.
 */
export async function recordOptions(
  ctx: AppContext,
  user: AuthUser | null,
  def: ResourceDefinition,
  { q, ids, view = null, limit = MAX_OPTIONS }: { q: string; ids: number[]; view?: number | null; limit?: number },
) {
  ctx.records.authorize(user, def, 'read');
  const labelText = labelSql(def);
  if (!labelText) throw notFound(`There are no options for "${def.name}".`);
  const label = sql.raw(labelText);
  const rows =
    view === null
      ? await ctx.records.visibleRows(ctx.db, def, user)
      : (await ctx.records.matchingRows(user, def, { view })).base;
  let query = rows.select([
    't.id',
    sql<string>`${label}`.as('name'),
    ...(def.optionColumns ?? []).map((column) => `t.${column}`),
  ]);
  if (q) query = query.where(sql<boolean>`${label} ilike ${`%${escapeLike(q)}%`}`);
  if (ids.length) query = query.where('t.id', 'in', ids.slice(0, MAX_OPTIONS));
  return query.orderBy(sql`${label}`).limit(Math.min(limit, MAX_OPTIONS)).execute();
}

/**
 * The distinct values of one text column among the records of `def` the person may read (a site's city, street...),
 * as `{id: value, name: value}` options, those holding `q`.
 */
export async function columnValueOptions(
  ctx: AppContext,
  user: AuthUser | null,
  def: ResourceDefinition,
  column: string,
  q: string,
) {
  ctx.records.authorize(user, def, 'read');
  const value = sql.ref(`t.${column}`);
  let query = (await ctx.records.visibleRows(ctx.db, def, user))
    .select(sql<string>`distinct ${value}`.as('value'))
    .where(value, 'is not', null)
    .where(value, '!=', '');
  if (q) query = query.where(sql<boolean>`${value} ilike ${`%${escapeLike(q)}%`}`);
  const rows = await query.orderBy('value').limit(MAX_OPTIONS).execute();
  return rows.map((row) => ({ id: row.value, name: row.value }));
}
