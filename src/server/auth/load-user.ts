import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { RolePolicy } from '../../common/access-rules.js';
import type { DB } from '../db/schema.generated.js';
import type { AuthUser } from './auth-user.js';

/**
 * The columns of a signed-in person (role, permissions and teams) over `u` (users), with the role joined as `r`;
 * `impersonatorId` is the id of the person acting as them (a value, or a column of the query).
 */
function withAuthUser<Q extends SelectQueryBuilder<any, any, any>>(query: Q, impersonatorId: unknown): Q {
  return query
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
      'r.policy as role_policy',
      sql<
        number[]
      >`coalesce((select array_agg(tu.team_id order by tu.team_id) from team_user tu where tu.user_id = u.id), '{}')`.as(
        'team_ids',
      ),
      sql<string | null>`(select i.first_name || ' ' || i.last_name from users i where i.id = ${impersonatorId})`.as(
        'impersonator_name',
      ),
    ]) as Q;
}

/** The signed-in person with role, permissions and teams, in one query. */
export async function loadAuthUser(
  db: Kysely<DB>,
  userId: number,
  impersonatorId: number | null = null,
): Promise<AuthUser | null> {
  const row = await withAuthUser(db.selectFrom('users as u'), impersonatorId)
    .where('u.id', '=', userId)
    .where('u.deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? toAuthUser(row, impersonatorId) : null;
}

/**
 * A session's row and its signed-in person (null when the person is gone), in one query: every request reads them
 * (auth/sessions.ts), so a second query for the person would cost each request its own round trip.
 */
export async function loadSessionWithUser(
  db: Kysely<DB>,
  sessionId: string,
): Promise<{ row: Record<string, any>; user: AuthUser | null } | null> {
  const found = (await withAuthUser(
    db
      .selectFrom('sessions as s')
      .leftJoin('users as u', (join) => join.onRef('u.id', '=', 's.user_id').on('u.deleted_at', 'is', null)),
    sql.ref('s.impersonator_id'),
  )
    .select([
      's.user_id as session_user_id',
      's.impersonator_id as session_impersonator_id',
      's.remember as session_remember',
      's.last_activity_at as session_last_activity_at',
      's.expires_at as session_expires_at',
    ])
    .where('s.id', '=', sessionId)
    .executeTakeFirst()) as Record<string, any> | undefined;
  if (!found) return null;
  const row = {
    id: sessionId,
    user_id: found.session_user_id,
    impersonator_id: found.session_impersonator_id,
    remember: found.session_remember,
    last_activity_at: found.session_last_activity_at,
    expires_at: found.session_expires_at,
  };
  return { row, user: found.id === null ? null : toAuthUser(found, row.impersonator_id ?? null) };
}

function toAuthUser(row: Record<string, any>, impersonatorId: number | null): AuthUser {
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
    policy: row.role_slug ? ((row.role_policy as RolePolicy | null) ?? {}) : {},
    team_id: row.team_id,
    team_ids: teamIds,
    realtime_key: row.realtime_key,
    incognito,
    impersonator: impersonatorId && row.impersonator_name ? { id: impersonatorId, name: row.impersonator_name } : null,
    preferences: (row.preferences as Record<string, unknown> | null) ?? {},
  };
}
