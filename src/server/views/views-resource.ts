import type { Transaction } from 'kysely';
import { z } from 'zod';
import { can } from '../../common/permissions.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import { fieldError } from '../http/errors.js';
import type { ResourceDefinition, WriteContext } from '../records/resource.js';
import { ref } from '../schemas/schema-backed.js';

/** The layouts a view shows its records in (the grid, and the layouts of issue 32 point 4). */
export const VIEW_LAYOUTS = ['grid', 'kanban', 'calendar', 'gallery', 'map'] as const;

const fieldName = z.string().min(1).max(100);
/** Several sorts, the first deciding first. */
export const viewSorts = z
  .array(z.object({ field: fieldName, order: z.enum(['asc', 'desc']) }).strict())
  .max(5, 'A view has at most 5 sorts.');
/** The visible columns in order, with their widths. */
export const viewColumns = z
  .array(z.object({ field: fieldName, width: z.number().int().min(20).max(2000).optional() }).strict())
  .max(200);
/** The layout's own settings (the kanban's field, the calendar's date field...). */
export const viewSettings = z.record(z.string().max(60), z.unknown());

const ids = (table: string, pivot: string, otherKey: string, label: string) => ({
  kind: 'integer[]' as const,
  label,
  references: { table, softDelete: true },
  storage: { pivot, ownKey: 'view_id', otherKey },
});

/**
 * Who may share a view with these roles and teams: a person holding view:share, with their own role and teams; one
 * who manages roles (role:update, administrators), with any. Nobody shares beyond what they hold. Naming a role's
 * default view is for those who manage roles.
 */
function checkSharing(values: Record<string, unknown>, user: AuthUser | null) {
  if (!user) return;
  const manager = can(user, 'role:update');
  const roles = (values.role_ids as number[] | undefined) ?? [];
  const teams = (values.team_ids as number[] | undefined) ?? [];
  if ((roles.length || teams.length) && !can(user, 'view:share'))
    throw fieldError(roles.length ? 'role_ids' : 'team_ids', 'You do not have permission to share views.');
  if (!manager) {
    if (roles.some((id) => id !== user.role_id))
      throw fieldError('role_ids', 'You may share a view with your own role only.');
    const mine = new Set([...(user.team_ids ?? []), ...(user.team_id ? [user.team_id] : [])]);
    if (teams.some((id) => !mine.has(id)))
      throw fieldError('team_ids', 'You may share a view with your own teams only.');
    if (((values.default_role_ids as number[] | undefined) ?? []).length)
      throw fieldError('default_role_ids', "Only those who manage roles set a role's default view.");
  }
}

/** Nobody shares a view with a team they cannot see: each team named must be one the person reads (422 otherwise). */
async function checkTeamsSeen(values: Record<string, unknown>, ctx: WriteContext) {
  const teams = (values.team_ids as number[] | undefined) ?? [];
  const def = teams.length ? ctx.records.targetOf({ table: 'teams' }) : undefined;
  if (!def || !ctx.user) return;
  const seen = ctx.records.access.mayRead(ctx.user, def)
    ? await (await ctx.records.visibleRows(ctx.trx, def, ctx.user)).select('t.id').where('t.id', 'in', teams).execute()
    : [];
  const found = new Set(seen.map((row) => Number(row.id)));
  const unseen = teams.filter((id) => !found.has(id));
  if (unseen.length) throw fieldError('team_ids', `There is no team ${unseen.join(', ')} you may see.`);
}

/**
 * One default view per role and record type: a view written as the default of some roles stops the other views of its
 * type being theirs, in the write's transaction (the default moves; the other views stay shared as they were).
 */
async function keepOneDefaultPerRole(trx: Transaction<DB>, view: Record<string, unknown>, roles: number[]) {
  if (!roles.length) return;
  await trx
    .deleteFrom('view_role_defaults')
    .where('role_id', 'in', roles)
    .where('view_id', '!=', Number(view.id))
    .where('view_id', 'in', (others) =>
      others.selectFrom('views').select('id').where('record_type', '=', String(view.record_type)),
    )
    .execute();
}

/**
 * Saved views (docs/views.md): a named way of looking at one record type: its filters (the one filter structure,
 * filters/filter-tree.ts), sorts, grouping, columns, layout and the layout's settings. Read by its owner and by the
 * roles and teams it is shared with (or is the default view of), changed by its owner alone (common/access-rules.ts
 * SHARED_TYPES). Created and updated through views/view-routes.ts, which checks the record type and the filters
 * against what the person may read; `view=<id>` applies it to a list, count or export (records/record-service.ts).
 */
export const viewsResource: ResourceDefinition = {
  name: 'views',
  type: 'view',
  table: 'views',
  singular: 'View',
  fields: {
    name: { kind: 'text', required: true, max: 100 },
    record_type: {
      kind: 'text',
      required: true,
      max: 60,
      label: 'record type',
      pattern: /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
      patternMessage: 'The record type is named by its slug, like "site".',
    },
    layout: { kind: 'enum', options: VIEW_LAYOUTS, default: 'grid' },
    filters: { kind: 'json', max: 50_000, sortable: false, filterable: false },
    sorts: { kind: 'json', max: 5_000, shape: viewSorts, sortable: false, filterable: false },
    columns: { kind: 'json', max: 20_000, shape: viewColumns, sortable: false, filterable: false },
    group_by: { kind: 'text', max: 100, label: 'grouping' },
    settings: { kind: 'json', max: 20_000, shape: viewSettings, sortable: false, filterable: false },
    user_id: { ...ref('users', 'owner'), min: 1 },
    role_ids: ids('roles', 'view_roles', 'role_id', 'shared with roles'),
    team_ids: ids('teams', 'view_teams', 'team_id', 'shared with teams'),
    default_role_ids: ids('roles', 'view_role_defaults', 'role_id', 'default view of roles'),
  },
  readOnly: ['user_id', 'url', 'shared'],
  search: ['name'],
  defaultSort: { field: 'name', order: 'asc' },
  softDelete: true,
  restorable: true,
  ownRoutes: ['create', 'update'],
  hooks: {
    async beforeWrite(values, ctx) {
      checkSharing(values, ctx.user);
      await checkTeamsSeen(values, ctx);
      if (ctx.action === 'create') values.user_id = ctx.user?.id ?? null;
      if (ctx.action === 'update' && 'record_type' in values && values.record_type !== ctx.existing?.record_type)
        throw fieldError('record_type', 'A view keeps its record type: save a new view for another type.');
      return values;
    },
    async afterWrite(record, ctx) {
      const roles = ctx.values?.default_role_ids;
      if ((ctx.action === 'create' || ctx.action === 'update') && Array.isArray(roles))
        await keepOneDefaultPerRole(ctx.trx, record, roles);
    },
    /** `url`: where the view opens in the app (its type's list with `?view=<id>`); `shared`: with anyone. */
    async present(records, db) {
      const types = [...new Set(records.map((record) => record.record_type))];
      const found = types.length
        ? await db.selectFrom('schemas').select(['type', 'resource']).where('type', 'in', types).execute()
        : [];
      const resources = new Map(found.map((row) => [row.type, row.resource]));
      for (const record of records) {
        const resource = resources.get(record.record_type);
        record.url = resource ? `/${resource}?view=${record.id}` : null;
        record.shared = Boolean(record.role_ids?.length || record.team_ids?.length);
      }
    },
  },
};
