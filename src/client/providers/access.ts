/**
 * react-admin access checks built on the shared permission rules (src/common/permissions.ts). The server
 * enforces the same rules; hiding things here is a convenience (DESIGN.md decision 5).
 */
import { CATEGORY_PERMISSIONS, canOnCategory, canOnEntity, type Action, type PermissionSubject } from '../../common/permissions';
import { typeForResource } from '../resources/names';

/** Screens every signed-in person may open (SPEC section 2: always in the sidebar). */
const ALWAYS_ALLOWED = new Set(['notifications', 'tasks', 'actions', 'dashboard', 'profile']);

/** react-admin's action names -> the permission actions. */
export function permissionAction(action: string): Action | string {
  switch (action) {
    case 'list':
    case 'show':
    case 'export':
    case 'read':
      return 'read';
    case 'create':
    case 'clone':
      return 'create';
    case 'edit':
    case 'update':
      return 'update';
    case 'delete':
      return 'delete';
    case 'restore':
      return 'restore';
    default:
      return action;
  }
}

/** The category of a record for category permissions (`site:read:union` reads sites of type union). */
function recordCategory(record: Record<string, unknown> | undefined): string | undefined {
  const value = record?.type ?? record?.category;
  return typeof value === 'string' ? value : undefined;
}

export function canAccessResource(
  subject: PermissionSubject | null | undefined,
  resource: string,
  action: string,
  record?: Record<string, unknown>,
): boolean {
  if (!subject) return false;
  if (ALWAYS_ALLOWED.has(resource)) return true;
  const entity = typeForResource(resource);
  // Not a record type (e.g. a custom screen): the server decides.
  if (!entity) return true;
  const act = permissionAction(action) as Action;
  if (record && CATEGORY_PERMISSIONS[entity]) {
    return canOnCategory(subject, entity, act, recordCategory(record));
  }
  return canOnEntity(subject, entity, act);
}
