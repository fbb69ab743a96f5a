import { type RawBuilder, sql } from 'kysely';
import { can } from '../../common/permissions.js';
import { GOAL_KEYS, GOAL_LABELS, type Goals } from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { forbidden } from '../http/errors.js';
import { idFilter, personWork } from '../measures/person-work.js';
import {
  canRead,
  type Figure,
  type Link,
  resourceDef,
  startOfWeek,
  teamMemberIds,
  thisMonth,
  visible,
  visibleCondition,
} from '../reports/scope.js';
import { goalsFor } from '../reports/user-performance.js';

export interface Scope {
  /** Whose work the person figures count: the signed-in person, another person, or a team's people. */
  kind: 'me' | 'user' | 'team';
  userIds: number[];
  teamId: number | null;
  from: string;
  to: string;
  regionId: number | null;
}

/**
 * Whose figures: the signed-in person by default; `user_id` (another person) or `team_id` (a team's people) need
 * `report:read`, because they show other people's goals.
 */
export async function resolveScope(
  ctx: AppContext,
  user: AuthUser,
  params: { from?: string; to?: string; user_id?: number; team_id?: number; region_id?: number },
): Promise<Scope> {
  const month = thisMonth();
  const from = params.from ?? (params.to ? params.to : month.from);
  // biome-ignore lint/complexity/useMathMinMax: these are ISO date strings, which Math.max would turn into NaN.
  const to = params.to ?? (params.from ? (month.to > from ? month.to : from) : month.to);
  const others = (params.user_id && params.user_id !== user.id) || params.team_id;
  if (others && !can(user, 'report:read')) throw forbidden("You do not have permission to see other people's figures.");
  if (params.team_id)
    return {
      kind: 'team',
      userIds: await teamMemberIds(ctx.db, params.team_id),
      teamId: params.team_id,
      from,
      to,
      regionId: params.region_id ?? null,
    };
  if (params.user_id && params.user_id !== user.id)
    return { kind: 'user', userIds: [params.user_id], teamId: null, from, to, regionId: params.region_id ?? null };
  return { kind: 'me', userIds: [user.id], teamId: null, from, to, regionId: params.region_id ?? null };
}

const inList = (column: RawBuilder<unknown>, ids: number[]) =>
  ids.length ? sql<boolean>`${column} in (${sql.join(ids)})` : sql<boolean>`false`;

/**
 * The person figures (GET /api/dashboard/statistics, GET /api/profile/statistics): open and overdue tasks, calls,
 * meetings, visits and recruits in the range against the goals (measures/person-work.ts, the one definition the
 * reports share), open grievances, unread notifications. Each figure names the list it counts (`link`; with `parts`
 * when it adds up rows of several lists); a figure the person may not read is left out (its flat key is null).
 */
