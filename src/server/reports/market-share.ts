import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { Labour, LabourFigures, MarketShareRow } from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { forbidden } from '../http/errors.js';
import {
  type FieldGroup,
  fieldGroup,
  groupByParam,
  groupLabel,
  groupNote,
  singleValue,
  siteGroupJoin,
  siteInGroup,
} from './field-groups.js';
import { LABOURS, labouredSitesFrom } from './labour.js';
import { answeredByCounts, readCounts } from './market-share-counts.js';
import { workerFigures, workersCounted } from './market-share-workers.js';
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
  resourceDef,
  visibleCondition,
} from './scope.js';

export const MARKET_SHARE_GROUPS = ['region', 'trade', 'site_type', 'building_type', 'period', 'none'] as const;
export type MarketShareGroup = (typeof MARKET_SHARE_GROUPS)[number];
export const DATE_FIELDS = ['created_at', 'kickoff_date', 'bid_date'] as const;

const list = (item: z.ZodType) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : Array.isArray(v) ? v : String(v).split(',')),
    z.array(item).max(50).optional(),
  );

export const marketShareShape = {
  group_by: groupByParam(MARKET_SHARE_GROUPS, 'sites or contractors').default('region'),
  interval: z.enum(INTERVALS).default('month'),
  date_field: z.enum(DATE_FIELDS).default('created_at'),
  trade_id: z.coerce.number().int().min(1).optional(),
  building_type_id: z.coerce.number().int().min(1).optional(),
  site_type: list(z.string().max(40)),
  site_status_id: z.coerce.number().int().min(1).optional(),
  /** The measure a CSV export is for: `workers` adds the workers counted (the JSON answer has every measure). */
  measure: z.enum(['sites', 'value', 'hours', 'workers']).optional(),
};

export type MarketShareParams = ReturnType<typeof parseMarketShare>;
export const parseMarketShare = (query: unknown) => parseFilters(marketShareShape, query);

const empty = (): LabourFigures => ({ sites: 0, value: 0, hours: 0 });
const SLOT: Record<Labour, 'union' | 'non_union' | 'unknown'> = {
  union: 'union',
  'non-union': 'non_union',
  unknown: 'unknown',
};

/**
 * A grouping: `join` brings the group's column to the sites (filters on the grouped column restrict the join itself),
 * `key` is what the sites are aggregated by (a plain column, so the aggregate hashes integers or short text), and the
 * label is joined afterwards to the few aggregated rows `x` (`labelJoin`, `label`, `keyText`: the key as text).
 */
async function grouping(
  ctx: AppContext,
  user: AuthUser,
  params: MarketShareParams,
  field: FieldGroup | null,
): Promise<{
  join: RawBuilder<unknown>;
  key: RawBuilder<unknown>;
  labelJoin: RawBuilder<unknown>;
  label: RawBuilder<unknown>;
  keyText: RawBuilder<unknown>;
}> {
  const dateCol = sql.ref(`s.${params.date_field}`);
  if (field) {
    // Labelled afterwards from the field's choices (groupLabel).
    const key = field.multiple ? sql`g.key` : singleValue(field, 's');
    return {
      join: field.multiple ? await siteGroupJoin(ctx, user, field, 's') : sql``,
      key,
      labelJoin: sql``,
      label: sql`null`,
      keyText: sql`x.key`,
    };
  }
  switch (params.group_by as MarketShareGroup) {
    case 'region':
      return {
        join: sql`left join site_regions g on g.site_id = s.id ${params.region_id ? sql`and g.region_id = ${params.region_id}` : sql``}`,
        key: sql`g.region_id`,
        labelJoin: sql`left join regions gl on gl.id = x.key`,
        label: sql`gl.name`,
        keyText: sql`x.key::text`,
      };
    case 'trade':
      return {
        join: sql`left join site_trades g on g.site_id = s.id ${params.trade_id ? sql`and g.trade_id = ${params.trade_id}` : sql``}`,
        key: sql`g.trade_id`,
        labelJoin: sql`left join trades gl on gl.id = x.key`,
        label: sql`gl.name`,
        keyText: sql`x.key::text`,
      };
    case 'site_type':
      return {
        join: sql``,
        key: sql`s.type`,
        labelJoin: sql`left join site_types gl on gl.slug = x.key and gl.deleted_at is null`,
        label: sql`coalesce(gl.name, x.key)`,
        keyText: sql`x.key`,
      };
    case 'building_type':
      return {
        join: sql``,
        key: sql`s.building_type_id`,
        labelJoin: sql`left join building_types gl on gl.id = x.key`,
        label: sql`gl.name`,
        keyText: sql`x.key::text`,
      };
    case 'period':
      return {
        join: sql``,
        key: bucketStart(dateCol, params.interval),
        labelJoin: sql``,
        label: bucketLabel(sql`x.key`, params.interval),
        keyText: bucketLabel(sql`x.key`, params.interval),
      };
    case 'none':
      return { join: sql``, key: sql`'all'::text`, labelJoin: sql``, label: sql`'All sites'`, keyText: sql`x.key` };
  }
}

