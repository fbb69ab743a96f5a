import { z } from 'zod';
import { bucketRange, type Interval, rangeFilter } from '../../reports/scope.js';
import { type FieldInfo, listUrl, type TypeInfo } from '../catalogue.js';
import { apiQuery, labelsOf, listQueryOf, resolveFilters } from './records.js';
import { failure, guarded, type Listed, type Tool, type ToolScope, unknownType } from './scope.js';
import { filtersArg } from './search.js';

/** The most periods counted by period. */
const MAX_GROUPS = 60;
const INTERVALS = ['week', 'month', 'quarter', 'year'] as const;

interface Group {
  label: string;
  value: unknown;
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

/** The periods of `interval` from `from` to `to`, each as a group whose filter is its date range. */
function periodGroups(
  field: string,
  interval: Interval,
  from: string,
  to: string,
): Array<Group & { filter: Record<string, string> }> {
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
    groups.push({
      label,
      value: label,
      filter: rangeFilter(field, { from: range.from < from ? from : range.from, to: range.to > to ? to : range.to }),
    });
    cursor = new Date(Date.parse(`${range.to}T00:00:00Z`) + 86_400_000);
  }
  return groups;
}

function isoWeek(date: Date): string {
  const thursday = new Date(date.getTime() + (3 - ((date.getUTCDay() + 6) % 7)) * 86_400_000);
  const jan4 = new Date(Date.UTC(thursday.getUTCFullYear(), 0, 4));
  const week =
    1 + Math.round((thursday.getTime() - jan4.getTime()) / 86_400_000 / 7 - (((jan4.getUTCDay() + 6) % 7) - 3) / 7);
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** How a counted value is named: its choice's label, the related record's name (as the person may read it), yes/no. */
/** The one group of what a person may not name: "3 more you cannot see". */
export const HIDDEN_GROUPS = 'more you cannot see';

async function labelled(scope: ToolScope, field: FieldInfo, values: unknown[]): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  if (field.choices) for (const c of field.choices) labels.set(c.value, c.label);
  else if (field.target)
    for (const [id, label] of await labelsOf(scope, field.target, values.map(Number))) labels.set(String(id), label);
  else if (field.kind === 'boolean') labels.set('true', 'yes').set('false', 'no');
  return labels;
}

interface NamedGroup {
  label: string;
  value: unknown;
  count: number;
  sum?: number;
  list_url: string | null;
}

/**
 * The groups of a count (or a sum) by `field`, each named (its choice's label, the related record's name as the person
 * may read it) with the link to its list, most first. Groups the person may not name (people or records they may
 * not read) are one total, never one line each; their own name is always there.
 */
async function namedGroups(
  scope: ToolScope,
  info: TypeInfo,
  field: FieldInfo,
  counted: Array<{ value: unknown; count: number; sum?: number }>,
  filter: Record<string, unknown>,
  where: Parameters<typeof listUrl>[2],
): Promise<NamedGroup[]> {
  const labels = await labelled(
    scope,
    field,
    counted.map((g) => g.value),
  );
  const multiple = field.kind.endsWith('[]');
  if (field.target === 'users' && !labels.has(String(scope.user.id)))
    labels.set(String(scope.user.id), scope.user.name);
  const named = counted.filter((g) => g.value === null || labels.has(String(g.value)));
  const unnamed = counted.filter((g) => g.value !== null && !labels.has(String(g.value)));
  const summed = counted.some((g) => g.sum !== undefined);
  const groups: NamedGroup[] = named
    .map((g) => ({
      label: g.value === null ? 'none' : labels.get(String(g.value))!,
      value: g.value,
      count: g.count,
      ...(summed ? { sum: g.sum ?? 0 } : {}),
      list_url: listUrl(
        info,
        {
          ...filter,
          ...(g.value === null ? { [`${field.slug}_null`]: true } : { [field.slug]: multiple ? [g.value] : g.value }),
        },
        where,
      ),
    }))
    .sort((a, b) => (b.sum ?? 0) - (a.sum ?? 0) || b.count - a.count || a.label.localeCompare(b.label));
  const hidden = unnamed.reduce((sum, g) => sum + g.count, 0);
  if (hidden)
    groups.push({
      label: HIDDEN_GROUPS,
      value: null,
      count: hidden,
      ...(summed ? { sum: unnamed.reduce((sum, g) => sum + (g.sum ?? 0), 0) } : {}),
      list_url: null,
    });
  return groups;
}

const groupableFields = (info: TypeInfo) =>
  [...info.fields.values()]
    .filter((f) => f.filterable && (f.choices || f.target || f.kind === 'boolean'))
    .map((f) => f.slug);

