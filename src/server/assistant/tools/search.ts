import { z } from 'zod';
import { listUrl } from '../catalogue.js';
import { apiQuery, describeRows, listQueryOf, resolveFilters } from './records.js';
import { guarded, type Tool, unknownType } from './scope.js';

const filterValue = z.union([
  z.string().max(200),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.string().max(200), z.number()])).max(50),
]);
export const filtersArg = z.record(z.string().max(80), filterValue).optional();

const FILTERS_HELP =
  'Filters by field slug (see record_types): {"type": "union", "site_status_id": "Bidding", "region_ids": "Fresno County", "bid_date_gte": "2026-06-01", "bid_date_lt": "2026-07-01"}. Suffixes _gte _lte _gt _lt _neq _like _null; a list means any of; related records may be given by name. `_null: true` means empty, a list of related records included ("contractors with no contact": {"contact_ids_null": true}; with one: false), read as the view filters has_none / has_any.';

export const searchRecords: Tool<{
  type: string;
  search?: string;
  filters?: Record<string, unknown>;
  sort?: string;
  order?: 'asc' | 'desc';
  limit?: number;
  fields?: string[];
}> = {
  name: 'search_records',
  description:
    'Find records of one type that the person may read, with a total count. Use it to list, filter or find a record by name.',
  parameters: {
    type: 'object',
    properties: {
      type: {
        type: 'string',
        description:
          'Record type slug, e.g. site, contractor, contact, member, recruit, grievance, task, note, or a custom type.',
      },
      search: { type: 'string', description: 'Words to look for in names and other searchable text.' },
      filters: { type: 'object', description: FILTERS_HELP, additionalProperties: true },
      sort: { type: 'string', description: 'Field slug to sort by.' },
      order: { type: 'string', enum: ['asc', 'desc'] },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: 50,
        description: 'How many records to return (default 10); the total is always counted.',
      },
      fields: {
        type: 'array',
        items: { type: 'string' },
        description: 'Only these fields of each record (label and url always come).',
      },
    },
    required: ['type'],
  },
  args: z.object({
    type: z.string().max(60),
    search: z.string().max(200).optional(),
    filters: filtersArg,
    sort: z.string().max(80).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    limit: z.number().int().min(1).max(50).optional(),
    fields: z.array(z.string().max(80)).max(50).optional(),
  }),
  run: (args, scope) =>
    guarded(async () => {
      const info = scope.typeOf(args.type);
      if (!info) return unknownType(scope, args.type);
      const resolved = await resolveFilters(scope, info, args.filters);
      const listQuery = listQueryOf(info, resolved);
      const { filter, where } = listQuery;
      const query: Record<string, unknown> = { ...apiQuery(listQuery), per_page: args.limit ?? 10 };
      if (args.search) query.search = args.search;
      if (args.sort) Object.assign(query, { sort: args.sort, order: args.order ?? 'asc' });
      const { data, meta } = await scope.app.records.list(scope.user, info.def, query);
      const records = await describeRows(scope, info, data, args.fields);
      return {
        data: {
          type: info.type,
          total: meta.total,
          shown: records.length,
          list_url: listUrl(info, args.search ? { ...filter, q: args.search } : filter, where),
          records,
        },
        records: data.map((row) => scope.cite(info, row)),
        // What the answer keeps (not with a search: a view's filters do not hold its words).
        ...(args.search ? {} : { listed: { type: info.type, mode: 'list' as const, filter: resolved } }),
      };
    }),
};

/** How many related records of each kind a record page shows at most, and which of their fields. */
const RELATED_LIMIT = 5;
const RELATED_FIELDS = ['title', 'type', 'status', 'body', 'due_at', 'completed_at', 'filed_at', 'signed_at'];

export const getRecord: Tool<{ type: string; id: number }> = {
  name: 'get_record',
  description:
    'Read one record with its fields (related records by name) and the records linked to it (notes, tasks, grievances, recruits, ...).',
  parameters: {
    type: 'object',
    properties: {
      type: { type: 'string', description: 'Record type slug.' },
      id: { type: 'integer', description: 'The record id.' },
    },
    required: ['type', 'id'],
  },
  args: z.object({ type: z.string().max(60), id: z.coerce.number().int().positive() }),
  run: (args, scope) =>
    guarded(async () => {
      const info = scope.typeOf(args.type);
      if (!info) return unknownType(scope, args.type);
      const row = await scope.app.records.show(scope.user, info.def, args.id);
      const [record] = await describeRows(scope, info, [row]);
      const citations = [scope.cite(info, row)];
      const related: Array<{ type: string; via: string; total: number; records: unknown[]; list_url: string }> = [];
      // Every readable type with a field pointing at this one (grievances.site_id, recruits.site_id, ...), and the notes and tasks on it.
      for (const other of scope.types) {
        const links: Array<[string, Record<string, unknown>]> = [...other.fields.values()]
          .filter((f) => f.target === info.resource && f.filterable)
          .map((f) => [f.name, { [f.slug]: args.id }]);
        if (other.type === 'note') links.push(['notes on it', { notable_type: info.type, notable_id: args.id }]);
        if (other.type === 'task') links.push(['tasks on it', { taskable_type: info.type, taskable_id: args.id }]);
        for (const [via, filter] of links) {
          if (!(await scope.app.records.count(scope.user, other.def, { filter: JSON.stringify(filter) })).total)
            continue;
          const { data, meta } = await scope.app.records.list(scope.user, other.def, {
            filter: JSON.stringify(filter),
            per_page: RELATED_LIMIT,
          });
          related.push({
            type: other.type,
            via,
            total: meta.total,
            records: await describeRows(scope, other, data, RELATED_FIELDS),
            list_url: other.type === 'note' ? citations[0].url : `/${other.resource}`,
          });
          citations.push(...data.map((r) => scope.cite(other, r)));
        }
      }
      return { data: { type: info.type, record, related }, records: citations };
    }),
};
