import { sql, type Kysely } from 'kysely';
import type { AuthUser } from './auth-user.js';

/** The signed-in person with role, permissions and teams, in one query. */
export async function loadAuthUser(db: Kysely<any>, userId: number, impersonatorId: number | null = null): Promise<AuthUser | null> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('roles as r', (join) => join.onRef('r.id', '=', 'u.role_id').on('r.deleted_at', 'is', null))
    .select([
      'u.id',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.role_id',
      'u.team_id',
      'u.realtime_key',
      'u.preferences',
      'r.slug as role_slug',
      'r.name as role_name',
      'r.incognito as role_incognito',
      'r.permissions as role_permissions',
      sql<number[]>`coalesce((select array_agg(tu.team_id order by tu.team_id) from team_user tu where tu.user_id = u.id), '{}')`.as('team_ids'),
      sql<string | null>`(select i.first_name || ' ' || i.last_name from users i where i.id = ${impersonatorId})`.as('impersonator_name'),
    ])
    .where('u.id', '=', userId)
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const teamIds = (row.team_ids ?? []).map(Number);
  if (row.team_id && !teamIds.includes(row.team_id)) teamIds.unshift(row.team_id);
  const incognito = Boolean(row.role_incognito);
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    name: `${row.first_name} ${row.last_name}`.trim(),
    email: row.email,
    role: row.role_slug ? { id: row.role_id, slug: row.role_slug, name: row.role_name, incognito } : null,
    role_id: row.role_slug ? row.role_id : null,
    permissions: row.role_slug ? ((row.role_permissions as string[]) ?? []) : [],
    team_id: row.team_id,
    team_ids: teamIds,
    realtime_key: row.realtime_key,
    incognito,
    impersonator: impersonatorId && row.impersonator_name ? { id: impersonatorId, name: row.impersonator_name } : null,
    preferences: (row.preferences as Record<string, unknown> | null) ?? {},
  };
}
