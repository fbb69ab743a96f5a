import { z } from 'zod';
import { permittedCategories } from '../../../common/permissions.js';
import { bucketRange, rangeFilter, type Interval } from '../../reports/scope.js';
import { listUrl, recordLabel, type FieldInfo, type TypeInfo } from '../catalogue.js';
import { resolveFilters } from './records.js';
import { failure, guarded, unknownType, type Tool, type ToolScope } from './scope.js';
import { filtersArg } from './search.js';

/** Groups with more distinct values than this are not counted one by one. */
const MAX_GROUPS = 60;
const INTERVALS = ['week', 'month', 'quarter', 'year'] as const;

interface Group {
  label: string;
  value: unknown;
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

/** The periods of `interval` from `from` to `to`, each as a group whose filter is its date range. */
function periodGroups(field: string, interval: Interval, from: string, to: string): Array<Group & { filter: Record<string, string> }> {
  const groups: Array<Group & { filter: Record<string, string> }> = [];
  let cursor = new Date(`${from}T00:00:00Z`);
  const end = new Date(`${to}T00:00:00Z`);
  while (cursor <= end && groups.length < MAX_GROUPS) {
    const label =
      interval === 'year'
        ? String(cursor.getUTCFullYear())
        : interval === 'quarter'
          ? `${cursor.getUTCFullYear()}-Q${Math.floor(cursor.getUTCMonth() / 3) + 1}`
          : interval === 'month'
            ? iso(cursor).slice(0, 7)
            : isoWeek(cursor);
    const range = bucketRange(label, interval)!;
    groups.push({ label, value: label, filter: rangeFilter(field, { from: range.from < from ? from : range.from, to: range.to > to ? to : range.to }) });
    cursor = new Date(Date.parse(`${range.to}T00:00:00Z`) + 86_400_000);
  }
  return groups;
}

function isoWeek(date: Date): string {
  const thursday = new Date(date.getTime() + (3 - ((date.getUTCDay() + 6) % 7)) * 86_400_000);
  const jan4 = new Date(Date.UTC(thursday.getUTCFullYear(), 0, 4));
  const week = 1 + Math.round((thursday.getTime() - jan4.getTime()) / 86_400_000 / 7 - ((jan4.getUTCDay() + 6) % 7 - 3) / 7);
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** The values a field's records are counted by: its choices, the related records the person may read, yes/no. */
async function valueGroups(scope: ToolScope, info: TypeInfo, field: FieldInfo): Promise<Group[] | string> {
  let groups: Group[];
  if (field.choices) groups = field.choices.map((c) => ({ label: c.label, value: c.value }));
  else if (field.target) {
    const def = scope.app.resources.get(field.target);
    if (!def) return `The ${field.name} of ${info.plural} cannot be counted.`;
    const { data, meta } = await scope.app.records.list(scope.user, def, { per_page: MAX_GROUPS });
    if (meta.total > MAX_GROUPS) return `There are too many ${field.name} values (${meta.total}) to count ${info.plural} by each.`;
    groups = data.map((row) => ({ label: recordLabel(row), value: row.id }));
  } else if (field.kind === 'boolean') groups = [{ label: 'yes', value: true }, { label: 'no', value: false }];
  else return `${info.plural} can be counted by ${groupableFields(info).join(', ')} or by period, not by ${field.name}.`;
  // A category the person may not read is not counted (it would always be 0, and naming it says nothing true).
  if (info.def.categoryColumn === field.slug) {
    const allowed = permittedCategories(scope.user, info.def.permission ?? info.def.type, 'read');
    if (allowed !== 'all') groups = groups.filter((g) => allowed.includes(String(g.value)));
  }
  return groups;
}

const groupableFields = (info: TypeInfo) => [...info.fields.values()].filter((f) => f.filterable && (f.choices || f.target || f.kind === 'boolean')).map((f) => f.slug);

export const countRecords: Tool<{ type: string; filters?: Record<string, unknown>; search?: string; group_by?: string; interval?: Interval; date_field?: string; from?: string; to?: string }> = {
  name: 'count_records',
  description:
    'Count the records of one type the person may read, optionally filtered, and optionally grouped by a field (type, status, region, trade, ...) or by period (group_by "period" with interval and date_field).',
  parameters: {
    type: 'object',
    properties: {
      type: { type: 'string', description: 'Record type slug.' },
      filters: { type: 'object', description: 'As for search_records.', additionalProperties: true },
      search: { type: 'string' },
      group_by: { type: 'string', description: 'A field slug with choices or related records (e.g. type, site_status_id, region_ids, trade_ids), or "period".' },
      interval: { type: 'string', enum: [...INTERVALS], description: 'For group_by period (default month).' },
      date_field: { type: 'string', description: 'For group_by period: the date field (default created_at).' },
      from: { type: 'string', description: 'For group_by period: first day, YYYY-MM-DD (default a year ago).' },
      to: { type: 'string', description: 'For group_by period: last day, YYYY-MM-DD (default today).' },
    },
    required: ['type'],
  },
  args: z.object({
    type: z.string().max(60),
    filters: filtersArg,
    search: z.string().max(200).optional(),
    group_by: z.string().max(80).optional(),
    interval: z.enum(INTERVALS).optional(),
    date_field: z.string().max(80).optional(),
    from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
    to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  }),
  run: (args, scope) =>
    guarded(async () => {
      const info = scope.typeOf(args.type);
      if (!info) return unknownType(scope, args.type);
      const filter = await resolveFilters(scope, info, args.filters);
      const count = async (extra: Record<string, unknown>) => {
        const query: Record<string, unknown> = { filter: JSON.stringify({ ...filter, ...extra }), per_page: 1 };
        if (args.search) query.search = args.search;
        return (await scope.app.records.list(scope.user, info.def, query)).meta.total;
      };
      const total = await count({});
      const data: Record<string, unknown> = { type: info.type, total, list_url: listUrl(info, filter) };
      if (args.group_by) {
        let groups: Array<Group & { filter: Record<string, unknown> }>;
        if (args.group_by === 'period') {
          const dateField = info.fields.get(args.date_field ?? 'created_at');
          if (!dateField || (dateField.kind !== 'date' && dateField.kind !== 'datetime')) return failure(`${info.plural} have no date field "${args.date_field}".`);
          const to = args.to ?? iso(scope.now);
          const from = args.from ?? iso(new Date(Date.parse(`${to}T00:00:00Z`) - 364 * 86_400_000));
          groups = periodGroups(dateField.slug, args.interval ?? 'month', from, to);
        } else {
          const field = info.fields.get(args.group_by);
          if (!field || !field.filterable) return failure(`${info.plural} can be counted by ${groupableFields(info).join(', ')} or by period, not by "${args.group_by}".`);
          const values = await valueGroups(scope, info, field);
          if (typeof values === 'string') return failure(values);
          groups = values.map((g) => ({ ...g, filter: { [field.slug]: field.kind.endsWith('[]') ? [g.value] : g.value } }));
          if (!field.kind.endsWith('[]') && !field.choices?.length && field.kind !== 'boolean') groups.push({ label: 'none', value: null, filter: { [`${field.slug}_null`]: true } });
        }
        const counted = [];
        for (const group of groups) {
          const n = await count(group.filter);
          if (n > 0 || args.group_by === 'period') counted.push({ label: group.label, value: group.value, count: n, list_url: listUrl(info, { ...filter, ...group.filter }) });
        }
        data.group_by = args.group_by;
        data.groups = args.group_by === 'period' ? counted : counted.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
      }
      return { data, records: [] };
    }),
};
