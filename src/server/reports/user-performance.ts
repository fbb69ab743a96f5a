import { sql } from 'kysely';
import { z } from 'zod';
import { GOAL_KEYS, type GoalKey, type Goals, type UserPerformanceRow } from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { personWork } from '../measures/person-work.js';
import { hiddenPeopleCondition } from './people.js';
import { parseFilters, teamMembers, thisMonth } from './scope.js';

export const userPerformanceShape = {
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'The month must look like 2026-11.')
    .optional(),
};
export type UserPerformanceParams = ReturnType<typeof parseUserPerformance>;
export function parseUserPerformance(query: unknown) {
  const params = parseFilters(userPerformanceShape, query);
  if (params.month) {
    const [y, m] = params.month.split('-').map(Number);
    params.from = `${params.month}-01`;
    params.to = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  } else if (!params.from && !params.to) Object.assign(params, thisMonth());
  return params;
}

/** The months (`YYYY-MM`) a range touches. */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  let [y, m] = from.slice(0, 7).split('-').map(Number);
  const last = to.slice(0, 7);
  for (let guard = 0; guard < 240; guard++) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    months.push(month);
    if (month >= last) break;
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return months;
}

/**
 * A person's goals for a range: for each month it touches, that month's goals (set with
 * `POST /api/users/{id}/goals {period: 'YYYY-MM'}`) or else the `default` ones, added up. Null when none is set.
 */
export function goalsFor(
  goals: Record<string, Partial<Record<GoalKey, number>>> | null | undefined,
  from: string,
  to: string,
): Goals & { source: 'month' | 'default' | 'mixed' | 'none' } {
  const result: Goals = { calls: null, meetings: null, visits: null, recruits: null };
  const sources = new Set<string>();
  for (const month of monthsOf(from, to)) {
    const own = goals?.[month];
    for (const key of GOAL_KEYS) {
      const value = own?.[key] ?? goals?.default?.[key];
      if (value === undefined || value === null) continue;
      sources.add(own?.[key] !== undefined && own?.[key] !== null ? 'month' : 'default');
      result[key] = (result[key] ?? 0) + Number(value);
    }
  }
  return {
    ...result,
    source: sources.size === 0 ? 'none' : sources.size > 1 ? 'mixed' : ([...sources][0] as 'month' | 'default'),
  };
}

/**
 * GET /api/reports/user-performance: each person's calls, meetings, visits and recruits signed in the period against
 * their goals, as the dashboard counts them (measures/person-work.ts: the one definition of each figure). Figures the
 * viewer may read no part of are null. Users of incognito roles are listed only for those allowed to see them.
 */
export async function userPerformance(ctx: AppContext, user: AuthUser, params: UserPerformanceParams) {
  const from = params.from ?? params.to!;
  const to = params.to ?? params.from!;
  const range = { from, to };
  const { rows } = await sql<any>`
    select u.id, u.first_name, u.last_name, u.team_id, u.goals
    from users u
    where u.deleted_at is null
      and ${hiddenPeopleCondition(user, sql`u.id`)}
      ${params.team_id ? sql`and u.id in ${teamMembers(params.team_id)}` : sql``}
      ${params.user_id ? sql`and u.id = ${params.user_id}` : sql``}
    order by u.last_name, u.first_name, u.id`.execute(ctx.db);
  const { byPerson } = await personWork(
    ctx,
    user,
    range,
    rows.map((row: any) => Number(row.id)),
  );

  const pct = (done: number | null, goal: number | null) =>
    done === null || !goal ? null : Math.round((done / goal) * 1000) / 10;
  const data: UserPerformanceRow[] = rows.map((row: any) => {
    const goals = goalsFor(row.goals, from, to);
    const work = byPerson.get(Number(row.id))!;
    const done = Object.fromEntries(GOAL_KEYS.map((key) => [key, work[key].value])) as Goals;
    const month = params.month ?? (from.slice(0, 7) === to.slice(0, 7) ? from.slice(0, 7) : null);
    return {
      user_id: row.id,
      name: `${row.first_name} ${row.last_name}`.trim(),
      team_id: row.team_id,
      goals,
      month_goals: month ? (row.goals?.[month] ?? null) : null,
      default_goals: row.goals?.default ?? null,
      done,
      progress: Object.fromEntries(GOAL_KEYS.map((key) => [key, pct(done[key], goals[key])])) as Goals,
      links: Object.fromEntries(GOAL_KEYS.map((key) => [key, work[key].link])) as UserPerformanceRow['links'],
      parts: Object.fromEntries(GOAL_KEYS.map((key) => [key, work[key].parts])) as UserPerformanceRow['parts'],
    };
  });
  return {
    data,
    meta: { from, to, month: params.month ?? null, may_set_goals: user.permissions.includes('user:update') },
  };
}
