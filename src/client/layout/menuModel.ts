/**
 * The sidebar of SPEC section 2 as data, built from the person, the feature flags, the schemas and the
 * statistics. The desktop sidebar and the mobile drawer render the same model (which is how the drawer's
 * Grievances link goes to grievances; the original pointed it at members, see docs/client.md).
 */
import {
  CATEGORY_PERMISSIONS,
  can,
  canAny,
  canOnEntity,
  type PermissionSubject,
  permittedCategories,
} from '../../common/permissions';
import { TYPE_LABELS, titleCase } from '../i18n/labels';
import { isFeatureEnabled, schemaFor } from '../system/mainData';
import type { Feature, Schema, Statistics } from '../system/types';

export type MenuIcon =
  | 'dashboard'
  | 'activity'
  | 'tasks'
  | 'notifications'
  | 'map'
  | 'contacts'
  | 'contractors'
  | 'sites'
  | 'recruits'
  | 'members'
  | 'grievances'
  | 'visits'
  | 'campaigns'
  | 'conversations'
  | 'callLists'
  | 'messages'
  | 'imports'
  | 'system'
  | 'admin'
  | 'profile'
  | 'signOut'
  | 'category'
  | 'records'
  | 'assistant'
  | 'reports';

export interface MenuItem {
  key: string;
  label: string;
  /** Route; absent for actions (Sign Out) and groups. */
  to?: string;
  icon: MenuIcon;
  badge?: number;
  children?: MenuItem[];
  /** Not a route: Sign Out, or opening the assistant's side panel over the page. */
  action?: 'signOut' | 'assistant';
}

export interface MenuModel {
  main: MenuItem[];
  admin: MenuItem[];
  bottom: MenuItem[];
}

/** A saved view the person may read (GET /api/views), listed under its record type. */
export interface MenuView {
  id: number;
  name: string;
  record_type: string;
  url: string | null;
}

export interface MenuInput {
  user: PermissionSubject | null;
  /** Saved views, each shown under its type's entry. */
  views?: readonly MenuView[];
  features: readonly Feature[];
  schemas: readonly Schema[];
  statistics: Statistics;
  /** translate(key) for the built-in labels; returns the English default when absent. */
  translate?: (key: string, fallback: string) => string;
  /** The entries the feature folders add (ClientFeature.menuItems), after Imports, in the folders' order. */
  featureItems?: readonly FeatureMenuItems[];
}

/** What a feature folder offers this person in the main list (the reports' group), as the server would answer them. */
export interface FeatureMenuContext {
  user: PermissionSubject | null;
  features: readonly Feature[];
  translate: (key: string, fallback: string) => string;
}
export type FeatureMenuItems = (context: FeatureMenuContext) => readonly MenuItem[];

/** Reference types whose create permission shows the admin section (SPEC section 2). */
export const ADMIN_CREATE_PERMISSIONS = [
  'building-type:create',
  'classification:create',
  'classification-type:create',
  'dispatch-type:create',
  'site-phase:create',
  'site-status:create',
  'trade:create',
  'union:create',
] as const;
export const ADMIN_READ_PERMISSIONS = ['role:read', 'user:read'] as const;

/** Admin items: [record type, route, built-in label]; each shown with its read permission. */
const ADMIN_ITEMS: ReadonlyArray<readonly [string, string, string]> = [
  ['building-type', '/building-types', 'Building Types'],
  ['classification', '/classifications', 'Classifications'],
  ['classification-type', '/classification-types', 'Classification Types'],
  ['dispatch-type', '/dispatch-types', 'Dispatch Types'],
  ['trade', '/crafts', 'Crafts'],
  ['union', '/unions', 'Unions'],
  ['site-phase', '/site-phases', 'Site Phases'],
  ['site-status', '/site-statuses', 'Site Statuses'],
  ['contact-status', '/contact-statuses', 'Contact Statuses'],
  ['conversation-outcome', '/conversation-outcomes', 'Conversation Outcomes'],
  ['assessment-level', '/assessment-levels', 'Assessment Levels'],
  ['tag', '/tags', 'Tags'],
  ['team', '/teams', 'Teams'],
  ['feature', '/features', 'Features'],
  ['schema', '/schemas', 'Schemas'],
  ['importer', '/importers', 'Importers'],
  ['revision', '/revisions', 'History'],
  ['role', '/roles', 'Roles'],
  ['user', '/users', 'Users'],
  ['automation', '/automations', 'Automations'],
  ['webhook', '/webhooks', 'Webhooks'],
];

const SITE_CATEGORIES = CATEGORY_PERMISSIONS.site ?? [];
const CONTRACTOR_CATEGORIES = ['union', 'non-union'] as const;

export function filterLink(resource: string, filter: Record<string, unknown>): string {
  return `/${resource}?filter=${encodeURIComponent(JSON.stringify(filter))}`;
}