/** The filters of a market-share request as SQL on `s` (sites). */
export function siteFilters(params: MarketShareParams): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [
    rangeCondition(
      sql.ref(`s.${params.date_field}`),
      params,
      params.date_field === 'created_at' ? 'timestamp' : 'date',
    ),
  ];
  if (params.region_id)
    parts.push(
      sql<boolean>`exists (select 1 from site_regions fr where fr.site_id = s.id and fr.region_id = ${params.region_id})`,
    );
  if (params.trade_id)
    parts.push(
      sql<boolean>`exists (select 1 from site_trades ft where ft.site_id = s.id and ft.trade_id = ${params.trade_id})`,
    );
  if (params.team_id) parts.push(sql<boolean>`s.team_id = ${params.team_id}`);
  if (params.user_id) parts.push(sql<boolean>`s.user_id = ${params.user_id}`);
  if (params.building_type_id) parts.push(sql<boolean>`s.building_type_id = ${params.building_type_id}`);
  if (params.site_status_id) parts.push(sql<boolean>`s.site_status_id = ${params.site_status_id}`);
  if (params.site_type?.length) parts.push(sql<boolean>`s.type in (${sql.join(params.site_type)})`);
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

function assertMayRead(ctx: AppContext, user: AuthUser) {
  if (!canRead(user, resourceDef(ctx, 'sites')))
    throw forbidden('You do not have permission to read job sites, so there is no market share to show.');
}

/**
 * GET /api/reports/market-share: union against non-union work by number of sites, estimated value and estimated
 * hours, grouped by region, trade, site type, building type or period. A site in two regions (a state and a county)
 * counts in each of its groups; the totals count every site once.
 */
export async function marketShare(ctx: AppContext, user: AuthUser, params: MarketShareParams) {
  assertMayRead(ctx, user);
  const field = await fieldGroup(ctx, user, params.group_by, 'site');
  const { rows, totalsRows } = (await answeredByCounts(ctx, user, params))
    ? await counted(ctx, user, params)
    : await countedNow(ctx, user, params, field);
  const workers = await workersCounted(
    ctx,
    user,
    sql<boolean>`${await visibleCondition(ctx, 'sites', user, 's')} and ${siteFilters(params)}`,
    await grouping(ctx, user, params, field),
  );
  const workersByKey = new Map(workers.rows.map((row) => [row.key ?? '', row]));

  const byKey = new Map<string, MarketShareRow>();
  for (const row of rows) {
    const mapKey = row.key ?? '';
    let entry = byKey.get(mapKey);
    if (!entry) {
      entry = {
        key: row.key,
        label: field ? groupLabel(field, row.key) : (row.label ?? (row.key === null ? 'None' : row.key)),
        union: empty(),
        non_union: empty(),
        unknown: empty(),
        total: empty(),
        share: { sites: null, value: null, hours: null },
        workers: workerFigures(workersByKey.get(mapKey)),
      };
      byKey.set(mapKey, entry);
    }
    add(entry[SLOT[row.labour]], row);
  }
  const totals: MarketShareRow = {
    key: null,
    label: 'Total',
    union: empty(),
    non_union: empty(),
    unknown: empty(),
    total: empty(),
    share: { sites: null, value: null, hours: null },
    workers: workerFigures(workers.totals),
  };
  for (const row of totalsRows) add(totals[SLOT[row.labour]], row);
  const data = [...byKey.values()].map(finish);
  if (params.group_by === 'period') data.sort((a, b) => String(a.key ?? '').localeCompare(String(b.key ?? '')));
  else
    data.sort((a, b) =>
      a.key === null ? 1 : b.key === null ? -1 : b.total.sites - a.total.sites || a.label.localeCompare(b.label),
    );
  return {
    data: data.map((row) => ({ ...row, link: drillDown(params, row.key) })),
    totals: finish(totals),
    meta: {
      group_by: params.group_by,
      interval: params.interval,
      date_field: params.date_field,
      labours: LABOURS,
      group_note: field ? groupNote(field, 'site') : null,
      definition:
        'A site is union work if any of its contractors is union; else non-union if any is non-union; else by its own type (union and PLA are union, non-union is non-union); else unknown, which is left out of the share.',
      workers_definition:
        'Workers counted: the head count of each site’s latest visit, union and non-union workers as counted there; workers whose status was not noted are unknown, left out of the share.',
    },
  };
}

