/**
 * The data grid's models <-> react-admin's list state (sort, filter values, page), which the data provider turns
 * into the API's list query (`sort`/`order`, `filter[...]`, `search`, `page`/`per_page`: providers/dataProvider.ts
 * `listQuery`). Filter values use the list dialect of docs/api.md: a field name with an operator suffix
 * (`city_like`, `bid_date_gte`, `status`, `value_null`), the same keys the "Add filter" inputs write, so a filter
 * set either way shows in both. Pure, unit tested (tests/unit/client/grid-query.test.ts).
 */

export type SortOrder = 'ASC' | 'DESC';
export interface ListSort {
  field: string;
  order: SortOrder;
}
export type FilterValues = Record<string, unknown>;

/** The grid's sort model item ({field, sort}) and filter model, structurally (no import of the grid here). */
export interface GridSortItem {
  field: string;
  sort: 'asc' | 'desc' | null | undefined;
}
export interface GridFilterItemLike {
  id?: string | number;
  field: string;
  operator: string;
  value?: unknown;
}
export interface GridFilterModelLike {
  items: GridFilterItemLike[];
  quickFilterValues?: unknown[];
  [key: string]: unknown;
}

/** How a column's values compare in the list query (which operators it offers, how a filter value is written). */
export type FilterValueKind = 'string' | 'number' | 'date' | 'dateTime' | 'boolean' | 'singleSelect';

export interface FilterableColumn {
  field: string;
  kind: FilterValueKind;
}

/** Grid operator -> suffix of the list query. `isEmpty` / `isNotEmpty` write `_null: true / false`. */
const SUFFIX: Readonly<Record<string, string>> = {
  contains: '_like',
  equals: '',
  is: '',
  '=': '',
  not: '_neq',
  '!=': '_neq',
  '>': '_gt',
  '>=': '_gte',
  '<': '_lt',
  '<=': '_lte',
  after: '_gt',
  onOrAfter: '_gte',
  before: '_lt',
  onOrBefore: '_lte',
  isEmpty: '_null',
  isNotEmpty: '_null',
};

/** The grid operators each kind of column offers: exactly those the list query can answer. */
export const OPERATORS: Readonly<Record<FilterValueKind, readonly string[]>> = {
  string: ['contains', 'equals', 'isEmpty', 'isNotEmpty'],
  number: ['=', '!=', '>', '>=', '<', '<=', 'isEmpty', 'isNotEmpty'],
  date: ['is', 'not', 'after', 'onOrAfter', 'before', 'onOrBefore', 'isEmpty', 'isNotEmpty'],
  dateTime: ['after', 'onOrAfter', 'before', 'onOrBefore', 'isEmpty', 'isNotEmpty'],
  boolean: ['is'],
  singleSelect: ['is', 'not', 'isEmpty', 'isNotEmpty'],
};

/** Reading a key back: suffix -> operator, per kind (the first operator with that suffix wins). */
function operatorFor(kind: FilterValueKind, suffix: string, value: unknown): string | undefined {
  if (suffix === '_null') return value === false || value === 'false' ? 'isNotEmpty' : 'isEmpty';
  return OPERATORS[kind].find(
    (operator) => SUFFIX[operator] === suffix && operator !== 'isEmpty' && operator !== 'isNotEmpty',
  );
}

/** The page sizes a list offers (the grid's footer and the card list's pagination). */
export const PER_PAGE_CHOICES = [10, 25, 50, 100];

// ---- sort and pages --------------------------------------------------------------------------------------------

export function sortModelToListSort(model: readonly GridSortItem[]): ListSort {
  const first = model.find((item) => item.sort);
  return first ? { field: first.field, order: first.sort === 'desc' ? 'DESC' : 'ASC' } : { field: '', order: 'ASC' };
}

export function listSortToSortModel(sort: Partial<ListSort> | undefined): GridSortItem[] {
  return sort?.field ? [{ field: sort.field, sort: sort.order === 'DESC' ? 'desc' : 'asc' }] : [];
}

/** The grid counts pages from 0, react-admin (and the API) from 1. */
export function paginationModelToList(model: { page: number; pageSize: number }): { page: number; perPage: number } {
  return { page: model.page + 1, perPage: model.pageSize };
}

export function listToPaginationModel(page: number, perPage: number): { page: number; pageSize: number } {
  return { page: Math.max(0, page - 1), pageSize: perPage };
}

/** The footer label: "Displaying 26 to 50 of 400" (0 rows: "Displaying 0 to 0 of 0"). */
export function displayedRows(
  page: number,
  perPage: number,
  total: number,
): { from: number; to: number; total: number } {
  if (total <= 0) return { from: 0, to: 0, total: 0 };
  const from = Math.min(total, (page - 1) * perPage + 1);
  return { from, to: Math.min(total, page * perPage), total };
}

