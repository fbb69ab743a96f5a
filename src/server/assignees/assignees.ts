import { sql } from 'kysely';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { escapeLike } from '../records/list-query.js';
import { hiddenPeopleCondition } from '../reports/people.js';

export interface Assignee {
  id: number;
  name: string;
}

/**
 * The people work can be given to, by name, at most 50: those whose name holds `q`, or those of `ids` (the names of
 * the ones a form shows). People of incognito roles only for those who see them (reports/people.ts).
 */
export async function assignees(
  ctx: AppContext,
  user: AuthUser,
  { q, ids }: { q?: string; ids: number[] },
): Promise<Assignee[]> {
  const name = sql<string>`trim(u.first_name || ' ' || u.last_name)`;
  let rows = ctx.db
    .selectFrom('users as u')
    .select(['u.id', name.as('name')])
    .where('u.deleted_at', 'is', null)
    .where(hiddenPeopleCondition(user, sql.ref('u.id')));
  if (q) rows = rows.where(sql<boolean>`${name} ilike ${`%${escapeLike(q)}%`}`);
  if (ids.length) rows = rows.where('u.id', 'in', ids);
  return rows.orderBy('u.last_name').orderBy('u.first_name').orderBy('u.id').limit(50).execute();
}