/** The record type of each main entry that lists one (views are shown under it). */
const ENTRY_TYPES: Readonly<Record<string, string>> = {
  contacts: 'contact',
  contractors: 'contractor',
  sites: 'site',
  recruits: 'recruit',
  members: 'member',
  grievances: 'grievance',
  visits: 'visit',
  conversations: 'conversation',
  campaigns: 'campaign',
};

/**
 * The saved views of each record type under its entry: an entry that was a link becomes a group whose first child
 * is that link ("All ..."), then its views by name.
 */
function withViews(items: MenuItem[], views: readonly MenuView[]): MenuItem[] {
  if (!views.length) return items;
  return items.map((item) => {
    const type = ENTRY_TYPES[item.key] ?? (item.key.startsWith('records-') ? item.key.slice(8) : null);
    const mine = type ? views.filter((view) => view.record_type === type && view.url) : [];
    if (!mine.length) return item;
    const children: MenuItem[] = [...mine]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((view) => ({ key: `view-${view.id}`, label: view.name, to: view.url!, icon: 'category' as const }));
    if (item.children) return { ...item, children: [...item.children, ...children] };
    const { to, badge: _badge, ...group } = item;
    return {
      ...group,
      children: [{ key: `${item.key}-all`, label: `All ${item.label}`, to, icon: 'category' }, ...children],
    };
  });
}

export function buildMenu(input: MenuInput): MenuModel {
  const model = buildMenuEntries(input);
  return { ...model, main: withViews(model.main, input.views ?? []) };
}

