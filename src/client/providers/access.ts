/**
 * The one client-side access rule, behind `authProvider.canAccess` (so `useCanAccess`, `<CanAccess>` and
 * react-admin's own controllers all ask it), built on the shared permission rules (src/common/permissions.ts). The
 * server enforces the same rules; hiding things here is a convenience (DESIGN.md decision 5).
 *
 * - The resource names the permission entity (`sites` -> `site`; `reports` -> `report`).
 * - react-admin's action names map to permission actions (list/show/export -> read, edit -> update, ...); any other
 *   action is a permission of its own (`impersonate` on users -> `user:impersonate`).
 * - Record-level actions (show, edit, delete, restore, ...) on a record of a category entity check that record's
 *   category (`site:update:union`); resource-level ones (list, read, create, export) never look at a record, so
 *   asking "may they read contractors?" inside a site's page is not confused by the site.
 * - `list` is opening the screen: the notifications, tasks and activity screens are open to everyone; `read` is
 *   reading the records (a record's Tasks tab asks `read` on tasks).
 */
import {
  type Action,
  CATEGORY_PERMISSIONS,
  canOnCategory,
  canOnEntity,
  type PermissionSubject,
} from '../../common/permissions';
import { typeForResource } from '../resources/names';

/** Screens every signed-in person may open (SPEC section 2: always in the sidebar). */
const ALWAYS_LISTED = new Set(['notifications', 'tasks', 'actions', 'dashboard', 'profile']);

/** Permission areas that are not record types: resource name -> permission entity. */
const AREAS: Readonly<Record<string, string>> = { reports: 'report' };

/** Actions about the resource as a whole; the others are about one record. */
const RESOURCE_LEVEL = new Set(['list', 'read', 'create', 'export', 'clone']);

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
  if (ALWAYS_LISTED.has(resource) && action === 'list') return true;
  const act = permissionAction(action) as Action;
  const entity = typeForResource(resource) ?? AREAS[resource];
  // Not a record type (e.g. a custom screen): the server decides.
  if (!entity) return true;
  if (record && !RESOURCE_LEVEL.has(action) && CATEGORY_PERMISSIONS[entity]) {
    return canOnCategory(subject, entity, act, recordCategory(record));
  }
  return canOnEntity(subject, entity, act);
}
