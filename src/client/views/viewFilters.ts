/**
 * A list's filter values in the list dialect (`type`, `city_like`, `bid_date_gte`, `value_null`: docs/api.md) as the
 * view filter structure a saved view keeps (`{"all"|"any": [{field, op, value}]}`), with the same operator names the
 * server gives `filter[...]` (server filters/filter-tree.ts fromListFilters). The search (`q`) is not a filter.
 */
export interface ViewCondition {
  field: string;
  op: string;
  value?: unknown;
}
export type ViewFilterGroup = { all: ViewCondition[] } | { any: ViewCondition[] };

const SUFFIXES: ReadonlyArray<readonly [string, string]> = [
  ['_gte', 'gte'],
  ['_lte', 'lte'],
  ['_gt', 'gt'],
  ['_lt', 'lt'],
  ['_neq', 'neq'],
  ['_like', 'like'],
  ['_null', 'null'],
];

export function listFiltersAsTree(
  values: Record<string, unknown>,
  join: 'all' | 'any',
  fields: ReadonlySet<string>,
): ViewFilterGroup | null {
  const conditions: ViewCondition[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (key === 'q' || key === 'filters' || value === undefined || value === '' || value === null) continue;
    let field = key;
    let op = Array.isArray(value) ? 'in' : 'eq';
    const suffix = fields.has(key) ? undefined : SUFFIXES.find(([ending]) => key.endsWith(ending));
    if (suffix) {
      field = key.slice(0, -suffix[0].length);
      op = suffix[1];
    }
    conditions.push({ field, op, value });
  }
  if (!conditions.length) return null;
  return join === 'any' ? { any: conditions } : { all: conditions };
}

type ViewFilterTree = { all: unknown[] } | { any: unknown[] };

/**
 * What a list shows, as the filters a saved view keeps: the filter builder's structure (`filters`) and any filter of
 * the list dialect beside it (a category tab's `type`, an old link's `filter[city_like]`), which must all hold.
 */
export function listViewFilters(values: Record<string, unknown>, fields: ReadonlySet<string>): ViewFilterTree | null {
  const listed = listFiltersAsTree(values, 'all', fields);
  const built = values.filters && typeof values.filters === 'object' ? (values.filters as ViewFilterTree) : null;
  if (!built) return listed;
  if (!listed) return built;
  return { all: [...(listed as { all: ViewCondition[] }).all, built] };
}

const isTree = (value: unknown): value is ViewFilterTree =>
  typeof value === 'object' &&
  value !== null &&
  (Array.isArray((value as { all?: unknown }).all) || Array.isArray((value as { any?: unknown }).any));

/** Both filters holding: an open view's filters with those added on its list ("all" groups joined, not nested). */
export function andFilters(first: unknown, second: ViewFilterTree | null): ViewFilterTree | null {
  const a = isTree(first) ? first : null;
  if (!a) return second;
  if (!second) return a;
  const items = (tree: ViewFilterTree) => ('all' in tree ? tree.all : [tree]);
  return { all: [...items(a), ...items(second)] };
}
