import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type {
  ClassificationRow,
  MarketShareRow,
  TaskPerformanceRow,
  UserPerformanceRow,
} from '../../common/report-types.js';
import type { AppContext } from '../app-context.js';
import { csvFile, record, rowWith } from '../http/contracts.js';
import { classifications, classificationsShape, parseClassifications } from './classifications.js';
import { type CsvColumn, csvFileName, toCsv } from './csv.js';
import { drillShape, marketShare, marketShareShape, marketShareSites, parseMarketShare } from './market-share.js';
import { filtersQuery, requireReports } from './scope.js';
import { parseTaskPerformance, taskPerformance, taskPerformanceShape } from './task-performance.js';
import { parseUserPerformance, userPerformance, userPerformanceShape } from './user-performance.js';

/** Answers CSV when asked (`?format=csv` or `Accept: text/csv`), else JSON. */
function wantsCsv(request: FastifyRequest) {
  const query = request.query as Record<string, unknown>;
  return (
    query.format === 'csv' || (query.format === undefined && /\btext\/csv\b/.test(String(request.headers.accept ?? '')))
  );
}

function sendCsv<T>(reply: FastifyReply, name: string, columns: CsvColumn<T>[], rows: T[]) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csvFileName(name)}"`)
    .header('cache-control', 'no-store')
    .send(toCsv(columns, rows));
}

const labourColumns = (
  prefix: string,
  pick: (row: MarketShareRow) => MarketShareRow['union'],
): CsvColumn<MarketShareRow>[] => [
  { header: `${prefix} sites`, value: (r) => pick(r).sites },
  { header: `${prefix} estimated value`, value: (r) => pick(r).value },
  { header: `${prefix} estimated hours`, value: (r) => pick(r).hours },
];

const MARKET_SHARE_CSV: CsvColumn<MarketShareRow>[] = [
  { header: 'Group', value: (r) => r.label },
  ...labourColumns('Union', (r) => r.union),
  ...labourColumns('Non-union', (r) => r.non_union),
  ...labourColumns('Unknown', (r) => r.unknown),
  ...labourColumns('All', (r) => r.total),
  { header: 'Union share of sites (%)', value: (r) => r.share.sites },
  { header: 'Union share of value (%)', value: (r) => r.share.value },
  { header: 'Union share of hours (%)', value: (r) => r.share.hours },
];

const MARKET_SHARE_WORKERS_CSV: CsvColumn<MarketShareRow>[] = [
  { header: 'Union workers counted', value: (r) => r.workers.union },
  { header: 'Non-union workers counted', value: (r) => r.workers.non_union },
  { header: 'Workers counted, status not noted', value: (r) => r.workers.unknown },
  { header: 'All workers counted', value: (r) => r.workers.total },
  { header: 'Union share of workers (%)', value: (r) => r.workers.share },
];

const CLASSIFICATIONS_CSV: CsvColumn<ClassificationRow>[] = [
  { header: 'Classification', value: (r) => r.label },
  { header: 'Classification type', value: (r) => r.classification_type },
  { header: 'Members', value: (r) => r.members },
  { header: 'Stewards', value: (r) => r.stewards },
  { header: 'Contacts', value: (r) => r.contacts },
];

const TASK_PERFORMANCE_CSV: CsvColumn<TaskPerformanceRow>[] = [
  { header: 'Name', value: (r) => r.label },
  { header: 'Period', value: (r) => r.period },
  { header: 'Calls', value: (r) => r.calls },
  { header: 'Meetings', value: (r) => r.meetings },
  { header: 'Visits', value: (r) => r.visits },
  { header: 'Done', value: (r) => r.done },
  { header: 'Due', value: (r) => r.due },
  { header: 'Due and done', value: (r) => r.due_done },
  { header: 'Overdue', value: (r) => r.overdue },
  { header: 'Completion rate (%)', value: (r) => r.completion_rate },
];

