import { type RawBuilder, sql } from 'kysely';
import { GOAL_KEYS, type GoalKey } from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { canRead, type Link, rangeCondition, rangeFilter, resourceDef, visibleCondition } from '../reports/scope.js';

/**
 * The one definition of each figure of a person's work: calls, meetings, visits and recruits signed. The dashboard
 * (its person and team figures) and the user-performance report read them here and nowhere else, so the same
 * person and period show the same number in both (issue 36 point 6; tests/api/one-number.test.ts).
 *
 * A figure adds up parts; each part is one kind of row (call tasks done, visits logged...), whose it is, and the list
 * that shows exactly those rows. A part the viewer may not read counts nothing; a figure none of whose parts they may
 * read is null.
 */
export interface Range {
  from?: string;
  to?: string;
}

interface Part {
  key: string;
  /** What the part counts, as people read it beside the figure ("Visit tasks done"). */
  label: string;
  /** The rows it counts, and the value that picks them among their kind (a task type, a channel). */
  kind: Kind;
  value: string;
  /** The list of exactly these rows, for these people. */
  link(userIds: number[], range: Range): Link;
}

/**
 * A kind of row several parts count (tasks done of a type, conversations of a channel): read once for all of them,
 * so its access rule is in the statement once.
 */
interface Kind {
  /** The resource whose rows it counts (its read permission and rules apply). */
  resource: string;
  /**
   * `part, row_id, owner_id` of the rows in the range the viewer may read, of these `values` (`part` as the parts'
   * keys), whose owner satisfies `owner`.
   */
  rows(
    ctx: AppContext,
    viewer: AuthUser,
    range: Range,
    owner: (column: RawBuilder<unknown>) => RawBuilder<boolean>,
    values: string[],
  ): Promise<RawBuilder<unknown>>;
}

/** One id as a plain filter value, several as a list (`filter[assignee_id][]=...`). */
export const idFilter = (ids: number[]) => (ids.length === 1 ? ids[0] : ids);

const tasksDoneKind: Kind = {
  resource: 'tasks',
  rows: async (ctx, viewer, range, owner, types) =>
    sql`select t.type || '-tasks' as part, t.id as row_id, t.assignee_id as owner_id from tasks t
      where ${await visibleCondition(ctx, 'tasks', viewer, 't')} and t.type in (${sql.join(types)})
        and t.completed_at is not null and ${rangeCondition('t.completed_at', range)} and ${owner(sql.ref('t.assignee_id'))}`,
};

const tasksDone = (type: string, label: string): Part => ({
  key: `${type}-tasks`,
  label,
  kind: tasksDoneKind,
  value: type,
  link: (ids, range) => ({
    resource: 'tasks',
    filter: { assignee_id: idFilter(ids), type, ...rangeFilter('completed_at', range) },
  }),
});

const visitsLogged: Part = {
  key: 'visits-logged',
  label: 'Site visits logged',
  kind: {
    resource: 'visits',
    rows: async (ctx, viewer, range, owner) =>
      sql`select 'visits-logged' as part, v.id as row_id, vu.user_id as owner_id from visits v
        join visit_users vu on vu.visit_id = v.id
        where ${await visibleCondition(ctx, 'visits', viewer, 'v')} and ${rangeCondition('v.visited_at', range)}
          and ${owner(sql.ref('vu.user_id'))}`,
  },
  value: 'visits-logged',
  link: (ids, range) => ({
    resource: 'visits',
    filter: { user_ids: idFilter(ids), ...rangeFilter('visited_at', range) },
  }),
};

const recruitsSigned: Part = {
  key: 'recruits-signed',
  label: 'Recruits signed',
  kind: {
    resource: 'recruits',
    rows: async (ctx, viewer, range, owner) =>
      sql`select 'recruits-signed' as part, r.id as row_id, r.user_id as owner_id from recruits r
        where ${await visibleCondition(ctx, 'recruits', viewer, 'r')} and r.signed_at is not null
          and ${rangeCondition('r.signed_at', range, 'date')} and ${owner(sql.ref('r.user_id'))}`,
  },
  value: 'recruits-signed',
  link: (ids, range) => ({
    resource: 'recruits',
    filter: { user_id: idFilter(ids), ...rangeFilter('signed_at', range) },
  }),
};

/**
 * Conversations of a kind the person had (`user_id`, `had_at`), except those logged from a task: that task is
 * completed by it and counted as a task done, so the call is counted once.
 */
