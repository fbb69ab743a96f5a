import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { hiddenPeopleCondition } from '../reports/people.js';
import { canRead } from '../reports/scope.js';

/** The columns of a revision (`revisions` as `r`) the history and the activity feed show. */
export const REVISION_COLUMNS = [
  'r.id',
  'r.revisionable_type',
  'r.revisionable_id',
  'r.action',
  'r.user_id',
  'r.changes',
  'r.import_id',
] as const;

/**
 * Which revisions (`revisions` rows, aliased `alias`) a person may see, for the history (GET /api/revisions) and the
 * activity feed (GET /api/actions) alike:
 *
 * - only revisions of record types the person may read (`{entity}:read`, or any category of it);
 * - for a type whose rows the person's access policy filters (a category such as `site:read:union`, an owner, their
 *   turf, "tasks on records you may read"), only revisions of records the person may read now: the policy's own read
 *   rule (`RecordService.visibleRows`, soft-deleted rows included, since "deleted" is an event worth seeing);
 * - the actions of users whose role is incognito only for those holding `revision:read:incognito` (and the user
 *   themself).
 *
 * `types`: only revisions of these types can be asked about (the caller narrows them so), and only their rules are
 * written into the statement.
 */
export async function revisionVisibility(
  ctx: AppContext,
  user: AuthUser,
  alias = 'r',
  options: { forEachRow?: boolean; types?: ReadonlySet<string> } = {},
): Promise<RawBuilder<boolean>> {
  const forEachRow = options.forEachRow ?? true;
  const type = sql.ref(`${alias}.revisionable_type`);
  const recordId = sql.ref(`${alias}.revisionable_id`);
  const plain: string[] = [];
  const filtered: RawBuilder<boolean>[] = [];
  for (const def of ctx.resources.all()) {
    // Asked of revisions of these types alone (the feed's newest): the others' rules are left out.
    if (!canRead(user, def) || (options.types && !options.types.has(def.type))) continue;
    if (await ctx.records.readsAlike(def, user)) {
      plain.push(def.type);
      continue;
    }
    // `offset 0` keeps it a lookup of the one record per revision: otherwise the planner may read every row the person
    // may see into a hash table first, although the feed's first page checks only a few dozen revisions. Counting
    // all the revisions of a bulk change (`forEachRow: false`) is the other way round: a join is the cheaper plan.
    const lookup = (await ctx.records.visibleRows(ctx.db, def, user, 'with'))
      .select(sql`1`.as('one'))
      .where(sql<boolean>`t.id = ${recordId}`);
    const rows = forEachRow ? lookup.offset(0) : lookup;
    filtered.push(sql<boolean>`(${type} = ${def.type} and exists (${rows}))`);
  }
  const byType = [...(plain.length ? [sql<boolean>`${type} in (${sql.join(plain)})`] : []), ...filtered];
  const readable = byType.length ? sql<boolean>`(${sql.join(byType, sql` or `)})` : sql<boolean>`false`;
  return sql<boolean>`(${readable} and ${hiddenPeopleCondition(user, sql.ref(`${alias}.user_id`))})`;
}
