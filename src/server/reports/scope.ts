import { type Kysely, type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { can } from '../../common/permissions.js';
import type { FigureLink } from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import { forbidden } from '../http/errors.js';
import { parseBody } from '../http/parse-body.js';
import type { ResourceDefinition } from '../records/resource.js';

/**
 * What the dashboard, the activity feed and the reports share: which rows of a record type a person may read
 * (always through the access policy, the one read rule), the common filters (date range, region,
 * team), and the link of a figure to the list it counts.
 */

/** Where a record type lives when its resource is not registered (yet): the same rules a definition would give. */
const FALLBACKS: Record<string, Partial<ResourceDefinition>> = {
  sites: { type: 'site', table: 'sites', categoryColumn: 'type', softDelete: true },
  contractors: { type: 'contractor', table: 'contractors', categoryColumn: 'type', softDelete: true },
  tasks: { type: 'task', table: 'tasks', softDelete: true },
  recruits: { type: 'recruit', table: 'recruits', softDelete: true },
  grievances: { type: 'grievance', table: 'grievances', softDelete: true },
  visits: { type: 'visit', table: 'visits', softDelete: true },
  members: { type: 'member', table: 'members', softDelete: true },
  contacts: { type: 'contact', table: 'contacts', softDelete: true },
  notes: { type: 'note', table: 'notes', softDelete: true },
  imports: { type: 'import', table: 'imports', softDelete: false },
  users: { type: 'user', table: 'users', softDelete: true },
};

export function resourceDef(ctx: AppContext, name: string): ResourceDefinition {
  const registered = ctx.resources.get(name);
  if (registered) return registered;
  const fallback = FALLBACKS[name];
  if (!fallback) throw new Error(`Unknown resource ${name}`);
  return { name, singular: name, fields: {}, restorable: false, ...fallback } as ResourceDefinition;
}

/** May the person read any row of this resource (bare permission or any category)? */
export function canRead(user: AuthUser, def: ResourceDefinition): boolean {
  return can(user, `${def.permission ?? def.type}:read`, true);
}

/** The rows of `name` the person may read, as `t` (soft-deleted rows left out). */
export function visible(ctx: AppContext, name: string, user: AuthUser, db: Kysely<DB> = ctx.db) {
  return ctx.records.visibleRows(db, resourceDef(ctx, name), user);
}

/** The same rule as a SQL condition on an alias (for joins inside a report's SQL): the access policy's (access/policy.ts). */
export function visibleCondition(
  ctx: AppContext,
  name: string,
  user: AuthUser,
  alias: string,
): Promise<RawBuilder<boolean>> {
  return ctx.records.access.condition(user, resourceDef(ctx, name), alias);
}

/** A figure and the list it counts: `GET /api/{resource}?filter={...}` answers `meta.total` equal to `value`. */
export type Link = FigureLink;

export interface Figure {
  key: string;
  label: string;
  value: number;
  goal?: number | null;
  link: Link | null;
  /** A figure adding up rows of several lists (measures/person-work.ts): each list and its count. */
  parts?: Array<{ key: string; label: string; value: number; link: Link }>;
}

// ---- filters ----------------------------------------------------------------------------------------------

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-11-21.')
  .refine((v) => !Number.isNaN(Date.parse(v)), 'That is not a date.');
const id = z.coerce.number().int().min(1).max(2_147_483_647);

export const commonFilters = z.object({
  from: day.optional(),
  to: day.optional(),
  region_id: id.optional(),
  team_id: id.optional(),
  user_id: id.optional(),
  format: z.enum(['json', 'csv']).optional(),
});

/** The query of a report or figure: the common filters (dates, region, team, person) and the report's own. */
export function filtersQuery<T extends z.ZodRawShape>(shape: T) {
  return commonFilters
    .extend(shape)
    .strip()
    .refine(({ from, to }: { from?: string; to?: string }) => !(from && to && from > to), {
      message: 'The end date must be on or after the start date.',
      path: ['to'],
    });
}

export function parseFilters<T extends z.ZodRawShape>(shape: T, query: unknown) {
  return parseBody(filtersQuery(shape), query) as z.infer<typeof commonFilters> & z.infer<z.ZodObject<T>>;
}

export const isoDay = (date: Date) => date.toISOString().slice(0, 10);
export const addDays = (dayText: string, days: number) =>
  isoDay(new Date(Date.parse(`${dayText}T00:00:00Z`) + days * 86_400_000));

/** This calendar month (UTC), the default period of goals. */
export function thisMonth(now = new Date()) {
  const from = `${now.toISOString().slice(0, 7)}-01`;
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { from, to: addDays(isoDay(next), -1) };
}

/** Monday of this week (SPEC 9: weeks start on Monday), UTC. */
export function startOfWeek(now = new Date()) {
  const weekday = (now.getUTCDay() + 6) % 7;
  return addDays(isoDay(now), -weekday);
}

/**
 * A date range as list filters on `field`: `field_gte` the first day, `field_lt` the day after the last one. The
 * report's SQL uses exactly these two bounds, so a figure and its list always agree.
 */
export function rangeFilter(field: string, range: { from?: string; to?: string }): Record<string, string> {
  const filter: Record<string, string> = {};
  if (range.from) filter[`${field}_gte`] = range.from;
  if (range.to) filter[`${field}_lt`] = addDays(range.to, 1);
  return filter;
}

export function rangeCondition(
  column: RawBuilder<unknown> | string,
  range: { from?: string; to?: string },
  kind: 'timestamp' | 'date' = 'timestamp',
): RawBuilder<boolean> {
  const ref = typeof column === 'string' ? sql.ref(column) : column;
  const cast = kind === 'date' ? sql`::date` : sql`::timestamptz`;
  const parts: RawBuilder<boolean>[] = [];
  if (range.from) parts.push(sql<boolean>`${ref} >= ${range.from}${cast}`);
  if (range.to) parts.push(sql<boolean>`${ref} < ${addDays(range.to, 1)}${cast}`);
  return parts.length ? sql<boolean>`(${sql.join(parts, sql` and `)})` : sql<boolean>`true`;
}

/** The people of a team: its members (team_user) and those whose main team it is. */
export function teamMembers(teamId: number): RawBuilder<unknown> {
  return sql`(select tu.user_id from team_user tu where tu.team_id = ${teamId} union select u.id from users u where u.team_id = ${teamId} and u.deleted_at is null)`;
}

export async function teamMemberIds(db: Kysely<DB>, teamId: number): Promise<number[]> {
  const { rows } = await sql<{
    user_id: number;
  }>`select user_id from ${teamMembers(teamId)} m(user_id) order by user_id`.execute(db);
  return rows.map((r) => r.user_id);
}

/** Reports need `report:read` and the reports feature switched on. */
export async function requireReports(ctx: AppContext, user: AuthUser | null) {
  if (!user) throw forbidden();
  if (!can(user, 'report:read')) throw forbidden('You do not have permission to read reports.');
  const feature = await ctx.db
    .selectFrom('features')
    .select('enabled')
    .where('slug', '=', 'reports')
    .executeTakeFirst();
  if (feature && !feature.enabled) throw forbidden('Reports are switched off.');
  return user;
}

/** Periods for time series: the SQL bucket and its label. */
export const INTERVALS = ['week', 'month', 'quarter', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

export function bucket(column: RawBuilder<unknown>, interval: Interval): RawBuilder<string> {
  switch (interval) {
    case 'week':
      return sql<string>`to_char(date_trunc('week', ${column}), 'IYYY-"W"IW')`;
    case 'month':
      return sql<string>`to_char(${column}, 'YYYY-MM')`;
    case 'quarter':
      return sql<string>`to_char(${column}, 'YYYY-"Q"Q')`;
    case 'year':
      return sql<string>`to_char(${column}, 'YYYY')`;
  }
}

/**
 * `bucket` in two steps, for aggregating many rows: group by the period's start (`date_trunc`, cheap per row), then
 * label the few groups (`bucketLabel` of the start gives the same text as `bucket` of any value in the period).
 */
export function bucketStart(column: RawBuilder<unknown>, interval: Interval): RawBuilder<unknown> {
  return sql`date_trunc(${sql.lit(interval)}, ${column})`;
}

export function bucketLabel(start: RawBuilder<unknown>, interval: Interval): RawBuilder<string> {
  switch (interval) {
    case 'week':
      return sql<string>`to_char(${start}, 'IYYY-"W"IW')`;
    case 'month':
      return sql<string>`to_char(${start}, 'YYYY-MM')`;
    case 'quarter':
      return sql<string>`to_char(${start}, 'YYYY-"Q"Q')`;
    case 'year':
      return sql<string>`to_char(${start}, 'YYYY')`;
  }
}

/** The first and last day of a bucket label made by `bucket`, for the drill-down link. */
export function bucketRange(label: string, interval: Interval): { from: string; to: string } | null {
  let from: Date;
  let next: Date;
  if (interval === 'year' && /^\d{4}$/.test(label)) {
    from = new Date(Date.UTC(Number(label), 0, 1));
    next = new Date(Date.UTC(Number(label) + 1, 0, 1));
  } else if (interval === 'month' && /^\d{4}-\d{2}$/.test(label)) {
    const [y, m] = label.split('-').map(Number);
    from = new Date(Date.UTC(y, m - 1, 1));
    next = new Date(Date.UTC(y, m, 1));
  } else if (interval === 'quarter' && /^\d{4}-Q[1-4]$/.test(label)) {
    const [y, q] = [Number(label.slice(0, 4)), Number(label.slice(6))];
    from = new Date(Date.UTC(y, (q - 1) * 3, 1));
    next = new Date(Date.UTC(y, q * 3, 1));
  } else if (interval === 'week' && /^\d{4}-W\d{2}$/.test(label)) {
    const [y, w] = [Number(label.slice(0, 4)), Number(label.slice(6))];
    const jan4 = new Date(Date.UTC(y, 0, 4));
    const monday = new Date(jan4.getTime() - ((jan4.getUTCDay() + 6) % 7) * 86_400_000);
    from = new Date(monday.getTime() + (w - 1) * 7 * 86_400_000);
    next = new Date(from.getTime() + 7 * 86_400_000);
  } else return null;
  return { from: isoDay(from), to: addDays(isoDay(next), -1) };
}

/** `part` as a percentage of `whole` to one decimal, or null when there is no whole to measure against. */
export const percentOf = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);