const conversationsHadKind: Kind = {
  resource: 'conversations',
  rows: async (ctx, viewer, range, owner, channels) =>
    sql`select c.channel || '-conversations' as part, c.id as row_id, c.user_id as owner_id from conversations c
      where ${await visibleCondition(ctx, 'conversations', viewer, 'c')} and c.channel in (${sql.join(channels)})
        and c.task_id is null and ${rangeCondition('c.had_at', range)} and ${owner(sql.ref('c.user_id'))}`,
};

const conversationsHad = (channel: string, label: string): Part => ({
  key: `${channel}-conversations`,
  label,
  kind: conversationsHadKind,
  value: channel,
  link: (ids, range) => ({
    resource: 'conversations',
    filter: { user_id: idFilter(ids), channel, task_id_null: true, ...rangeFilter('had_at', range) },
  }),
});

/** Each figure and its parts. */
export const PERSON_MEASURES: Record<GoalKey, Part[]> = {
  calls: [tasksDone('call', 'Call tasks done'), conversationsHad('call', 'Calls logged')],
  meetings: [tasksDone('meeting', 'Meeting tasks done'), conversationsHad('meeting', 'Meetings logged')],
  visits: [tasksDone('visit', 'Visit tasks done'), visitsLogged, conversationsHad('visit', 'Visits to people logged')],
  recruits: [recruitsSigned],
};

export interface PartValue {
  key: string;
  label: string;
  value: number;
  link: Link;
}

export interface MeasureValue {
  /** Null when the viewer may read none of its parts. */
  value: number | null;
  /** The one list holding every row counted: the part that has any (or the first); null when two parts have rows. */
  link: Link | null;
  parts: PartValue[];
}

export type PersonWork = Record<GoalKey, MeasureValue>;

/**
 * The figures of `userIds` in the range as `viewer` may read them: `together`, each row
 * counted once however many of the people it belongs to (a visit two of them went on is one visit), and `byPerson`.
 */
export async function personWork(
  ctx: AppContext,
  viewer: AuthUser,
  range: Range,
  userIds: number[],
): Promise<{ together: PersonWork; byPerson: Map<number, PersonWork> }> {
  const owner = (column: RawBuilder<unknown>) =>
    userIds.length ? sql<boolean>`${column} in (${sql.join(userIds)})` : sql<boolean>`false`;
  const readable = GOAL_KEYS.flatMap((key) =>
    PERSON_MEASURES[key].filter((part) => canRead(viewer, resourceDef(ctx, part.kind.resource))),
  );
  const kinds = new Map<Kind, string[]>();
  for (const part of readable) kinds.set(part.kind, [...(kinds.get(part.kind) ?? []), part.value]);
  const counts = new Map<string, number>();
  if (readable.length) {
    const rows = sql.join(
      await Promise.all(
        [...kinds].map(
          async ([kind, values]) =>
            sql`select x.part::text as part, x.row_id, x.owner_id from (${await kind.rows(ctx, viewer, range, owner, values)}) x`,
        ),
      ),
      sql` union all `,
    );
    const { rows: found } = await sql<{ part: string; owner_id: number | null; n: number; everyone: number }>`
      select w.part, w.owner_id, count(distinct w.row_id)::int as n, grouping(w.owner_id)::int as everyone
      from (${rows}) w
      group by grouping sets ((w.part, w.owner_id), (w.part))`.execute(ctx.db);
    for (const row of found) {
      const whose = row.everyone ? 'all' : String(row.owner_id);
      counts.set(`${row.part}|${whose}`, Number(row.n));
    }
  }
  const readableKeys = new Set(readable.map((part) => part.key));
  const build = (whose: string, ids: number[]): PersonWork => {
    const work = {} as PersonWork;
    for (const key of GOAL_KEYS) {
      const parts = PERSON_MEASURES[key]
        .filter((part) => readableKeys.has(part.key))
        .map((part) => ({
          key: part.key,
          label: part.label,
          value: counts.get(`${part.key}|${whose}`) ?? 0,
          link: part.link(ids, range),
        }));
      const withRows = parts.filter((part) => part.value > 0);
      work[key] = {
        value: parts.length ? parts.reduce((sum, part) => sum + part.value, 0) : null,
        link: withRows.length > 1 ? null : ((withRows[0] ?? parts[0])?.link ?? null),
        parts,
      };
    }
    return work;
  };
  const byPerson = new Map<number, PersonWork>();
  for (const id of userIds) byPerson.set(id, build(String(id), [id]));
  return { together: build('all', userIds), byPerson };
}
