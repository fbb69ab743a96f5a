/**
 * The data grid's models <-> react-admin's list state (sort, page), which the data provider turns into the API's
 * list query (`sort`/`order`, `page`/`per_page`: providers/dataProvider.ts `listQuery`). The grid has no filter
 * model: a record list's filters are its filter builder's (views/FilterBuilder.tsx). Pure, unit tested
 * (tests/unit/client/grid-query.test.ts).
 */

export type SortOrder = 'ASC' | 'DESC';
export interface ListSort {
  field: string;
  order: SortOrder;
}

/** The grid's sort model item ({field, sort}), structurally (no import of the grid here). */
export interface GridSortItem {
  field: string;
  sort: 'asc' | 'desc' | null | undefined;
}
/** What kind of value a column holds (its grid column type and editor). */
export type FilterValueKind = 'string' | 'number' | 'date' | 'dateTime' | 'boolean' | 'singleSelect';

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
