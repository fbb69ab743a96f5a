import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { TaskPerformanceRow } from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { forbidden } from '../http/errors.js';
import { fieldGroup, groupByParam, groupLabel, groupNote, taskGroupJoin } from './field-groups.js';
import {
  bucketLabel,
  bucketRange,
  bucketStart,
  canRead,
  INTERVALS,
  type Interval,
  parseFilters,
  percentOf,
  rangeCondition,
  rangeFilter,
  resourceDef,
  teamMemberIds,
  teamMembers,
  thisMonth,
  visibleCondition,
} from './scope.js';

export const taskPerformanceShape = {
  group_by: groupByParam(['user', 'team'], "the task's site or contractor").default('user'),
  interval: z.enum(['none', ...INTERVALS]).default('none'),
};
export type TaskPerformanceParams = ReturnType<typeof parseTaskPerformance>;
export function parseTaskPerformance(query: unknown) {
  const params = parseFilters(taskPerformanceShape, query);
  if (!params.from && !params.to) Object.assign(params, thisMonth());
  return params;
}

/**
 * GET /api/reports/task-performance: per person (the assignee) or team, or per value of a choice field of the site or
 * contractor a task is on (field-groups.ts), per period: tasks completed by type, tasks due, how many of those are
 * done, how many are overdue (due before now and still open), and the completion rate. A person in two teams counts
 * in both. Only tasks the person may read count (`task:read`).
 */
