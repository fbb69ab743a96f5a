/**
 * The filter builder's model (views/FilterBuilder.tsx): the operators each kind of field offers, with the value each
 * needs, and the builder's rows <-> the view filter structure the server compiles (`filters=`, docs/api.md "View
 * filters"): a top group of all or any, whose items are conditions or groups of conditions (one level of nesting).
 * Pure, unit tested (tests/unit/client/filter-builder.test.ts).
 */
import type { FieldDescriptor } from '../records/fieldTypes/describe';
import { listFiltersAsTree, type ViewCondition } from './viewFilters';

/** What a condition's value is entered as. */
export type ValueInput =
  | 'none'
  | 'text'
  | 'number'
  | 'number-range'
  | 'date'
  | 'date-range'
  | 'relative'
  | 'boolean'
  | 'choice'
  | 'choices'
  | 'reference'
  | 'references';

export interface OperatorChoice {
  op: string;
  label: string;
  input: ValueInput;
}

const EMPTY: OperatorChoice[] = [
  { op: 'empty', label: 'is empty', input: 'none' },
  { op: 'not_empty', label: 'is not empty', input: 'none' },
];

/** The relative dates the server reads in the organization's time zone (common/field-types/sql.ts). */
export const RELATIVE_DATES: ReadonlyArray<readonly [string, string]> = [
  ['today', 'today'],
  ['yesterday', 'yesterday'],
  ['tomorrow', 'tomorrow'],
  ['this_week', 'this week'],
  ['last_week', 'last week'],
  ['next_week', 'next week'],
  ['this_month', 'this month'],
  ['last_month', 'last month'],
  ['next_month', 'next month'],
  ['this_quarter', 'this quarter'],
  ['last_quarter', 'last quarter'],
  ['next_quarter', 'next quarter'],
  ['this_year', 'this year'],
  ['last_year', 'last year'],
  ['next_year', 'next year'],
  ['last_7_days', 'the last 7 days'],
  ['last_30_days', 'the last 30 days'],
  ['next_7_days', 'the next 7 days'],
  ['next_30_days', 'the next 30 days'],
];

const isDate = (d: FieldDescriptor) =>
  d.type === 'date' || d.type === 'datetime' || d.computed?.kind === 'date' || d.computed?.kind === 'datetime';
const isNumber = (d: FieldDescriptor) =>
  Boolean(d.number) ||
  d.type === 'number' ||
  d.type === 'estimated-hours' ||
  d.type === 'rating' ||
  d.computed?.kind === 'number' ||
  d.computed?.kind === 'integer';

/** The operators people expect of this field, each with the value it needs. */
export function operatorsFor(d: FieldDescriptor): OperatorChoice[] {
  if (d.type === 'boolean') return [{ op: 'eq', label: 'is', input: 'boolean' }];
  if (d.reference && d.reference.value === 'id') {
    if (d.multiple)
      return [
        { op: 'includes', label: 'includes any of', input: 'references' },
        { op: 'has_any', label: 'has any', input: 'none' },
        { op: 'has_none', label: 'has none', input: 'none' },
      ];
    return [
      { op: 'eq', label: 'is', input: 'reference' },
      { op: 'neq', label: 'is not', input: 'reference' },
      { op: 'in', label: 'is any of', input: 'references' },
      ...EMPTY,
    ];
  }
  if (d.choices.length) {
    if (d.multiple) return [{ op: 'includes', label: 'includes any of', input: 'choices' }, ...EMPTY];
    return [
      { op: 'eq', label: 'is', input: 'choice' },
      { op: 'neq', label: 'is not', input: 'choice' },
      { op: 'in', label: 'is any of', input: 'choices' },
      ...EMPTY,
    ];
  }
  if (isDate(d))
    return [
      { op: 'date', label: 'is in', input: 'relative' },
      { op: 'eq', label: 'is on', input: 'date' },
      { op: 'gt', label: 'is after', input: 'date' },
      { op: 'gte', label: 'is on or after', input: 'date' },
      { op: 'lt', label: 'is before', input: 'date' },
      { op: 'lte', label: 'is on or before', input: 'date' },
      { op: 'between', label: 'is between', input: 'date-range' },
      ...EMPTY,
    ];
  if (isNumber(d))
    return [
      { op: 'eq', label: '=', input: 'number' },
      { op: 'neq', label: '≠', input: 'number' },
      { op: 'gt', label: '>', input: 'number' },
      { op: 'gte', label: '≥', input: 'number' },
      { op: 'lt', label: '<', input: 'number' },
      { op: 'lte', label: '≤', input: 'number' },
      { op: 'between', label: 'is between', input: 'number-range' },
      ...EMPTY,
    ];
  return [
    { op: 'contains', label: 'contains', input: 'text' },
    { op: 'eq', label: 'is', input: 'text' },
    { op: 'neq', label: 'is not', input: 'text' },
    { op: 'starts_with', label: 'starts with', input: 'text' },
    ...EMPTY,
  ];
}

/** One row of the builder: a condition being written (its value may still be missing). */
export interface BuilderCondition {
  field: string;
  op: string;
  value?: unknown;
}
export interface BuilderGroup {
  join: 'all' | 'any';
  items: BuilderCondition[];
}
export interface BuilderState {
  join: 'all' | 'any';
  items: Array<BuilderCondition | BuilderGroup>;
}

export const isBuilderGroup = (item: BuilderCondition | BuilderGroup): item is BuilderGroup => 'items' in item;

