import { sql } from 'kysely';
import type { MarkerCard } from '../../common/map-types.js';
import { canOnEntity } from '../../common/permissions.js';
import { taskTypeLabel } from '../../common/task-types.js';
import { masked } from '../access/policy.js';
import { revisionVisibility } from '../activity/visibility.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { notFound } from '../http/errors.js';
import type { ResourceDefinition } from '../records/resource.js';
import { contractorsDefinition, sitesDefinition } from './definitions.js';

const address = (r: Record<string, any>) => {
  const line = [r.street, r.city, [r.state, r.postal_code].filter(Boolean).join(' ')]
    .filter((p) => p && String(p).trim())
    .join(', ');
  return line || null;
};

/**
 * The latest of: a note on the record, a task on it (created or done), a change to it. Each through its own
 * read rules: notes and tasks through the record service (a person without note:read sees no note), changes
 * through the history's visibility (an incognito person's changes stay hidden).
 */
async function lastActivity(
  ctx: AppContext,
  user: AuthUser,
  type: 'site' | 'contractor',
  id: number,
): Promise<MarkerCard['last_activity']> {
  const candidates: Array<{ at: Date; kind: 'note' | 'task' | 'change'; summary: string }> = [];
  const notes = ctx.resources.byType('note');
  if (!notes || mayRead(user, notes)) {
    const base = notes
      ? await ctx.records.visibleRows(ctx.db, notes, user)
      : ctx.db.selectFrom('notes as t').where('t.deleted_at', 'is', null);
    // A note's text the role hides is not shown: the card says only that there was a note.
    const body =
      notes && (await hiddenOf(ctx, user, notes)).has('body') ? sql<string>`'Note'` : sql<string>`left(t.body, 140)`;
    const note = await base
      .select(['t.created_at as at', body.as('summary')])
      .where('t.notable_type', '=', type)
      .where('t.notable_id', '=', id)
      .orderBy('t.created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (note) candidates.push({ at: note.at as Date, kind: 'note', summary: note.summary });
  }
  const tasks = ctx.resources.byType('task');
  if (!tasks || mayRead(user, tasks)) {
    const base = tasks
      ? await ctx.records.visibleRows(ctx.db, tasks, user)
      : ctx.db.selectFrom('tasks as t').where('t.deleted_at', 'is', null);
    const task = await base
      .select([sql<Date>`coalesce(t.completed_at, t.created_at)`.as('at'), 't.type', 't.title', 't.completed_at'])
      .where('t.taskable_type', '=', type)
      .where('t.taskable_id', '=', id)
      .orderBy(sql`coalesce(t.completed_at, t.created_at)`, 'desc')
      .limit(1)
      .executeTakeFirst();
    if (task) {
      const title = tasks && (await hiddenOf(ctx, user, tasks)).has('title') ? '' : `: ${task.title}`;
      candidates.push({
        at: task.at,
        kind: 'task',
        summary: `${taskTypeLabel(task.type as string)}${title}${task.completed_at ? ' (done)' : ''}`,
      });
    }
  }
  const change = await ctx.db
    .selectFrom('revisions as r')
    .select(['r.created_at as at', sql<string>`initcap(r.action)`.as('summary')])
    .where('r.revisionable_type', '=', type)
    .where('r.revisionable_id', '=', id)
    .where(await revisionVisibility(ctx, user, 'r'))
    .orderBy('r.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (change) candidates.push({ at: change.at, kind: 'change', summary: change.summary });
  candidates.sort((x, y) => new Date(y.at).getTime() - new Date(x.at).getTime());
  const first = candidates[0];
  return first ? { at: new Date(first.at).toISOString(), kind: first.kind, summary: first.summary } : null;
}

/** The fields of `def` the person's role hides. */
async function hiddenOf(ctx: AppContext, user: AuthUser, def: ResourceDefinition) {
  return (await ctx.records.access.mask(user, def)).hidden;
}

/** The record as the person may see it: the fields their role hides taken out (the card shows them as missing). */
async function maskedRow(ctx: AppContext, user: AuthUser, def: ResourceDefinition, row: Record<string, any>) {
  return masked([row], await ctx.records.access.mask(user, def))[0];
}

/** The values of the record's current custom fields the person may see (a key left behind by a deleted field is not one). */
async function customValues(
  ctx: AppContext,
  user: AuthUser,
  def: ResourceDefinition,
  row: Record<string, any>,
): Promise<Record<string, unknown>> {
  const stored = (row.custom ?? {}) as Record<string, unknown>;
  const fields = await ctx.records.visibleFields(user, def);
  return Object.fromEntries(
    Object.entries(stored).filter(
      ([slug, value]) => fields[slug]?.storage === 'custom' && value !== null && value !== undefined,
    ),
  );
}

const mayRead = (user: AuthUser, def: ResourceDefinition) => canOnEntity(user, def.permission ?? def.type, 'read');

function actionsFor(resource: string, id: number): MarkerCard['actions'] {
  return [
    { name: 'open', label: 'Open', href: `/${resource}/${id}/show`, resource, id },
    { name: 'panel', label: 'Open in side panel', href: `/${resource}/${id}/show`, resource, id },
  ];
}

/**
 * The card of one marker. The record is read through the record service's row rules, so a site or contractor
 * the person may not read answers 404 exactly like a missing one, and the contractors listed on a site are
 * only those the person may read.
 */
export async function markerCard(
  ctx: AppContext,
  user: AuthUser,
  kind: 'site' | 'contractor',
  id: number,
): Promise<MarkerCard> {
  const siteDef = sitesDefinition(ctx);
  const contractorDef = contractorsDefinition(ctx);
  if (kind === 'site') {
    ctx.records.authorize(user, siteDef, 'read');
    const found = await (await ctx.records.visibleRows(ctx.db, siteDef, user))
      .selectAll('t')
      .where('t.id', '=', id)
      .executeTakeFirst();
    if (!found) throw notFound(`No site has the id ${id}, or you may not read it.`);
    const site = await maskedRow(ctx, user, siteDef, found);
    const [status, phase] = await Promise.all([
      site.site_status_id
        ? ctx.db
            .selectFrom('site_statuses')
            .select(['id', 'name', 'color'])
            .where('id', '=', site.site_status_id)
            .executeTakeFirst()
        : null,
      site.site_phase_id
        ? ctx.db
            .selectFrom('site_phases')
            .select(['id', 'name'])
            .where('id', '=', site.site_phase_id)
            .executeTakeFirst()
        : null,
    ]);
    const contractorHidden = await hiddenOf(ctx, user, contractorDef);
    const contractors: MarkerCard['contractors'] = mayRead(user, contractorDef)
      ? (
          await (
            await ctx.records.visibleRows(ctx.db, contractorDef, user)
          )
            .select(['t.id', 't.name', 't.type'])
            .where((eb) =>
              eb.or([
                eb('t.id', '=', site.general_contractor_id ?? -1),
                eb('t.id', 'in', eb.selectFrom('site_contractors').select('contractor_id').where('site_id', '=', id)),
              ]),
            )
            .orderBy('t.name')
            .execute()
        ).map((c: any) => ({
          id: c.id,
          name: contractorHidden.has('name') ? '' : c.name,
          type: contractorHidden.has('type') ? '' : c.type,
          role: c.id === site.general_contractor_id ? 'general' : 'trade',
        }))
      : [];
    return {
      kind: 'site',
      id: site.id,
      name: site.name ?? '',
      address: address(site),
      lat: site.latitude ?? null,
      lng: site.longitude ?? null,
      type: site.type ?? '',
      status: status ? { id: status.id, name: status.name, color: status.color ?? null } : null,
      phase: phase ? { id: phase.id, name: phase.name } : null,
      contractors,
      custom: await customValues(ctx, user, siteDef, site),
      last_activity: await lastActivity(ctx, user, 'site', id),
      actions: actionsFor(siteDef.name, site.id),
    };
  }
  ctx.records.authorize(user, contractorDef, 'read');
  const found = await (await ctx.records.visibleRows(ctx.db, contractorDef, user))
    .selectAll('t')
    .where('t.id', '=', id)
    .executeTakeFirst();
  if (!found) throw notFound(`No contractor has the id ${id}, or you may not read it.`);
  const contractor = await maskedRow(ctx, user, contractorDef, found);
  let sitesCount = 0;
  if (mayRead(user, siteDef)) {
    const row = await (await ctx.records.visibleRows(ctx.db, siteDef, user))
      .select(sql<number>`count(*)`.as('count'))
      .where((eb) =>
        eb.or([
          eb('t.general_contractor_id', '=', id),
          eb('t.id', 'in', eb.selectFrom('site_contractors').select('site_id').where('contractor_id', '=', id)),
        ]),
      )
      .executeTakeFirst();
    sitesCount = Number((row as any)?.count ?? 0);
  }
  return {
    kind: 'contractor',
    id: contractor.id,
    name: contractor.name ?? '',
    address: address(contractor),
    lat: contractor.latitude ?? null,
    lng: contractor.longitude ?? null,
    type: contractor.type ?? '',
    status: null,
    phase: null,
    contractors: [],
    sites_count: sitesCount,
    custom: await customValues(ctx, user, contractorDef, contractor),
    last_activity: await lastActivity(ctx, user, 'contractor', id),
    actions: actionsFor(contractorDef.name, contractor.id),
  };
}
