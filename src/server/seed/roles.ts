import type { RolePolicy } from '../../common/access-rules.js';
import { allPermissions, PERMISSION_ENTITIES } from '../../common/permission-catalogue.js';

const crud = (entities: readonly string[], actions: readonly string[]) =>
  entities.flatMap((e) => actions.map((a) => `${e}:${a}`));

const ORGANIZING = [
  'site',
  'contractor',
  'contact',
  'member',
  'recruit',
  'grievance',
  'visit',
  'conversation',
  'campaign',
  'campaign-card',
  'task',
  'note',
  'document',
  'attachment',
  'tag',
  'import',
  'export',
];
const REFERENCE = [
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
  'conversation-outcome',
  'assessment-level',
];
// Conversations with the assistant are private (only their maker reads them): everyone may keep their own.
const ASSISTANT = crud(['assistant-thread', 'assistant-message'], ['create', 'read', 'delete', 'restore']).concat(
  'assistant-thread:update',
);
// Everyone keeps views of their own (docs/views.md); sharing them is view:share.
const VIEWS = crud(['view'], ['create', 'read', 'update', 'delete', 'restore']);
const EVERYONE = [
  'feature:read',
  'notification:read',
  'notification:update',
  'notification:delete',
  'schema:read',
  ...ASSISTANT,
  ...VIEWS,
];

/** Organizers change and delete only the work they wrote or are assigned: notes, tasks, documents (issue 31 point 5). */
const OWN_WORK_ONLY: RolePolicy = Object.fromEntries(
  ['note', 'task', 'document', 'attachment'].map((type) => [type, { update: 'own', delete: 'own' }]),
);

/** The row and field rules of the seeded roles (common/access-rules.ts), by slug; the others have none. */
export const SEEDED_POLICIES: Record<string, RolePolicy> = { user: OWN_WORK_ONLY };

/**
 * The seeded roles (SPEC section 6). `super` holds every permission; `admin` every one but feature switches
 * and impersonation; `leader` runs organizing work and reports; `user` (named Organizer) works records without
 * deleting reference data; `assistant` reads only union and PLA sites and union contractors: the seeded
 * example of category permissions filtering rows.
 */
export function seededRoles() {
  const all = allPermissions();
  return [
    { slug: 'super', name: 'Super Administrator', incognito: true, permissions: all },
    {
      slug: 'admin',
      name: 'Administrator',
      incognito: false,
      permissions: all.filter(
        (p) => !['user:impersonate', 'feature:create', 'feature:delete', 'revision:read:incognito'].includes(p),
      ),
    },
    {
      slug: 'leader',
      name: 'Leader',
      incognito: false,
      permissions: [
        ...EVERYONE,
        ...crud(ORGANIZING, ['create', 'read', 'update', 'delete', 'restore']),
        ...crud(REFERENCE, ['read']),
        'user:read',
        'report:read',
        'revision:read',
        'importer:read',
        'map:read',
        'system:grievances',
        // Leaders record the cards their organizers collected, and visits made by others.
        'user:log-for-others',
        'view:share',
        'message:send',
      ],
    },
    {
      slug: 'user',
      name: 'Organizer',
      incognito: false,
      permissions: [
        ...EVERYONE,
        ...crud(
          ['site', 'contractor', 'contact', 'member', 'recruit', 'grievance', 'visit', 'conversation', 'tag'],
          ['create', 'read', 'update'],
        ),
        ...crud(['task', 'note', 'document', 'attachment'], ['create', 'read', 'update', 'delete']),
        // Organizers follow a campaign's counts; who signed is for those holding campaign-card:read (leaders).
        'campaign:read',
        ...crud(REFERENCE, ['read']),
        // Organizers bring in the weekly vendor CSV themselves.
        'import:read',
        'import:create',
        'importer:read',
        'export:create',
        'map:read',
        'report:read',
        'system:grievances',
      ],
    },
    {
      slug: 'assistant',
      name: 'Assistant',
      incognito: false,
      permissions: [
        ...EVERYONE,
        'site:read:union',
        'site:read:pla',
        'contractor:read:union',
        'contact:read',
        'task:read',
        'note:read',
        'note:create',
        'map:read',
        ...crud(REFERENCE, ['read']),
      ],
    },
  ].map((role) => ({
    ...role,
    permissions: [...new Set(role.permissions)].sort(),
    policy: SEEDED_POLICIES[role.slug] ?? {},
  }));
}

export { PERMISSION_ENTITIES };
