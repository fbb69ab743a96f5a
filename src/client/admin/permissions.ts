/**
 * The permission checklist as data: one row per entity (the catalogue of src/common plus record types created in
 * the app), one column per action, the category reads of sites and contractors, and the special permissions.
 * Pure, so it is unit tested (tests/unit/client/records-admin.test.ts).
 */
import { PERMISSION_ENTITIES, SPECIAL_PERMISSIONS } from '../../common/permission-catalogue';
import { ACTIONS, CATEGORY_PERMISSIONS } from '../../common/permissions';
import { pluralizeSlug } from '../../common/schema-types';
import { titleCase } from '../i18n/labels';

export interface PermissionRow {
  entity: string;
  label: string;
  /** The action permissions of the row (`site:create`...). */
  permissions: string[];
  /** Category reads (`site:read:union`...). */
  categories: Array<{ permission: string; category: string }>;
}

export interface PermissionGroup {
  title: string;
  rows: PermissionRow[];
}

const GROUPS: Array<[string, readonly string[]]> = [
  [
    'Organizing records',
    ['site', 'contractor', 'contact', 'member', 'recruit', 'grievance', 'visit', 'campaign', 'campaign-card'],
  ],
  ['Work on records', ['task', 'note', 'document', 'attachment', 'tag', 'notification']],
  [
    'Reference lists',
    [
      'building-type',
      'classification',
      'classification-type',
      'contact-status',
      'contractor-type',
      'dispatch-type',
      'region',
      'site-phase',
      'site-status',
      'site-type',
      'trade',
      'union',
      'team',
    ],
  ],
  ['Data in and out', ['import', 'importer', 'export', 'report', 'revision']],
  ['Administration', ['user', 'role', 'feature', 'schema', 'schema-field', 'logic-block']],
  ['Assistant', ['assistant-thread', 'assistant-message']],
];

export function permissionRow(entity: string, label?: string): PermissionRow {
  return {
    entity,
    label: label ?? titleCase(pluralizeSlug(entity).replace(/-/g, ' ')),
    permissions: ACTIONS.map((action) => `${entity}:${action}`),
    categories: (CATEGORY_PERMISSIONS[entity] ?? []).map((category) => ({
      category,
      permission: `${entity}:read:${category}`,
    })),
  };
}

/** Groups of rows; `labels` names entities (schema plurals); `extraEntities` are record types made in the app. */
export function permissionGroups(
  labels: Record<string, string> = {},
  extraEntities: readonly string[] = [],
): PermissionGroup[] {
  const known = new Set<string>(PERMISSION_ENTITIES);
  const placed = new Set<string>();
  const groups: PermissionGroup[] = GROUPS.map(([title, entities]) => ({
    title,
    rows: entities
      .filter((entity) => known.has(entity))
      .map((entity) => {
        placed.add(entity);
        return permissionRow(entity, labels[entity]);
      }),
  }));
  const others = PERMISSION_ENTITIES.filter((entity) => !placed.has(entity));
  const custom = extraEntities.filter((entity) => !placed.has(entity) && !known.has(entity));
  if (custom.length)
    groups.push({
      title: 'Record types created here',
      rows: custom.map((entity) => permissionRow(entity, labels[entity])),
    });
  if (others.length)
    groups.push({ title: 'Other', rows: others.map((entity) => permissionRow(entity, labels[entity])) });
  return groups.filter((group) => group.rows.length > 0);
}

export const SPECIAL_LABELS: Record<string, string> = {
  'user:impersonate': 'Sign in as another user (impersonate)',
  'system:grievances': 'Use grievances (system area)',
  'map:read': 'See the map',
  'revision:read:incognito': 'See the actions of incognito users in the history',
  'user:log-for-others':
    'Log work for others: name someone else as who logged a visit or collected a card (otherwise it is always themselves)',
  'site:read:turf':
    "Only their turf: read just the sites inside the regions assigned to them or their team, and those sites' contractors, contacts, notes, tasks and visits (unless they may read all sites)",
  'view:share': 'Share saved views with their role and teams',
  'message:send': 'Text or email the people of a list',
};

export const SPECIAL = SPECIAL_PERMISSIONS.map((permission) => ({
  permission,
  label: SPECIAL_LABELS[permission] ?? permission,
}));

/** Toggle one permission. */
export function toggle(held: readonly string[], permission: string, on: boolean): string[] {
  const set = new Set(held);
  if (on) set.add(permission);
  else set.delete(permission);
  return [...set].sort();
}

/** Toggle many at once (a whole row or column). */
export function toggleAll(held: readonly string[], permissions: readonly string[], on: boolean): string[] {
  const set = new Set(held);
  for (const permission of permissions) {
    if (on) set.add(permission);
    else set.delete(permission);
  }
  return [...set].sort();
}

/** 'all' | 'some' | 'none' of `permissions` held. */
export function coverage(held: ReadonlySet<string>, permissions: readonly string[]): 'all' | 'some' | 'none' {
  const count = permissions.filter((permission) => held.has(permission)).length;
  return count === 0 ? 'none' : count === permissions.length ? 'all' : 'some';
}
