import { type RawBuilder, sql } from 'kysely';
import type { WorkerFigures } from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { canRead, percentOf, resourceDef, visibleCondition } from './scope.js';

/**
 * The market share measured by workers counted (docs/reports.md "Workers counted"): for each site the report
 * counts, the head count of its latest visit, union and non-union workers as counted on the site (workers whose
 * status was not noted are unknown). A site's workers count in each of its groups, as its value and hours do.
 */

export interface WorkerGroupRow {
  key: string | null;
  label: string | null;
  workers: number;
  union_workers: number;
  non_union_workers: number;
}

/** A grouping of the report over sites `s` (market-share.ts `grouping`). */
export interface SiteGrouping {
  join: RawBuilder<unknown>;
  key: RawBuilder<unknown>;
  labelJoin: RawBuilder<unknown>;
  label: RawBuilder<unknown>;
  keyText: RawBuilder<unknown>;
}

/** The workers counted at the latest visit of the sites `sitesWhere` keeps (on `s`), by group and in all. */
export async function workersCounted(
  ctx: AppContext,
  user: AuthUser,
  sitesWhere: RawBuilder<boolean>,
  group: SiteGrouping,
): Promise<{ rows: WorkerGroupRow[]; totals: WorkerGroupRow }> {
  const none = { key: null, label: null, workers: 0, union_workers: 0, non_union_workers: 0 };
  if (!canRead(user, resourceDef(ctx, 'visits'))) return { rows: [], totals: none };
  // Driven from the visits (few) rather than the sites (many): each site's latest visit the person may read.
  const { rows } = await sql<WorkerGroupRow & { part: 'group' | 'total' }>`
    with latest as materialized (
      select distinct on (v.site_id) v.site_id, v.id from visits v
      where ${await visibleCondition(ctx, 'visits', user, 'v')}
      order by v.site_id, v.visited_at desc, v.id desc
    ), counted as materialized (
      select s.*, h.workers, h.union_workers, h.non_union_workers
      from latest lv join sites s on s.id = lv.site_id join visit_head_counts h on h.visit_id = lv.id
      where ${sitesWhere}
    )
    select 'group' as part, ${group.keyText} as key, ${group.label} as label, x.workers, x.union_workers, x.non_union_workers
    from (
      select ${group.key} as key, sum(s.workers)::int as workers, sum(s.union_workers)::int as union_workers, sum(s.non_union_workers)::int as non_union_workers
      from counted s ${group.join} group by 1
    ) x ${group.labelJoin}
    union all
    select 'total', null, null, coalesce(sum(s.workers), 0)::int, coalesce(sum(s.union_workers), 0)::int, coalesce(sum(s.non_union_workers), 0)::int from counted s`.execute(
    ctx.db,
  );
  return { rows: rows.filter((r) => r.part === 'group'), totals: rows.find((r) => r.part === 'total') ?? none };
}

/** A group's figures: union and non-union as counted, the rest unknown; the union share of the known workers. */
export function workerFigures(
  row: Pick<WorkerGroupRow, 'workers' | 'union_workers' | 'non_union_workers'> | undefined,
): WorkerFigures {
  const total = Number(row?.workers ?? 0);
  const union = Number(row?.union_workers ?? 0);
  const nonUnion = Number(row?.non_union_workers ?? 0);
  return {
    union,
    non_union: nonUnion,
    unknown: total - union - nonUnion,
    total,
    share: percentOf(union, union + nonUnion),
  };
}
