/**
 * The structure of a view's filters (`filters=` on every list, a saved view's `filters`): a group `{"all": [...]}`
 * (every item holds) or `{"any": [...]}` (one item holds), whose items are conditions
 * `{"field": "<slug>", "op": "<op>", "value": ...}` or groups. A related record's field is `"contractor.type"`.
 * Checked here for its shape only; fields and operators are checked by compile-filter.ts against the record type.
 */
import { ValidationError } from '../http/errors.js';

export interface FilterCondition {
  field: string;
  op: string;
  value?: unknown;
}
export type FilterGroup = { all: FilterItem[] } | { any: FilterItem[] };
export type FilterItem = FilterCondition | FilterGroup;

/** Groups inside groups, at most this deep (the builder offers one level of nesting). */
export const MAX_FILTER_DEPTH = 4;
/** Conditions in one filter, at most. */
export const MAX_FILTER_CONDITIONS = 100;

const refuse = (message: string): never => {
  throw new ValidationError({ filters: [message] });
};

export const isGroup = (item: FilterItem): item is FilterGroup => 'all' in item || 'any' in item;
export const itemsOf = (group: FilterGroup): FilterItem[] => ('all' in group ? group.all : group.any);

/** The filters sent as `filters=` (JSON text) or already parsed; 422 on `filters` saying what is wrong. */
export function parseFilterTree(input: unknown): FilterGroup {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      refuse('The filters must be JSON: {"all": [...]} or {"any": [...]}.');
    }
  }
  let conditions = 0;
  const item = (raw: unknown, depth: number): FilterItem => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      return refuse(
        'Each filter must be a condition {"field", "op", "value"} or a group {"all": [...]} / {"any": [...]}.',
      );
    const keys = Object.keys(raw);
    if ('all' in raw || 'any' in raw) {
      if (keys.length !== 1) return refuse('A filter group has one key, "all" or "any".');
      if (depth >= MAX_FILTER_DEPTH) return refuse(`Filter groups may be nested at most ${MAX_FILTER_DEPTH} deep.`);
      const [key] = keys as ['all' | 'any'];
      const list = (raw as Record<string, unknown>)[key];
      if (!Array.isArray(list)) return refuse(`"${key}" must be a list of conditions or groups.`);
      const items = list.map((entry) => item(entry, depth + 1));
      return key === 'all' ? { all: items } : { any: items };
    }
    const { field, op, value: conditionValue, ...rest } = raw as Record<string, unknown>;
    if (Object.keys(rest).length)
      return refuse(`A filter condition has "field", "op" and "value", not "${Object.keys(rest)[0]}".`);
    if (typeof field !== 'string' || !field) return refuse('A filter condition needs its "field".');
    if (typeof op !== 'string' || !op) return refuse(`The filter on "${field}" needs its "op".`);
    if (++conditions > MAX_FILTER_CONDITIONS)
      return refuse(`A filter may have at most ${MAX_FILTER_CONDITIONS} conditions.`);
    return conditionValue === undefined ? { field, op } : { field, op, value: conditionValue };
  };
  const root = item(value, 0);
  return isGroup(root) ? root : { all: [root] };
}

/** The same tree with each condition replaced (choice keys made exact: records/choice-keys.ts). */
export async function mapConditions(
  group: FilterGroup,
  change: (condition: FilterCondition) => Promise<FilterCondition>,
): Promise<FilterGroup> {
  const items = await Promise.all(
    itemsOf(group).map((item) => (isGroup(item) ? mapConditions(item, change) : change(item))),
  );
  return 'all' in group ? { all: items } : { any: items };
}

/** Every condition of the tree, depth first. */
export function conditionsOf(group: FilterGroup): FilterCondition[] {
  return itemsOf(group).flatMap((item) => (isGroup(item) ? conditionsOf(item) : [item]));
}

/** The list query's `filter[field]=value` (and `_gte`, `_like`...) as the same structure: every one holds. */
export function fromListFilters(
  filters: ReadonlyArray<{ field: string; operator: string; value: unknown }>,
): FilterGroup {
  return { all: filters.map(({ field, operator, value }) => ({ field, op: operator, value })) };
}
