import type { Kysely } from 'kysely';
import { type RolePolicy, rulesBeyond } from '../../common/access-rules.js';
import { ungrantable } from '../../common/permissions.js';
import type { AuthUser } from '../auth/auth-user.js';
import { storedJson } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import { forbidden } from '../http/errors.js';

/**
 * Who may manage whom (docs/security.md): a person grants only permissions they hold themselves, in a role or by
 * giving someone a role; they manage (edit, delete, restore, set the password of, impersonate) only accounts and
 * roles that hold nothing more than they do; nobody changes their own role. Used by the users and roles resources
 * and by impersonation, so every way in is held by the same rules.
 */

/** What a role grants: its permissions and its row and field rules. */
export interface Grant {
  permissions: readonly string[];
  policy?: RolePolicy | null;
}

/** The permissions and policy of a role (none for no role, or a deleted one). */
export async function roleGrant(db: Kysely<DB>, roleId: number | null | undefined): Promise<Grant> {
  if (!roleId) return { permissions: [], policy: {} };
  // A deleted role gives no permissions (auth/load-user.ts), so it asks for none.
  const row = await db
    .selectFrom('roles')
    .select(['permissions', 'policy'])
    .where('id', '=', roleId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return {
    permissions: storedJson<string[] | undefined>(row?.permissions) ?? [],
    policy: storedJson<RolePolicy | undefined>(row?.policy) ?? {},
  };
}

/** What of `grant` the actor does not hold: permission strings, then row and field rules wider than their own. */
export function beyondActor(actor: AuthUser, grant: Grant): string[] {
  return [...ungrantable(actor, grant.permissions), ...rulesBeyond(actor, grant)];
}

const listed = (permissions: string[]) =>
  permissions.length > 3
    ? `${permissions.slice(0, 3).join(', ')} and ${permissions.length - 3} more`
    : permissions.join(', ');

/** Refuses (403) unless `actor` holds every permission of the account's role. */
export async function assertMayManageAccount(
  db: Kysely<DB>,
  actor: AuthUser,
  account: { role_id?: number | null },
  doing: string,
) {
  const missing = beyondActor(actor, await roleGrant(db, account.role_id));
  if (missing.length)
    throw forbidden(`You may not ${doing} this account: its role holds permissions you do not (${listed(missing)}).`);
}

/** Refuses (403) giving an account the role `roleId` unless `actor` holds every permission of that role. */
export async function assertMayGiveRole(db: Kysely<DB>, actor: AuthUser, roleId: number) {
  const missing = beyondActor(actor, await roleGrant(db, roleId));
  if (missing.length)
    throw forbidden(`You may not give this role: it holds permissions you do not (${listed(missing)}).`);
}

/**
 * Refuses (403) a role whose permissions or rules (before or after the change) go beyond what `actor` holds: a
 * permission they lack, a row rule wider than their own (common/access-rules.ts rulesBeyond), a field they may not see
 * or change left open.
 */
export function assertMayGrant(actor: AuthUser, grant: Grant, doing: string) {
  const missing = beyondActor(actor, grant);
  if (missing.length)
    throw forbidden(`You may not ${doing} a role with permissions you do not hold yourself (${listed(missing)}).`);
}
