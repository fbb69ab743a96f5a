/**
 * The permission rules of SPEC section 6, written once and used by the server (every endpoint, every row)
 * and the client (menus, buttons). A permission is `entity:action`, optionally `entity:action:category`.
 */

export interface PermissionSubject {
  role_id: number | null;
  team_id?: number | null;
  team_ids?: number[];
  permissions: readonly string[];
  incognito?: boolean;
}

/**
 * Exact match, or in prefix mode any held permission beginning with `permission`
 * (so `site:read` in prefix mode is satisfied by `site:read:union`).
 */
export function can(subject: PermissionSubject | null | undefined, permission: string, prefix = false): boolean {
  if (!subject) return false;
  if (prefix) return subject.permissions.some((held) => held === permission || held.startsWith(permission));
  return subject.permissions.includes(permission);
}

export function canAny(
  subject: PermissionSubject | null | undefined,
  permissions: readonly string[],
  prefix = false,
): boolean {
  return permissions.some((permission) => can(subject, permission, prefix));
}

export function canAll(
  subject: PermissionSubject | null | undefined,
  permissions: readonly string[],
  prefix = false,
): boolean {
  return permissions.every((permission) => can(subject, permission, prefix));
}

export function hasRole(subject: PermissionSubject | null | undefined, roleIds: number | readonly number[]): boolean {
  if (!subject || subject.role_id == null) return false;
  const wanted = Array.isArray(roleIds) ? roleIds : [roleIds as number];
  return wanted.includes(subject.role_id);
}

export function inTeam(subject: PermissionSubject | null | undefined, teamId: number): boolean {
  if (!subject) return false;
  return subject.team_id === teamId || (subject.team_ids ?? []).includes(teamId);
}

export function isIncognito(subject: PermissionSubject | null | undefined): boolean {
  return Boolean(subject?.incognito);
}

export const ACTIONS = ['create', 'read', 'update', 'delete', 'restore'] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * Categories whose read permission filters rows: `site:read:union` lets a person read sites of type union.
 * A person holding the bare `entity:read` reads every category.
 */
export const CATEGORY_PERMISSIONS: Record<string, readonly string[]> = {
  site: ['development', 'lcmt', 'non-union', 'pla', 'public-works', 'union'],
  contractor: ['union', 'non-union'],
};

/**
 * Which categories of `entity` the subject may perform `action` on: 'all' when it holds the bare permission,
 * otherwise the list of categories it holds (possibly empty).
 */
export function permittedCategories(
  subject: PermissionSubject | null | undefined,
  entity: string,
  action: Action = 'read',
): 'all' | string[] {
  if (can(subject, `${entity}:${action}`)) return 'all';
  const prefix = `${entity}:${action}:`;
  const categories = (subject?.permissions ?? [])
    .filter((held) => held.startsWith(prefix) && held !== TURF_PERMISSION)
    .map((held) => held.slice(prefix.length));
  // Turf alone reads every category of site, inside the turf (limitedToTurf: the row rule of sites says where).
  if (!categories.length && action === 'read' && entity === 'site' && limitedToTurf(subject)) return 'all';
  return categories;
}

/**
 * `site:read:turf`: a person holding it, and not the bare `site:read`, reads only the sites inside their turf (the
 * regions assigned to them or to a team of theirs), and with them only those sites' contractors, contacts, notes,
 * tasks and visits. It limits, whatever else is held: with `site:read:union` beside it, the union sites of the turf.
 */
export const TURF_PERMISSION = 'site:read:turf';

/** Is the subject's reading of sites (and of what hangs off them) limited to their turf? */
export function limitedToTurf(subject: PermissionSubject | null | undefined): boolean {
  return can(subject, TURF_PERMISSION) && !can(subject, 'site:read');
}

/**
 * Card holders' names. A campaign's cards (`campaign-card` records) name the workers who signed, which must not
 * reach an employer: reading them, in any read path (lists, shows, exports, search, history and the activity feed,
 * realtime, the assistant), takes the card type's read permission. Whoever reads campaigns without it sees their
 * counts only (the progress the server sends with each campaign).
 */
export const CARD_HOLDERS_PERMISSION = 'campaign-card:read';

/** May the subject see who signed a campaign's cards? */
export function seesCardHolders(subject: PermissionSubject | null | undefined): boolean {
  return can(subject, CARD_HOLDERS_PERMISSION);
}

/**
 * Naming someone else as the person who did the work a record tells of (a visit's "Logged by", a card's "Collected
 * by"): without it, that is always the signed-in person. Seeded for administrators and leaders.
 */
export const LOG_FOR_OTHERS_PERMISSION = 'user:log-for-others';

/** May the subject act on a record of this category (or at all, when the entity has no categories)? */
export function canOnCategory(
  subject: PermissionSubject | null | undefined,
  entity: string,
  action: Action,
  category: string | null | undefined,
): boolean {
  const allowed = permittedCategories(subject, entity, action);
  if (allowed === 'all') return true;
  if (!CATEGORY_PERMISSIONS[entity]) return false;
  return category != null && allowed.includes(category);
}

/** May the subject perform `action` on `entity` at all (bare permission or any category)? */
export function canOnEntity(subject: PermissionSubject | null | undefined, entity: string, action: Action): boolean {
  return can(subject, `${entity}:${action}`, true);
}

/**
 * The permissions of `permissions` the subject does not hold itself. Nobody hands out more than they hold: not in a
 * role they edit, not by giving someone a role, and not by managing an account or a role that holds more.
 */
export function ungrantable(subject: PermissionSubject | null | undefined, permissions: readonly string[]): string[] {
  // `site:create` covers `site:create:union`: the bare permission holds every category.
  const held = (permission: string) =>
    can(subject, permission) || can(subject, permission.split(':').slice(0, 2).join(':'));
  return permissions.filter((permission) => !held(permission));
}

/**
 * May the subject grant these permissions: put them in a role, give someone a role holding them, or manage (edit,
 * delete, impersonate, set the password of) an account or a role holding them? Only when it holds every one itself,
 * so an administrator never reaches a super administrator's account and nobody raises their own rights.
 */
export function canGrant(subject: PermissionSubject | null | undefined, permissions: readonly string[]): boolean {
  return Boolean(subject) && ungrantable(subject, permissions).length === 0;
}