/** Whether a condition is complete: a field, an operator, and the value it needs. */
export function isComplete(condition: BuilderCondition, input: ValueInput | undefined): boolean {
  if (!condition.field || !condition.op || !input) return false;
  if (input === 'none') return true;
  const value = condition.value;
  if (input === 'number-range' || input === 'date-range')
    return Array.isArray(value) && value.length === 2 && value.every((part) => part !== '' && part != null);
  if (input === 'choices' || input === 'references') return Array.isArray(value) && value.length > 0;
  return value !== undefined && value !== null && value !== '';
}

type InputOf = (condition: BuilderCondition) => ValueInput | undefined;
type Tree = { all: Array<ViewCondition | Tree> } | { any: Array<ViewCondition | Tree> };

const conditionOf = ({ field, op, value }: BuilderCondition, input: ValueInput | undefined): ViewCondition =>
  input === 'none' ? { field, op } : { field, op, value };

/** The builder's rows as the view filter structure; incomplete rows and empty groups are left out (null: none). */
export function toFilterTree(state: BuilderState, inputOf: InputOf): Tree | null {
  const complete = (condition: BuilderCondition) => isComplete(condition, inputOf(condition));
  const items: Array<ViewCondition | Tree> = [];
  for (const item of state.items) {
    if (isBuilderGroup(item)) {
      const inner = item.items.filter(complete).map((condition) => conditionOf(condition, inputOf(condition)));
      if (inner.length) items.push(item.join === 'any' ? { any: inner } : { all: inner });
    } else if (complete(item)) items.push(conditionOf(item, inputOf(item)));
  }
  if (!items.length) return null;
  return state.join === 'any' ? { any: items } : { all: items };
}

const groupItems = (raw: Record<string, unknown>): { join: 'all' | 'any'; items: unknown[] } | null => {
  if (Array.isArray(raw.all)) return { join: 'all', items: raw.all };
  if (Array.isArray(raw.any)) return { join: 'any', items: raw.any };
  return null;
};

const asCondition = (raw: unknown): BuilderCondition | null => {
  if (!raw || typeof raw !== 'object') return null;
  const { field, op, value } = raw as Record<string, unknown>;
  if (typeof field !== 'string' || typeof op !== 'string') return null;
  return value === undefined ? { field, op } : { field, op, value };
};

/**
 * The view filter structure (a saved view's, the URL's) as the builder's rows; a group nested deeper than the
 * builder shows is flattened into its parent group's conditions.
 */
export function fromFilterTree(tree: unknown): BuilderState {
  const top = tree && typeof tree === 'object' ? groupItems(tree as Record<string, unknown>) : null;
  if (!top) return { join: 'all', items: [] };
  const flatten = (items: unknown[]): BuilderCondition[] =>
    items.flatMap((item) => {
      const group = item && typeof item === 'object' ? groupItems(item as Record<string, unknown>) : null;
      if (group) return flatten(group.items);
      const condition = asCondition(item);
      return condition ? [condition] : [];
    });
  const items = top.items.flatMap((item): BuilderState['items'] => {
    const group = item && typeof item === 'object' ? groupItems(item as Record<string, unknown>) : null;
    if (group) return [{ join: group.join, items: flatten(group.items) }];
    const condition = asCondition(item);
    return condition ? [condition] : [];
  });
  return { join: top.join, items };
}

/** How many conditions the structure holds (the filter button's count). */
export function countConditions(tree: unknown): number {
  const group = tree && typeof tree === 'object' ? groupItems(tree as Record<string, unknown>) : null;
  if (!group) return 0;
  return group.items.reduce<number>((sum, item) => sum + (asCondition(item) ? 1 : countConditions(item)), 0);
}

/** A list dialect condition (`city_like`, `value_null`) as the builder names it. */
function fromListDialect({ field, op, value }: ViewCondition): BuilderCondition {
  if (op === 'null') return { field, op: value === false || value === 'false' ? 'not_empty' : 'empty' };
  return { field, op: op === 'like' ? 'contains' : op, value };
}

/**
 * The list's filter values other than the builder's own (`filters`) and those `kept` for other controls (the search
 * `q`, a category tab's `type`): filters in the list dialect (an old link's `filter[city_like]=...`), as conditions.
 */
export function listValuesAsConditions(
  values: Record<string, unknown>,
  kept: ReadonlySet<string>,
  fields: ReadonlySet<string>,
): BuilderCondition[] {
  const own = Object.fromEntries(Object.entries(values).filter(([key]) => key !== 'filters' && !kept.has(key)));
  const tree = listFiltersAsTree(own, 'all', fields);
  return (tree && 'all' in tree ? tree.all : []).map(fromListDialect);
}

/** The builder's rows for a list: its `filters` structure, and its filters in the list dialect joined to them. */
export function builderStateOf(
  values: Record<string, unknown>,
  kept: ReadonlySet<string>,
  fields: ReadonlySet<string>,
): BuilderState {
  const state = fromFilterTree(values.filters);
  const listed = listValuesAsConditions(values, kept, fields);
  if (!listed.length) return state;
  if (state.join === 'all' || !state.items.length) return { join: 'all', items: [...state.items, ...listed] };
  const flat = state.items.flatMap((item) => (isBuilderGroup(item) ? item.items : [item]));
  return { join: 'all', items: [...listed, { join: 'any', items: flat }] };
}

/** The list's filter values with the builder's rows applied: its structure as `filters`, the kept values as they were. */
export function applyBuilderState(
  values: Record<string, unknown>,
  kept: ReadonlySet<string>,
  tree: ReturnType<typeof toFilterTree>,
): Record<string, unknown> {
  const next = Object.fromEntries(Object.entries(values).filter(([key]) => kept.has(key)));
  return tree ? { ...next, filters: tree } : next;
}
