import type { Kysely } from 'kysely';
import { canGrant, ungrantable } from '../../common/permissions.js';
import type { AuthUser } from '../auth/auth-user.js';
import { forbidden } from '../http/errors.js';

/**
 * Who may manage whom (docs/security.md): a person grants only permissions they hold themselves, in a role or by
 * giving someone a role; they manage (edit, delete, restore, set the password of, impersonate) only accounts and
 * roles that hold nothing more than they do; nobody changes their own role. Used by the users and roles resources
 * and by impersonation, so every way in is held by the same rules.
 */

/** The permissions of a role (none for no role, or a deleted one). */
export async function rolePermissions(db: Kysely<any>, roleId: number | null | undefined): Promise<string[]> {
  if (!roleId) return [];
  // A deleted role gives no permissions (auth/load-user.ts), so it asks for none.
  const row = await db
    .selectFrom('roles')
    .select('permissions')
    .where('id', '=', roleId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return (row?.permissions as string[] | undefined) ?? [];
}

const listed = (permissions: string[]) =>
  permissions.length > 3
    ? `${permissions.slice(0, 3).join(', ')} and ${permissions.length - 3} more`
    : permissions.join(', ');

/** Refuses (403) unless `actor` holds every permission of the account's role. */
export async function assertMayManageAccount(
  db: Kysely<any>,
  actor: AuthUser,
  account: { role_id?: number | null },
  doing: string,
) {
  const held = await rolePermissions(db, account.role_id);
  if (!canGrant(actor, held)) {
    throw forbidden(
      `You may not ${doing} this account: its role holds permissions you do not (${listed(ungrantable(actor, held))}).`,
    );
  }
}

/** Refuses (403) giving an account the role `roleId` unless `actor` holds every permission of that role. */
export async function assertMayGiveRole(db: Kysely<any>, actor: AuthUser, roleId: number) {
  const held = await rolePermissions(db, roleId);
  if (!canGrant(actor, held)) {
    throw forbidden(
      `You may not give this role: it holds permissions you do not (${listed(ungrantable(actor, held))}).`,
    );
  }
}

/** Refuses (403) a role whose permissions (before or after the change) go beyond what `actor` holds. */
export function assertMayGrantPermissions(actor: AuthUser, permissions: readonly string[], doing: string) {
  const missing = ungrantable(actor, permissions);
  if (missing.length)
    throw forbidden(`You may not ${doing} a role with permissions you do not hold yourself (${listed(missing)}).`);
}