export const countRecords: Tool<{
  type: string;
  filters?: Record<string, unknown>;
  search?: string;
  group_by?: string;
  interval?: Interval;
  date_field?: string;
  from?: string;
  to?: string;
  sum?: string;
  average?: string;
}> = {
  name: 'count_records',
  description:
    'Count the records of one type the person may read, optionally filtered, and optionally grouped by a field (type, status, region, trade, ...) or by period (group_by "period" with interval and date_field); or add up (sum) or average a number field over them (estimated_value, estimated_hours).',
  parameters: {
    type: 'object',
    properties: {
      type: { type: 'string', description: 'Record type slug.' },
      filters: { type: 'object', description: 'As for search_records.', additionalProperties: true },
      search: { type: 'string' },
      group_by: {
        type: 'string',
        description:
          'A field slug with choices or related records (e.g. type, site_status_id, region_ids, trade_ids), or "period".',
      },
      interval: { type: 'string', enum: [...INTERVALS], description: 'For group_by period (default month).' },
      date_field: { type: 'string', description: 'For group_by period: the date field (default created_at).' },
      from: { type: 'string', description: 'For group_by period: first day, YYYY-MM-DD (default a year ago).' },
      to: { type: 'string', description: 'For group_by period: last day, YYYY-MM-DD (default today).' },
      sum: {
        type: 'string',
        description:
          "A number field slug to add up over the records; with group_by (a field), each group's sum too, groups with the most first.",
      },
      average: { type: 'string', description: 'A number field slug to average over the records (not with group_by).' },
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
    from: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    to: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    sum: z.string().max(80).optional(),
    average: z.string().max(80).optional(),
  }),
  run: (args, scope) =>
    guarded(async () => {
      const info = scope.typeOf(args.type);
      if (!info) return unknownType(scope, args.type);
      const resolved = await resolveFilters(scope, info, args.filters);
      const { filter, where } = listQueryOf(info, resolved);
      const query = (extra: Record<string, unknown> = {}) => ({
        ...apiQuery({ filter: { ...filter, ...extra }, where }),
        ...(args.search ? { search: args.search } : {}),
      });
      const field = args.group_by && args.group_by !== 'period' ? info.fields.get(args.group_by) : undefined;
      if (
        (args.group_by && args.group_by !== 'period' && !field) ||
        (field && (!field.filterable || !(field.choices || field.target || field.kind === 'boolean')))
      )
        return failure(
          `${info.plural} can be counted by ${groupableFields(info).join(', ')} or by period, not by "${args.group_by}".`,
        );
      const measured = args.sum ?? args.average;
      const grouped = field
        ? { field: field.slug, label: field.name }
        : args.group_by === 'period'
          ? { field: 'period', label: args.interval ?? 'month', interval: args.interval ?? 'month' }
          : undefined;
      // What the answer keeps of the call (not with a search: a view's filters do not hold its words).
      const listed = (extra: Partial<Listed> = {}): Listed | undefined =>
        args.search
          ? undefined
          : {
              type: info.type,
              mode: grouped ? 'group' : 'count',
              filter: resolved,
              ...(grouped ? { group_by: grouped } : {}),
              ...extra,
            };
      if (measured) {
        const fn = args.sum ? 'sum' : 'avg';
        if (args.group_by && !(field && fn === 'sum'))
          return failure('A number can be added up by a field with choices or related records, not averaged by group.');
        const { total, counted, value, groups } = await scope.app.records.measure(scope.user, info.def, query(), {
          fn,
          field: measured,
          ...(field ? { groupBy: field.slug } : {}),
        });
        return {
          data: {
            type: info.type,
            total,
            [args.sum ? 'sum' : 'average']: value,
            field: measured,
            with_value: counted,
            list_url: listUrl(info, filter, where),
            ...(field && groups
              ? { group_by: field.slug, groups: await namedGroups(scope, info, field, groups, filter, where) }
              : {}),
          },
          records: [],
          listed: listed({
            measure: {
              fn,
              field: measured,
              words: `${fn === 'sum' ? 'total' : 'average'} ${info.fields.get(measured)?.name ?? measured}`,
            },
          }),
        };
      }
      const counted = await scope.app.records.count(scope.user, info.def, query(), field?.slug);
      const data: Record<string, unknown> = {
        type: info.type,
        total: counted.total,
        list_url: listUrl(info, filter, where),
      };
      if (field && counted.groups) {
        data.group_by = field.slug;
        data.groups = await namedGroups(scope, info, field, counted.groups, filter, where);
      } else if (args.group_by === 'period') {
        const dateField = info.fields.get(args.date_field ?? 'created_at');
        if (!dateField || (dateField.kind !== 'date' && dateField.kind !== 'datetime'))
          return failure(`${info.plural} have no date field "${args.date_field}".`);
        const to = args.to ?? iso(scope.now);
        const from = args.from ?? iso(new Date(Date.parse(`${to}T00:00:00Z`) - 364 * 86_400_000));
        const groups = [];
        for (const period of periodGroups(dateField.slug, args.interval ?? 'month', from, to)) {
          const { total } = await scope.app.records.count(scope.user, info.def, query(period.filter));
          groups.push({
            label: period.label,
            value: period.value,
            count: total,
            list_url: listUrl(info, { ...filter, ...period.filter }, where),
          });
        }
        data.group_by = 'period';
        data.groups = groups;
      }
      return { data, records: [], listed: listed() };
    }),
};
