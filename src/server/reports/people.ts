import { type RawBuilder, sql } from 'kysely';
import { can } from '../../common/permissions.js';
import type { AuthUser } from '../auth/auth-user.js';

/** May this person see what users of incognito roles do? (`revision:read:incognito`) */
export const seesIncognito = (viewer: AuthUser) => can(viewer, 'revision:read:incognito');

/**
 * True for a user id (an SQL expression) whose actions the viewer may see: anyone's when the viewer holds
 * `revision:read:incognito`, else everyone's except users of incognito roles (one always sees oneself).
 * Null ids (the system) are visible.
 */
export function hiddenPeopleCondition(viewer: AuthUser, userId: RawBuilder<unknown>): RawBuilder<boolean> {
  if (seesIncognito(viewer)) return sql<boolean>`true`;
  return sql<boolean>`(${userId} is null or ${userId} = ${viewer.id} or not exists (
    select 1 from users iu join roles ir on ir.id = iu.role_id where iu.id = ${userId} and ir.incognito))`;
}