export async function personFigures(ctx: AppContext, user: AuthUser, scope: Scope) {
  const now = new Date().toISOString();
  const readsTasks = canRead(user, resourceDef(ctx, 'tasks'));
  const readsGrievances = canRead(user, resourceDef(ctx, 'grievances'));
  const range = { from: scope.from, to: scope.to };
  const assignees = inList(sql.ref('t.assignee_id'), scope.userIds);
  const taskVisible = await visibleCondition(ctx, 'tasks', user, 't');
  const grievanceTeam = scope.teamId ? sql<boolean>`g.team_id = ${scope.teamId}` : sql<boolean>`true`;
  const [row, work] = await Promise.all([
    ctx.db
      .selectNoFrom([
        sql<number>`(select count(*)::int from tasks t where ${taskVisible} and ${assignees} and t.completed_at is null)`.as(
          'tasks_open',
        ),
        sql<number>`(select count(*)::int from tasks t where ${taskVisible} and ${assignees} and t.completed_at is null and t.due_at < ${now}::timestamptz)`.as(
          'tasks_overdue',
        ),
        sql<number>`(select count(*)::int from grievances g where ${await visibleCondition(ctx, 'grievances', user, 'g')} and g.status = 'open' and ${grievanceTeam})`.as(
          'grievances_open',
        ),
        sql<number>`(select count(*)::int from notifications n where n.user_id = ${user.id} and n.read_at is null and n.dismissed_at is null)`.as(
          'notifications_unread',
        ),
      ])
      .executeTakeFirstOrThrow(),
    // Calls, meetings, visits and recruits: the one definition the reports use too (measures/person-work.ts).
    personWork(ctx, user, range, scope.userIds).then((result) => result.together),
  ]);

  let goals: Goals = { calls: null, meetings: null, visits: null, recruits: null };
  const people = scope.userIds.length
    ? await ctx.db.selectFrom('users').select(['id', 'goals']).where('id', 'in', scope.userIds).execute()
    : [];
  for (const person of people) {
    const own = goalsFor(person.goals as any, scope.from, scope.to);
    for (const key of GOAL_KEYS)
      if (own[key] !== null) goals = { ...goals, [key]: (goals[key] ?? 0) + (own[key] as number) };
  }

  const who = { assignee_id: idFilter(scope.userIds) };
  const taskLink = (filter: Record<string, unknown>): Link => ({ resource: 'tasks', filter: { ...who, ...filter } });
  const figures: Figure[] = [];
  if (readsTasks) {
    figures.push(
      { key: 'tasks_open', label: 'Open tasks', value: row.tasks_open, link: taskLink({ completed_at_null: true }) },
      {
        key: 'tasks_overdue',
        label: 'Overdue tasks',
        value: row.tasks_overdue,
        link: taskLink({ completed_at_null: true, due_at_lt: now }),
      },
    );
  }
  for (const key of GOAL_KEYS) {
    const measure = work[key];
    if (measure.value === null) continue;
    figures.push({
      key,
      label: GOAL_LABELS[key],
      value: measure.value,
      goal: goals[key],
      link: measure.link,
      parts: measure.parts,
    });
  }
  if (readsGrievances) {
    figures.push({
      key: 'grievances_open',
      label: 'Open grievances',
      value: row.grievances_open,
      link: { resource: 'grievances', filter: { status: 'open', ...(scope.teamId ? { team_id: scope.teamId } : {}) } },
    });
  }
  const shown = new Set(figures.map((f) => f.key));
  const flat = (key: string) => (shown.has(key) ? (row as any)[key] : null);
  return {
    // The sidebar counts (kept as they were): one's own open tasks and unread notifications.
    tasks_open: scope.kind === 'me' ? (flat('tasks_open') ?? 0) : flat('tasks_open'),
    notifications_unread: row.notifications_unread,
    tasks_overdue: flat('tasks_overdue'),
    calls: work.calls.value,
    meetings: work.meetings.value,
    visits: work.visits.value,
    recruits: work.recruits.value,
    grievances_open: flat('grievances_open'),
    goals,
    range: { from: scope.from, to: scope.to },
    scope: { kind: scope.kind, user_ids: scope.userIds, team_id: scope.teamId },
    figures,
  };
}

/**
 * The site figures (GET /api/dashboard/data): sites by category (type) and by status, sites new this week, and the
 * latest imports. Region and team narrow the sites. Only sites the person may read are counted.
 */
