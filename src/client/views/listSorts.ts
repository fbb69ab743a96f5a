/**
 * A list's several sorts (`sort=type,-bid_date,name` on the server: docs/api.md "Several sorts") in react-admin's one
 * sort: a single sort stays `{field, order}` (the grid's header shows and sets it); several are written in the field
 * as the server reads them (`type,-bid_date`, order ASC), so they live in the URL like any list sort. Pure, unit
 * tested (tests/unit/client/list-sorts.test.ts).
 */

export interface SortItem {
  field: string;
  order: 'asc' | 'desc';
}

/** The server's limit (list-query.ts MAX_SORTS). */
export const MAX_SORTS = 5;

/** The sorts a react-admin sort stands for (none when it sorts by nothing). */
export function sortsOf(sort: { field?: string; order?: string } | undefined): SortItem[] {
  const field = sort?.field ?? '';
  if (!field) return [];
  if (!field.includes(',') && !field.startsWith('-'))
    return [{ field, order: sort?.order === 'DESC' ? 'desc' : 'asc' }];
  return field
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => (item.startsWith('-') ? { field: item.slice(1), order: 'desc' } : { field: item, order: 'asc' }));
}

/** The react-admin sort for these sorts ({field: ''}: the list's default order). */
export function listSortOf(sorts: readonly SortItem[]): { field: string; order: 'ASC' | 'DESC' } {
  const chosen = sorts.filter((sort) => sort.field);
  if (!chosen.length) return { field: '', order: 'ASC' };
  if (chosen.length === 1) return { field: chosen[0].field, order: chosen[0].order === 'desc' ? 'DESC' : 'ASC' };
  return {
    field: chosen.map((sort) => `${sort.order === 'desc' ? '-' : ''}${sort.field}`).join(','),
    order: 'ASC',
  };
}