function buildMenuEntries({ user, features, schemas, statistics, translate, featureItems = [] }: MenuInput): MenuModel {
  const t = (key: string, fallback: string) => (translate ? translate(key, fallback) : fallback);
  const schemaLabel = (type: string, fallback: string) => {
    const name = schemaFor(schemas, type)?.name_plural;
    return name ? titleCase(name) : fallback;
  };
  const feature = (slug: string) => isFeatureEnabled(features, slug);
  const reads = (entity: string) => canOnEntity(user, entity, 'read');
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

  const main: MenuItem[] = [
    { key: 'dashboard', label: t('app.menu.dashboard', 'Dashboard'), to: '/', icon: 'dashboard' },
    { key: 'activity', label: t('app.menu.activity', 'Activity'), to: '/actions', icon: 'activity' },
    {
      key: 'tasks',
      label: t('app.menu.tasks', 'Tasks'),
      to: '/tasks',
      icon: 'tasks',
      badge: count(statistics.tasks_open),
    },
    {
      key: 'notifications',
      label: t('app.menu.notifications', 'Notifications'),
      to: '/notifications',
      icon: 'notifications',
      badge: count(statistics.notifications_unread),
    },
  ];

  if (feature('assistant') && reads('assistant-thread'))
    main.push({
      key: 'assistant',
      label: t('app.menu.assistant', 'Assistant'),
      icon: 'assistant',
      action: 'assistant',
    });
  if (feature('map') && can(user, 'map:read'))
    main.push({ key: 'map', label: t('app.menu.map', 'Map'), to: '/map', icon: 'map' });
  if (reads('contact'))
    main.push({
      key: 'contacts',
      label: schemaLabel('contact', t('app.menu.contacts', 'Contacts')),
      to: '/contacts',
      icon: 'contacts',
    });

  if (feature('contractors')) {
    const allowed = permittedCategories(user, 'contractor', 'read');
    const categories = CONTRACTOR_CATEGORIES.filter((category) => allowed === 'all' || allowed.includes(category));
    if (categories.length > 0) {
      main.push({
        key: 'contractors',
        label: schemaLabel('contractor', t('app.menu.contractors', 'Contractors')),
        icon: 'contractors',
        children: categories.map((category) => ({
          key: `contractors-${category}`,
          label: t(`type.${category}`, TYPE_LABELS[category] ?? category),
          to: filterLink('contractors', { type: category }),
          icon: 'category' as const,
        })),
      });
    }
  }

  if (feature('sites')) {
    const allowed = permittedCategories(user, 'site', 'read');
    const categories = SITE_CATEGORIES.filter((category) => allowed === 'all' || allowed.includes(category));
    if (categories.length > 0) {
      main.push({
        key: 'sites',
        label: schemaLabel('site', t('app.menu.sites', 'Job Sites')),
        icon: 'sites',
        children: categories.map((category) => ({
          key: `sites-${category}`,
          label: t(`type.${category}`, TYPE_LABELS[category] ?? category),
          to: filterLink('sites', { type: category }),
          icon: 'category' as const,
        })),
      });
    }
  }

  if (reads('recruit'))
    main.push({
      key: 'recruits',
      label: schemaLabel('recruit', t('app.menu.recruits', 'Recruits')),
      to: '/recruits',
      icon: 'recruits',
    });
  if (reads('member'))
    main.push({
      key: 'members',
      label: schemaLabel('member', t('app.menu.members', 'Members')),
      to: '/members',
      icon: 'members',
    });
  if (feature('grievances') && reads('grievance')) {
    main.push({
      key: 'grievances',
      label: schemaLabel('grievance', t('app.menu.grievances', 'Grievances')),
      to: '/grievances',
      icon: 'grievances',
    });
  }
  if (feature('sites') && reads('visit'))
    main.push({
      key: 'visits',
      label: schemaLabel('visit', t('app.menu.visits', 'Site visits')),
      to: '/visits',
      icon: 'visits',
    });
  if (reads('conversation'))
    main.push({
      key: 'conversations',
      label: schemaLabel('conversation', t('app.menu.conversations', 'Conversations')),
      to: '/conversations',
      icon: 'conversations',
    });
  if (can(user, 'conversation:create') && (reads('contact') || reads('recruit') || reads('member')))
    main.push({
      key: 'call-lists',
      label: t('app.menu.callLists', 'Call lists'),
      to: '/call-lists',
      icon: 'callLists',
    });
  if (can(user, 'message:send') && (reads('contact') || reads('recruit') || reads('member')))
    main.push({
      key: 'messages',
      label: t('app.menu.messages', 'Texts and emails'),
      to: '/messages',
      icon: 'messages',
    });
  if (reads('campaign'))
    main.push({
      key: 'campaigns',
      label: schemaLabel('campaign', t('app.menu.campaigns', 'Campaigns')),
      to: '/campaigns',
      icon: 'campaigns',
    });
  // Record types created in the app (schema editor) get their own entry.
  for (const schema of schemas) {
    if ((schema as { built_in?: boolean }).built_in !== false || !reads(schema.type)) continue;
    const resource = (schema as { resource?: string }).resource ?? `${schema.type}s`;
    main.push({
      key: `records-${schema.type}`,
      label: titleCase(schema.name_plural || schema.type),
      to: `/${resource}`,
      icon: 'records',
    });
  }
  if (reads('import'))
    main.push({ key: 'imports', label: t('app.menu.imports', 'Imports'), to: '/imports', icon: 'imports' });
  for (const items of featureItems) main.push(...items({ user, features, translate: t }));
  // System opens the users page: offered only to those who may read users.
  if (feature('system') && reads('user'))
    main.push({ key: 'system', label: t('app.menu.system', 'System'), to: '/users', icon: 'system' });

  const showAdmin = canAny(user, ADMIN_CREATE_PERMISSIONS) || canAny(user, ADMIN_READ_PERMISSIONS);
  const admin: MenuItem[] = showAdmin
    ? ADMIN_ITEMS.filter(([type]) => reads(type)).map(([type, to, fallback]) => ({
        key: `admin-${type}`,
        label: schemaLabel(type, fallback),
        to,
        icon: 'admin' as const,
      }))
    : [];
  // Public forms are published by those who may change schemas, as the server checks (docs/public-forms.md).
  if (can(user, 'schema:update'))
    admin.push({
      key: 'admin-public-forms',
      label: t('app.menu.public_forms', 'Public Forms'),
      to: '/public-forms',
      icon: 'admin',
    });

  const bottom: MenuItem[] = [
    { key: 'profile', label: t('app.menu.profile', 'Profile'), to: '/settings', icon: 'profile' },
    { key: 'sign-out', label: t('app.menu.sign_out', 'Sign Out'), icon: 'signOut', action: 'signOut' },
  ];

  return { main, admin, bottom };
}

/** Exposed for the admin section test: is the section shown at all? */
export function showsAdminSection(user: PermissionSubject | null): boolean {
  return canAny(user, ADMIN_CREATE_PERMISSIONS) || can(user, 'role:read') || can(user, 'user:read');
}

function isActive(item: MenuItem, pathname: string, search: string): boolean {
  if (!item.to) return false;
  const [path, query] = item.to.split('?');
  if (query) return pathname === path && decodeURIComponent(search.slice(1)).includes(decodeURIComponent(query));
  return path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);
}

/**
 * The keys of the entries the location makes active (an entry with a query in its link when the URL's query holds
 * it), as one string: the menu's entries get it from MenuList, the one reader of the location, and render again only
 * when it changes (not when a list's page or sort changes the URL).
 */
export function activeKeys(items: MenuItem[], pathname: string, search: string): string {
  const keys: string[] = [];
  const walk = (item: MenuItem) => {
    if (isActive(item, pathname, search)) keys.push(item.key);
    item.children?.forEach(walk);
  };
  items.forEach(walk);
  return keys.join('\n');
}
