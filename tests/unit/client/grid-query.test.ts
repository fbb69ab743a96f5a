/**
 * The data grid's sort and pagination models <-> react-admin's list state, and on through the data
 * provider's `listQuery` to the API's list query (`sort`/`order`, `filter`, `search`, `page`/`per_page`).
 */
import { describe, expect, it } from 'vitest';
import { listQuery } from '../../../src/client/providers/dataProvider';
import {
  displayedRows,
  listSortToSortModel,
  listToPaginationModel,
  paginationModelToList,
  sortModelToListSort,
} from '../../../src/client/records/grid/gridQuery';

/** What the API is asked for a grid state: the model mapped to react-admin's state, then through the data provider. */
function apiQuery(
  sortModel: Parameters<typeof sortModelToListSort>[0],
  filter: Record<string, unknown>,
  pagination = { page: 0, pageSize: 25 },
) {
  return listQuery({ sort: sortModelToListSort(sortModel), filter, pagination: paginationModelToList(pagination) });
}

describe('grid sort model <-> list sort', () => {
  it('maps the first sorted column, custom fields included, and back', () => {
    expect(sortModelToListSort([{ field: 'permit_number', sort: 'desc' }])).toEqual({
      field: 'permit_number',
      order: 'DESC',
    });
    expect(sortModelToListSort([{ field: 'name', sort: 'asc' }])).toEqual({ field: 'name', order: 'ASC' });
    expect(sortModelToListSort([])).toEqual({ field: '', order: 'ASC' });
    expect(listSortToSortModel({ field: 'value', order: 'DESC' })).toEqual([{ field: 'value', sort: 'desc' }]);
    expect(listSortToSortModel({ field: '', order: 'ASC' })).toEqual([]);
  });

  it('reaches the API as sort and order; no sort sends none (the server default order)', () => {
    expect(apiQuery([{ field: 'permit_number', sort: 'desc' }], {})).toMatchObject({
      sort: 'permit_number',
      order: 'desc',
    });
    expect(apiQuery([], {})).not.toHaveProperty('sort');
  });
});

describe('grid pagination <-> list page', () => {
  it('counts pages from 0 in the grid and from 1 in the API', () => {
    expect(paginationModelToList({ page: 3, pageSize: 100 })).toEqual({ page: 4, perPage: 100 });
    expect(listToPaginationModel(4, 100)).toEqual({ page: 3, pageSize: 100 });
    expect(apiQuery([], {}, { page: 2, pageSize: 50 })).toMatchObject({ page: 3, per_page: 50 });
  });

  it('says which rows are displayed', () => {
    expect(displayedRows(1, 25, 400)).toEqual({ from: 1, to: 25, total: 400 });
    expect(displayedRows(16, 25, 400)).toEqual({ from: 376, to: 400, total: 400 });
    expect(displayedRows(2, 100, 150)).toEqual({ from: 101, to: 150, total: 150 });
    expect(displayedRows(1, 25, 0)).toEqual({ from: 0, to: 0, total: 0 });
  });
});

describe('list filter values -> the API', () => {
  it("sends the builder's structure as filters, the list dialect as filter[...] and the search", () => {
    const filters = { all: [{ field: 'bid_date', op: 'date', value: 'this_month' }] };
    expect(apiQuery([{ field: 'name', sort: 'asc' }], { q: 'harbor', type: 'union', filters })).toEqual({
      page: 1,
      per_page: 25,
      sort: 'name',
      order: 'asc',
      search: 'harbor',
      filter: { type: 'union' },
      filters,
    });
  });
});