type GroupRow = {
  key: string | null;
  label: string | null;
  labour: Labour;
  sites: number;
  value: number | null;
  hours: number | null;
};

/** The report by region or trade of every site, from the counts kept by the database (market-share-counts.ts). */
async function counted(
  ctx: AppContext,
  user: AuthUser,
  params: MarketShareParams,
): Promise<{ rows: GroupRow[]; totalsRows: GroupRow[] }> {
  const group = await grouping(ctx, user, params, null);
  const rows = await readCounts(ctx, params.group_by as 'region' | 'trade', group.labelJoin, group.label);
  return { rows, totalsRows: await readCounts(ctx, 'all') };
}

/** The report counted from the sites the person may read, with the filters. */
async function countedNow(
  ctx: AppContext,
  user: AuthUser,
  params: MarketShareParams,
  field: FieldGroup | null,
): Promise<{ rows: GroupRow[]; totalsRows: GroupRow[] }> {
  const base = await labouredSitesFrom(ctx, user);
  const group = await grouping(ctx, user, params, field);
  const where = sql`${base.where} and ${siteFilters(params)}`;
  const aggregates = sql`count(*)::int as sites, coalesce(sum(s.estimated_value), 0) as value, coalesce(sum(s.estimated_hours), 0) as hours`;
  if (field ? !field.multiple : params.group_by !== 'region' && params.group_by !== 'trade') {
    const { rows } = await sql<GroupRow>`
      select ${group.keyText} as key, ${group.label} as label, x.labour, x.sites, x.value, x.hours
      from (select ${group.key} as key, ${base.labour} as labour, ${aggregates} from ${base.from} where ${where} group by 1, 2) x
      ${group.labelJoin}`.execute(ctx.db);
    return { rows, totalsRows: rows };
  }
  // Region, trade and fields of several values join one row per link (a site in two regions counts in both, and
  // once in the totals): the labour is worked out once per site, then grouped by the links and, for the totals, alone.
  const { rows } = await sql<GroupRow & { part: 'group' | 'total' }>`
    with s as materialized (
      select s.id, s.estimated_value, s.estimated_hours, ${field?.owner === 'site' ? sql`s.custom, ` : sql``}${base.labour} as labour from ${base.from} where ${where}
    )
    select 'group' as part, ${group.keyText} as key, ${group.label} as label, x.labour, x.sites, x.value, x.hours
    from (select ${group.key} as key, s.labour, ${aggregates} from s ${group.join} group by 1, 2) x ${group.labelJoin}
    union all
    select 'total', null, null, s.labour, ${aggregates} from s group by s.labour`.execute(ctx.db);
  return { rows: rows.filter((r) => r.part === 'group'), totalsRows: rows.filter((r) => r.part === 'total') };
}

function add(target: LabourFigures, row: { sites: number; value: number | null; hours: number | null }) {
  target.sites += Number(row.sites);
  target.value += Number(row.value ?? 0);
  target.hours += Number(row.hours ?? 0);
}

function finish(row: MarketShareRow): MarketShareRow {
  for (const k of ['sites', 'value', 'hours'] as const) {
    row.total[k] = row.union[k] + row.non_union[k] + row.unknown[k];
    row.share[k] = percentOf(row.union[k], row.union[k] + row.non_union[k]);
    row.union[k] = round(row.union[k]);
    row.non_union[k] = round(row.non_union[k]);
    row.unknown[k] = round(row.unknown[k]);
    row.total[k] = round(row.total[k]);
  }
  return row;
}
const round = (n: number) => Math.round(n * 100) / 100;

