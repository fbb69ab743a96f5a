import { ACTIONS, CATEGORY_PERMISSIONS } from './permissions.js';

/** Every permission entity: one per resource of SPEC section 7, plus the non-resource areas. */
export const PERMISSION_ENTITIES = [
  'assistant-message',
  'assessment-level',
  'assistant-thread',
  'attachment',
  'automation',
  'building-type',
  'campaign',
  'campaign-card',
  'classification',
  'classification-type',
  'contact',
  'contact-status',
  'contractor',
  'contractor-type',
  'conversation',
  'conversation-outcome',
  'dispatch-type',
  'document',
  'export',
  'feature',
  'grievance',
  'import',
  'importer',
  'logic-block',
  'member',
  'note',
  'notification',
  'recruit',
  'region',
  'report',
  'revision',
  'role',
  'schema',
  'schema-field',
  'site',
  'site-phase',
  'site-status',
  'site-type',
  'tag',
  'task',
  'team',
  'trade',
  'union',
  'user',
  'view',
  'visit',
  'webhook',
] as const;

/** Permissions that are not entity:action pairs. */
export const SPECIAL_PERMISSIONS = [
  'user:impersonate',
  'system:grievances',
  'map:read',
  'revision:read:incognito',
  'site:read:turf',
  'user:log-for-others',
  // Sharing a saved view with roles and teams (docs/views.md); keeping one's own views is view:create.
  'view:share',
  // Texting or emailing the people of a list (docs/messages.md).
  'message:send',
] as const;

export function allPermissions(): string[] {
  const list = new Set<string>();
  for (const entity of PERMISSION_ENTITIES) for (const action of ACTIONS) list.add(`${entity}:${action}`);
  for (const [entity, categories] of Object.entries(CATEGORY_PERMISSIONS))
    for (const category of categories) list.add(`${entity}:read:${category}`);
  for (const special of SPECIAL_PERMISSIONS) list.add(special);
  return [...list].sort();
}
