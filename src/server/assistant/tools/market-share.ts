import { z } from 'zod';
import { MARKET_SHARE_GROUPS, marketShare, parseMarketShare } from '../../reports/market-share.js';
import { requireReports } from '../../reports/scope.js';
import { findByName } from './records.js';
import { failure, guarded, type Tool, type ToolScope } from './scope.js';

const nameOrId = z.union([z.string().max(200), z.number().int().positive()]);

/** A region or trade given by id or by name, looked up as the person. */
async function idOf(
  scope: ToolScope,
  resource: string,
  value: string | number | undefined,
  what: string,
): Promise<number | undefined | string> {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'number' || /^\d+$/.test(value)) return Number(value);
  const def = scope.app.resources.get(resource);
  const found = def ? await findByName(scope, def, value, 2) : [];
  if (found.length !== 1)
    return found.length
      ? `"${value}" names more than one ${what}.`
      : `No ${what} named "${value}" was found among those you may read.`;
  return found[0].id;
}

export const marketShareTool: Tool<{
  region?: string | number;
  trade?: string | number;
  from?: string;
  to?: string;
  site_type?: string[];
  group_by?: (typeof MARKET_SHARE_GROUPS)[number];
  date_field?: 'created_at' | 'kickoff_date' | 'bid_date';
}> = {
  name: 'market_share',
  description:
    "Union market share (the market share report): union against non-union work by number of sites, estimated value and estimated hours, for a region, trade and period. Needs the person's permission to read reports.",
  parameters: {
    type: 'object',
    properties: {
      region: { type: ['string', 'integer'], description: 'Region name or id, e.g. "Fresno County".' },
      trade: { type: ['string', 'integer'], description: 'Trade name or id.' },
      from: { type: 'string', description: 'First day, YYYY-MM-DD.' },
      to: { type: 'string', description: 'Last day, YYYY-MM-DD.' },
      date_field: {
        type: 'string',
        enum: ['created_at', 'kickoff_date', 'bid_date'],
        description: 'Which date the period applies to (default created_at).',
      },
      site_type: { type: 'array', items: { type: 'string' } },
      group_by: { type: 'string', enum: [...MARKET_SHARE_GROUPS], description: 'Default none (one total).' },
    },
  },
  args: z.object({
    region: nameOrId.optional(),
    trade: nameOrId.optional(),
    from: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    to: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    site_type: z.array(z.string().max(40)).max(20).optional(),
    group_by: z.enum(MARKET_SHARE_GROUPS).optional(),
    date_field: z.enum(['created_at', 'kickoff_date', 'bid_date']).optional(),
  }),
  run: (args, scope) =>
    guarded(async () => {
      const user = await requireReports(scope.app, scope.user);
      const region = await idOf(scope, 'regions', args.region, 'region');
      const trade = await idOf(scope, 'trades', args.trade, 'trade');
      if (typeof region === 'string') return failure(region);
      if (typeof trade === 'string') return failure(trade);
      const query: Record<string, string> = { group_by: args.group_by ?? 'none' };
      if (region) query.region_id = String(region);
      if (trade) query.trade_id = String(trade);
      for (const key of ['from', 'to', 'date_field'] as const) if (args[key]) query[key] = args[key]!;
      if (args.site_type?.length) query.site_type = args.site_type.join(',');
      const report = await marketShare(scope.app, user, parseMarketShare(query));
      const { group_by: _, ...linkQuery } = query;
      return {
        data: {
          totals: report.totals,
          groups:
            args.group_by && args.group_by !== 'none'
              ? report.data.slice(0, 30).map(({ link: _link, ...row }) => row)
              : undefined,
          definition: report.meta.definition,
          report_url: `/reports/market-share?${new URLSearchParams(linkQuery).toString()}`,
        },
        records: [],
      };
    }),
};