/** The drill-down of one row: the same filters narrowed to the row's group (the client adds `labour`). */
export function drillDown(params: MarketShareParams, key: string | null): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of [
    'from',
    'to',
    'region_id',
    'team_id',
    'user_id',
    'trade_id',
    'building_type_id',
    'site_status_id',
    'date_field',
  ] as const) {
    if (params[name] !== undefined) query[name] = String(params[name]);
  }
  if (params.site_type?.length) query.site_type = params.site_type.join(',');
  query.group_by = params.group_by;
  if (params.group_by === 'period') query.interval = params.interval;
  query.key = key === null ? 'none' : key;
  return query;
}

export const drillShape = {
  ...marketShareShape,
  key: z.string().max(60).optional(),
  labour: z.enum(['union', 'non-union', 'unknown']).optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(1000).default(25),
};

/**
 * GET /api/reports/market-share/sites: the sites behind one cell of the report (a row's group and a labour), as a
 * list `{data, meta}` whose `meta.total` equals the cell's number of sites.
 */
export async function marketShareSites(ctx: AppContext, user: AuthUser, query: unknown) {
  const params = parseFilters(drillShape, query);
  assertMayRead(ctx, user);
  const field = await fieldGroup(ctx, user, params.group_by, 'site');
  const base = await labouredSitesFrom(ctx, user);
  const parts: RawBuilder<boolean>[] = [base.where, siteFilters(params)];
  const key = params.key;
  if (key !== undefined) {
    const none = key === 'none';
    const intKey = Number(key);
    if (field) parts.push(await siteInGroup(ctx, user, field, none ? null : key, 's'));
    switch (field ? null : (params.group_by as MarketShareGroup)) {
      case 'region':
        parts.push(
          none
            ? sql<boolean>`not exists (select 1 from site_regions g where g.site_id = s.id)`
            : sql<boolean>`exists (select 1 from site_regions g where g.site_id = s.id and g.region_id = ${intKey})`,
        );
        break;
      case 'trade':
        parts.push(
          none
            ? sql<boolean>`not exists (select 1 from site_trades g where g.site_id = s.id)`
            : sql<boolean>`exists (select 1 from site_trades g where g.site_id = s.id and g.trade_id = ${intKey})`,
        );
        break;
      case 'site_type':
        parts.push(sql<boolean>`s.type = ${key}`);
        break;
      case 'building_type':
        parts.push(none ? sql<boolean>`s.building_type_id is null` : sql<boolean>`s.building_type_id = ${intKey}`);
        break;
      case 'period': {
        const range = bucketRange(key, params.interval as Interval);
        if (range)
          parts.push(
            rangeCondition(
              sql.ref(`s.${params.date_field}`),
              range,
              params.date_field === 'created_at' ? 'timestamp' : 'date',
            ),
          );
        else parts.push(none ? sql<boolean>`${sql.ref(`s.${params.date_field}`)} is null` : sql<boolean>`false`);
        break;
      }
      default:
        break;
    }
  }
  // The cell's sites with their labour, then the labour filter outside: `offset 0` keeps the planner from pushing the
  // labour (which it cannot estimate) into the scan, so it plans the rest on what it can estimate (a region or trade
  // is read through its index instead of probing it once per site).
  const cell = sql`(
    select s.id, s.name, s.type, s.city, s.county, s.estimated_value, s.estimated_hours, s.created_at, s.kickoff_date, ${base.labour} as labour
    from ${base.from} where ${sql.join(parts, sql` and `)} offset 0
  ) c`;
  const labour = params.labour ? sql<boolean>`c.labour = ${params.labour}` : sql<boolean>`true`;
  const total = Number(
    (await sql<{ n: number }>`select count(*)::int as n from ${cell} where ${labour}`.execute(ctx.db)).rows[0]?.n ?? 0,
  );
  const { rows } = await sql<Record<string, unknown>>`
    select c.* from ${cell} where ${labour}
    order by c.name, c.id
    limit ${params.per_page} offset ${(params.page - 1) * params.per_page}`.execute(ctx.db);
  const from = rows.length ? (params.page - 1) * params.per_page + 1 : null;
  return {
    data: rows,
    meta: {
      current_page: params.page,
      from,
      to: from === null ? null : from + rows.length - 1,
      per_page: params.per_page,
      total,
      last_page: Math.max(1, Math.ceil(total / params.per_page)),
    },
  };
}