const USER_PERFORMANCE_CSV: CsvColumn<UserPerformanceRow>[] = [
  { header: 'Name', value: (r) => r.name },
  ...(['calls', 'meetings', 'visits', 'recruits'] as const).flatMap((k): CsvColumn<UserPerformanceRow>[] => [
    { header: `${k[0].toUpperCase()}${k.slice(1)}`, value: (r) => r.done[k] },
    { header: `${k[0].toUpperCase()}${k.slice(1)} goal`, value: (r) => r.goals[k] },
    { header: `${k[0].toUpperCase()}${k.slice(1)} progress (%)`, value: (r) => r.progress[k] },
  ]),
];

/** A line of a report: the figures of one group (common/report-types.ts says what each holds). */
const line = rowWith({ label: z.string().nullable().optional() });
/** A report's answer as JSON, or (`format=csv`, `Accept: text/csv`) its table as CSV. */
const report = {
  description: 'The report as JSON, or as CSV with format=csv.',
  content: {
    'application/json': {
      schema: z.object({ data: z.array(line), totals: line.nullable().optional(), meta: rowWith({}).optional() }),
    },
    ...csvFile.content,
  },
};

/**
 * The reports (docs/reports.md). Each needs `report:read` (and the reports feature), counts only what the person
 * may read, takes its filters from the query string and answers CSV with `format=csv`.
 */
export function registerReportRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const sitesReport = { permission: { allOf: ['report:read', { resource: 'sites', action: 'read' }] } } as const;

  app.get(
    '/api/reports/market-share',
    { schema: { querystring: filtersQuery(marketShareShape), response: { 200: report } }, config: sitesReport },
    async (request, reply) => {
      const user = await requireReports(ctx, request.user);
      const params = parseMarketShare(request.query);
      const result = await marketShare(ctx, user, params);
      const columns =
        params.measure === 'workers' ? [...MARKET_SHARE_CSV, ...MARKET_SHARE_WORKERS_CSV] : MARKET_SHARE_CSV;
      if (wantsCsv(request)) return sendCsv(reply, 'market-share', columns, [...result.data, result.totals]);
      return result;
    },
  );

  app.get(
    '/api/reports/market-share/sites',
    {
      schema: {
        querystring: filtersQuery(drillShape),
        response: { 200: z.object({ data: z.array(record), meta: rowWith({ total: z.number().int() }) }) },
      },
      config: sitesReport,
    },
    async (request) => {
      const user = await requireReports(ctx, request.user);
      return marketShareSites(ctx, user, request.query);
    },
  );

  app.get(
    '/api/reports/classifications',
    {
      schema: { querystring: filtersQuery(classificationsShape), response: { 200: report } },
      config: {
        permission: {
          allOf: [
            'report:read',
            {
              anyOf: [
                { resource: 'members', action: 'read' },
                { resource: 'contacts', action: 'read' },
              ],
            },
          ],
        },
      },
    },
    async (request, reply) => {
      const user = await requireReports(ctx, request.user);
      const result = await classifications(ctx, user, parseClassifications(request.query));
      if (wantsCsv(request)) return sendCsv(reply, 'classifications', CLASSIFICATIONS_CSV, result.data);
      return result;
    },
  );

  app.get(
    '/api/reports/task-performance',
    {
      schema: { querystring: filtersQuery(taskPerformanceShape), response: { 200: report } },
      config: { permission: { allOf: ['report:read', { resource: 'tasks', action: 'read' }] } },
    },
    async (request, reply) => {
      const user = await requireReports(ctx, request.user);
      const result = await taskPerformance(ctx, user, parseTaskPerformance(request.query));
      if (wantsCsv(request)) return sendCsv(reply, 'task-performance', TASK_PERFORMANCE_CSV, result.data);
      return result;
    },
  );

  app.get(
    '/api/reports/user-performance',
    {
      schema: { querystring: filtersQuery(userPerformanceShape), response: { 200: report } },
      config: { permission: 'report:read' },
    },
    async (request, reply) => {
      const user = await requireReports(ctx, request.user);
      const result = await userPerformance(ctx, user, parseUserPerformance(request.query));
      if (wantsCsv(request)) return sendCsv(reply, 'user-performance', USER_PERFORMANCE_CSV, result.data);
      return result;
    },
  );
}