export async function siteFigures(ctx: AppContext, user: AuthUser, scope: Scope) {
  const sitesDef = resourceDef(ctx, 'sites');
  const result: Record<string, unknown> = {
    sites_total: null,
    sites_by_type: [],
    sites_by_status: [],
    sites_new_week: null,
    imports_latest: [],
  };
  const figures: Figure[] = [];
  if (canRead(user, sitesDef)) {
    const narrow: Record<string, unknown> = {};
    let base = await visible(ctx, 'sites', user);
    if (scope.regionId) {
      base = base.where(
        sql<boolean>`exists (select 1 from site_regions sr where sr.site_id = t.id and sr.region_id = ${scope.regionId})`,
      );
      narrow.region_ids = [scope.regionId];
    }
    if (scope.teamId) {
      base = base.where('t.team_id', '=', scope.teamId);
      narrow.team_id = scope.teamId;
    }
    const weekStart = startOfWeek();
    // One pass over the sites for the three figures (by type, by status, the total and new this week): grouping
    // sets instead of three scans, the labels joined to the few groups afterwards.
    const groups = base
      .select([
        // 1: a type's row (status rolled up), 2: a status's row (type rolled up), 3: all the sites.
        sql<number>`grouping(t.type, t.site_status_id)`.as('grouping_set'),
        't.type',
        't.site_status_id',
        sql<number>`count(*)::int`.as('value'),
        sql<number>`(count(*) filter (where t.created_at >= ${weekStart}::timestamptz))::int`.as('new_week'),
      ])
      .groupBy(sql`grouping sets ((t.type), (t.site_status_id), ())`);
    const rows = await ctx.db
      .with('g', () => groups)
      .selectFrom('g')
      .leftJoin('site_types as st', (join) => join.onRef('st.slug', '=', 'g.type').on('st.deleted_at', 'is', null))
      .leftJoin('site_statuses as ss', 'ss.id', 'g.site_status_id')
      .select([
        'g.grouping_set',
        'g.type',
        'g.site_status_id',
        'g.value',
        'g.new_week',
        'st.name as type_name',
        'ss.name as status_name',
        'ss.color',
        'ss.position',
      ])
      .execute();
    const byType = rows
      .filter((r: any) => r.grouping_set === 1)
      .map((r: any) => ({ key: r.type, label: r.type_name, value: r.value }))
      .sort((a, b) => b.value - a.value || String(a.key).localeCompare(String(b.key)));
    const last = (n: number | null) => (n === null ? Number.POSITIVE_INFINITY : n);
    const byStatus = rows
      .filter((r: any) => r.grouping_set === 2)
      .sort((a: any, b: any) => last(a.position) - last(b.position) || last(a.site_status_id) - last(b.site_status_id))
      .map((r: any) => ({ key: r.site_status_id, label: r.status_name, color: r.color, value: r.value }));
    const all: any = rows.find((r: any) => r.grouping_set === 3);
    const totals = { total: all?.value ?? 0, new_week: all?.new_week ?? 0 };
    const siteLink = (filter: Record<string, unknown>): Link => ({
      resource: 'sites',
      filter: { ...narrow, ...filter },
    });
    result.sites_total = totals.total;
    result.sites_new_week = totals.new_week;
    result.week_start = weekStart;
    result.sites_by_type = byType.map((r: any) => ({
      key: r.key,
      label: r.label ?? r.key,
      value: r.value,
      link: siteLink({ type: r.key }),
    }));
    result.sites_by_status = byStatus.map((r: any) => ({
      key: r.key,
      label: r.label ?? 'No status',
      color: r.color ?? null,
      value: r.value,
      link: siteLink(r.key === null ? { site_status_id_null: true } : { site_status_id: r.key }),
    }));
    figures.push(
      { key: 'sites_total', label: 'Job sites', value: totals.total, link: siteLink({}) },
      {
        key: 'sites_new_week',
        label: 'New this week',
        value: totals.new_week,
        link: siteLink({ created_at_gte: weekStart }),
      },
      ...(result.sites_by_type as any[]).map((r) => ({
        key: `sites_type_${r.key}`,
        label: r.label,
        value: r.value,
        link: r.link,
      })),
      ...(result.sites_by_status as any[]).map((r) => ({
        key: `sites_status_${r.key ?? 'none'}`,
        label: r.label,
        value: r.value,
        link: r.link,
      })),
    );
  }
  if (can(user, 'import:read', true)) result.imports_latest = await latestImports(ctx);
  return { ...result, figures };
}

/** The five newest imports, when the imports feature has its table. */
async function latestImports(ctx: AppContext) {
  const exists = await sql<{ found: string | null }>`select to_regclass('public.imports')::text as found`.execute(
    ctx.db,
  );
  if (!exists.rows[0]?.found) return [];
  const rows = await ctx.db.selectFrom('imports').selectAll().orderBy('id', 'desc').limit(5).execute();
  return rows
    .filter((r: any) => !r.deleted_at)
    .map((r: any) => ({
      id: r.id,
      name:
        r.file_name ??
        r.original_name ??
        r.name ??
        (Array.isArray(r.files) ? r.files.map((f: any) => f?.name ?? f).join(', ') : null) ??
        `Import #${r.id}`,
      status: r.status ?? null,
      rows: r.row_count ?? r.rows_total ?? r.total_rows ?? null,
      created_at: r.created_at ?? null,
      finished_at: r.completed_at ?? r.finished_at ?? null,
      link: `/imports/${r.id}/show`,
    }));
}