// ---- filters ---------------------------------------------------------------------------------------------------

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** A grid filter value as the list query takes it (dates as YYYY-MM-DD or ISO, numbers, booleans). */
export function filterValueToQuery(kind: FilterValueKind, value: unknown): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  switch (kind) {
    case 'number': {
      const number = Number(value);
      return Number.isFinite(number) ? number : undefined;
    }
    case 'date':
      return value instanceof Date
        ? Number.isNaN(value.getTime())
          ? undefined
          : isoDay(value)
        : String(value).slice(0, 10);
    case 'dateTime':
      return value instanceof Date ? (Number.isNaN(value.getTime()) ? undefined : value.toISOString()) : String(value);
    case 'boolean':
      return value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
    default:
      return String(value);
  }
}

/** A list query value as the grid's filter input shows it (dates become Date objects). */
export function queryValueToFilter(kind: FilterValueKind, value: unknown): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  if (kind === 'date') return new Date(`${String(value).slice(0, 10)}T00:00:00`);
  if (kind === 'dateTime') return new Date(String(value));
  if (kind === 'number') return Number(value);
  if (kind === 'boolean') return String(value === true || value === 'true' || value === 1 || value === '1');
  return value;
}

/** The list filter key and value of one grid filter item (undefined while its value is still empty). */
export function filterItemToEntry(item: GridFilterItemLike, column: FilterableColumn): [string, unknown] | undefined {
  const suffix = SUFFIX[item.operator];
  if (suffix === undefined || !OPERATORS[column.kind].includes(item.operator)) return undefined;
  if (item.operator === 'isEmpty') return [`${column.field}_null`, true];
  if (item.operator === 'isNotEmpty') return [`${column.field}_null`, false];
  const value = filterValueToQuery(column.kind, item.value);
  return value === undefined ? undefined : [`${column.field}${suffix}`, value];
}

/** Splits a filter key into a column and suffix it could belong to ('bid_date_gte' -> bid_date + _gte). */
function keyToColumn(
  key: string,
  columns: ReadonlyMap<string, FilterableColumn>,
): { column: FilterableColumn; suffix: string } | undefined {
  const exact = columns.get(key);
  if (exact) return { column: exact, suffix: '' };
  const match = /^(.*)(_like|_neq|_gte|_lte|_gt|_lt|_null)$/.exec(key);
  if (!match) return undefined;
  const column = columns.get(match[1]);
  return column ? { column, suffix: match[2] } : undefined;
}

/** The MIT grid's filter panel holds one condition; the other filters stay in react-admin's filter bar. */
export const GRID_FILTER_ITEMS = 1;

/**
 * The grid's filter model for react-admin's filter values: an item for each value a grid column can show, in
 * column order, at most `maxItems` of them, and `q` (the search box) as the quick filter.
 */
export function filterValuesToFilterModel(
  values: FilterValues,
  columns: readonly FilterableColumn[],
  maxItems = GRID_FILTER_ITEMS,
): GridFilterModelLike {
  const byField = new Map(columns.map((column) => [column.field, column]));
  const items: GridFilterItemLike[] = [];
  for (const [key, raw] of Object.entries(values ?? {})) {
    if (key === 'q') continue;
    const found = keyToColumn(key, byField);
    if (!found) continue;
    const operator = operatorFor(found.column.kind, found.suffix, raw);
    if (!operator) continue;
    const value = found.suffix === '_null' ? undefined : queryValueToFilter(found.column.kind, raw);
    items.push({ id: key, field: found.column.field, operator, ...(value === undefined ? {} : { value }) });
  }
  const order = new Map(columns.map((column, index) => [column.field, index]));
  items.sort((a, b) => (order.get(a.field) ?? 0) - (order.get(b.field) ?? 0));
  items.splice(maxItems);
  const q = typeof values?.q === 'string' && values.q.trim() ? values.q.trim().split(/\s+/) : [];
  return { items, quickFilterValues: q };
}

/**
 * react-admin's filter values after the person changed the grid's filter model: the keys the previous model
 * stood for are replaced by the new model's; every other filter (the search, the category tab, filters of fields
 * the grid does not show) is kept. The quick filter, when the model has one, becomes `q`.
 */
export function filterModelToFilterValues(
  model: GridFilterModelLike,
  current: FilterValues,
  columns: readonly FilterableColumn[],
  maxItems = GRID_FILTER_ITEMS,
): FilterValues {
  const byField = new Map(columns.map((column) => [column.field, column]));
  const shown = filterValuesToFilterModel(current, columns, maxItems);
  const next: FilterValues = { ...current };
  for (const item of shown.items) if (item.id !== undefined) delete next[String(item.id)];
  for (const item of model.items) {
    const column = byField.get(item.field);
    const entry = column ? filterItemToEntry(item, column) : undefined;
    if (entry) next[entry[0]] = entry[1];
  }
  if (model.quickFilterValues !== undefined) {
    const q = model.quickFilterValues.map(String).join(' ').trim();
    if (q) next.q = q;
    else delete next.q;
  }
  return next;
}