export async function taskPerformance(ctx: AppContext, user: AuthUser, params: TaskPerformanceParams) {
  if (!canRead(user, resourceDef(ctx, 'tasks'))) throw forbidden('You do not have permission to read tasks.');
  // Tasks belong to sites and contractors, not the other way round: a field must say whose it is.
  const field = await fieldGroup(ctx, user, params.group_by, null);
  const now = new Date().toISOString();
  const range = { from: params.from, to: params.to };
  const overdueEnd = earlier(rangeFilter('x', range).x_lt, now);
  const visibleTask = await visibleCondition(ctx, 'tasks', user, 't');
  const peopleFilter: RawBuilder<boolean>[] = [];
  if (params.user_id) peopleFilter.push(sql<boolean>`e.uid = ${params.user_id}`);
  if (params.team_id) peopleFilter.push(sql<boolean>`e.uid in ${teamMembers(params.team_id)}`);
  const interval = params.interval === 'none' ? null : (params.interval as Interval);
  // Tasks are first counted per assignee and period start (cheap to group by), then the few rows are labelled and
  // summed per person or team.
  const start = (column: string) => (interval ? bucketStart(sql.ref(column), interval) : sql`null::timestamptz`);
  const period = interval ? bucketLabel(sql`e.at`, interval) : sql<string>`null`;
  const groupKey = field ? sql`e.fkey` : params.group_by === 'team' ? sql`m.team_id` : sql`e.uid`;
  const fieldJoin = field ? await taskGroupJoin(ctx, user, field, 't') : sql``;
  const fieldKey = field ? sql`g.key` : sql`null::text`;
  const teamJoin =
    params.group_by === 'team'
      ? sql`join (select tu.user_id, tu.team_id from team_user tu union select u.id, u.team_id from users u where u.team_id is not null) m on m.user_id = e.uid`
      : sql``;
  const { rows } = await sql<any>`
    select ${groupKey} as key, ${period} as period,
      sum(e.calls)::int as calls, sum(e.meetings)::int as meetings, sum(e.visits)::int as visits, sum(e.done)::int as done,
      sum(e.due)::int as due, sum(e.due_done)::int as due_done, sum(e.overdue)::int as overdue
    from (
      select t.assignee_id as uid, ${start('t.completed_at')} as at, ${fieldKey} as fkey,
        count(*) filter (where t.type = 'call') as calls, count(*) filter (where t.type = 'meeting') as meetings,
        count(*) filter (where t.type = 'visit') as visits, count(*) as done, 0 as due, 0 as due_done, 0 as overdue
      from tasks t ${fieldJoin}
      where ${visibleTask} and t.completed_at is not null and ${rangeCondition('t.completed_at', range)}
      group by 1, 2, 3
      union all
      select t.assignee_id, ${start('t.due_at')}, ${fieldKey}, 0, 0, 0, 0, count(*),
        count(*) filter (where t.completed_at is not null), count(*) filter (where t.completed_at is null and t.due_at < ${overdueEnd}::timestamptz)
      from tasks t ${fieldJoin}
      where ${visibleTask} and t.due_at is not null and ${rangeCondition('t.due_at', range)}
      group by 1, 2, 3
    ) e ${teamJoin}
    where ${peopleFilter.length ? sql.join(peopleFilter, sql` and `) : sql`true`}
    group by 1, 2
    order by 1, 2`.execute(ctx.db);

  const names = field
    ? new Map<number, string>()
    : await labelsFor(
        ctx,
        params.group_by as 'user' | 'team',
        rows.map((r: any) => r.key),
      );
  const teamIds = new Map<number, number[]>();
  if (params.group_by === 'team')
    for (const key of new Set(rows.map((r: any) => r.key as number)))
      teamIds.set(key, await teamMemberIds(ctx.db, key));
  const data: TaskPerformanceRow[] = rows.map((row: any) => {
    const rowRange = row.period && interval ? clip(bucketRange(row.period, interval)!, range) : range;
    const who: Record<string, unknown> =
      params.group_by === 'team'
        ? { assignee_id: teamIds.get(row.key) ?? [] }
        : row.key === null
          ? { assignee_id_null: true }
          : { assignee_id: row.key };
    const done = (type?: string) => ({
      resource: 'tasks',
      filter: { ...who, ...(type ? { type } : {}), ...rangeFilter('completed_at', rowRange) },
    });
    return {
      key: row.key,
      label: field
        ? groupLabel(field, row.key)
        : row.key === null
          ? 'Unassigned'
          : (names.get(row.key) ?? `#${row.key}`),
      period: row.period,
      calls: row.calls,
      meetings: row.meetings,
      visits: row.visits,
      done: row.done,
      due: row.due,
      due_done: row.due_done,
      overdue: row.overdue,
      completion_rate: percentOf(row.due_done, row.due),
      links: field
        ? { calls: null, meetings: null, visits: null, done: null, due: null, overdue: null }
        : {
            calls: done('call'),
            meetings: done('meeting'),
            visits: done('visit'),
            done: done(),
            due: { resource: 'tasks', filter: { ...who, ...rangeFilter('due_at', rowRange) } },
            overdue: {
              resource: 'tasks',
              filter: {
                ...who,
                completed_at_null: true,
                due_at_gte: rowRange.from,
                due_at_lt: earlier(rangeFilter('x', rowRange).x_lt, now),
              },
            },
          },
    };
  });
  data.sort((a, b) =>
    a.key === null
      ? 1
      : b.key === null
        ? -1
        : a.label.localeCompare(b.label) || String(a.period).localeCompare(String(b.period)),
  );
  // By team there is no total: a person in two teams counts in both (so does a task in two groups of a field).
  const totals = ['calls', 'meetings', 'visits', 'done', 'due', 'due_done', 'overdue'].reduce<Record<string, number>>(
    (acc, k) => ({ ...acc, [k]: data.reduce((n, r: any) => n + r[k], 0) }),
    {},
  );
  return {
    data,
    totals:
      params.group_by === 'team' || field?.multiple
        ? null
        : { ...totals, completion_rate: percentOf(totals.due_done, totals.due) },
    meta: {
      from: params.from ?? null,
      to: params.to ?? null,
      group_by: params.group_by,
      interval: params.interval,
      now,
      group_note: field ? groupNote(field, 'task') : null,
    },
  };
}

/** The earlier of a day (`YYYY-MM-DD`, midnight UTC) and an instant; the bound used by both the SQL and the link. */
function earlier(dayText: string | undefined, instant: string): string {
  return dayText && Date.parse(`${dayText}T00:00:00Z`) < Date.parse(instant) ? dayText : instant;
}

function clip(inner: { from: string; to: string }, outer: { from?: string; to?: string }) {
  return {
    from: outer.from && outer.from > inner.from ? outer.from : inner.from,
    to: outer.to && outer.to < inner.to ? outer.to : inner.to,
  };
}

export async function labelsFor(
  ctx: AppContext,
  groupBy: 'user' | 'team',
  keys: Array<number | null>,
): Promise<Map<number, string>> {
  const ids = [...new Set(keys.filter((k): k is number => k !== null))];
  if (!ids.length) return new Map();
  if (groupBy === 'team') {
    const rows = await ctx.db.selectFrom('teams').select(['id', 'name']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }
  const rows = await ctx.db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, `${r.first_name} ${r.last_name}`.trim()]));
}
