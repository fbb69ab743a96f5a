/**
 * The data grid's sort, filter and pagination models <-> react-admin's list state, and on through the data
 * provider's `listQuery` to the API's list query (`sort`/`order`, `filter`, `search`, `page`/`per_page`).
 */
import { describe, expect, it } from 'vitest';
import { listQuery } from '../../../src/client/providers/dataProvider';
import {
  displayedRows,
  type FilterableColumn,
  filterItemToEntry,
  filterModelToFilterValues,
  filterValuesToFilterModel,
  listSortToSortModel,
  listToPaginationModel,
  paginationModelToList,
  sortModelToListSort,
} from '../../../src/client/records/grid/gridQuery';

const COLUMNS: FilterableColumn[] = [
  { field: 'name', kind: 'string' },
  { field: 'status', kind: 'singleSelect' },
  { field: 'value', kind: 'number' },
  { field: 'bid_date', kind: 'date' },
  { field: 'opened_at', kind: 'dateTime' },
  { field: 'prevailing_wage', kind: 'boolean' },
  { field: 'permit_number', kind: 'string' },
];

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

describe('grid filter item -> list filter key', () => {
  const column = (field: string) => COLUMNS.find((c) => c.field === field)!;
  it('writes each operator as the list dialect suffix', () => {
    expect(filterItemToEntry({ field: 'name', operator: 'contains', value: 'harbor' }, column('name'))).toEqual([
      'name_like',
      'harbor',
    ]);
    expect(filterItemToEntry({ field: 'name', operator: 'equals', value: 'Harbor' }, column('name'))).toEqual([
      'name',
      'Harbor',
    ]);
    expect(filterItemToEntry({ field: 'status', operator: 'is', value: 'active' }, column('status'))).toEqual([
      'status',
      'active',
    ]);
    expect(filterItemToEntry({ field: 'status', operator: 'not', value: 'active' }, column('status'))).toEqual([
      'status_neq',
      'active',
    ]);
    expect(filterItemToEntry({ field: 'value', operator: '>=', value: '1000' }, column('value'))).toEqual([
      'value_gte',
      1000,
    ]);
    expect(filterItemToEntry({ field: 'value', operator: '<', value: 5 }, column('value'))).toEqual(['value_lt', 5]);
    expect(
      filterItemToEntry({ field: 'bid_date', operator: 'onOrAfter', value: new Date(2026, 2, 1) }, column('bid_date')),
    ).toEqual(['bid_date_gte', '2026-03-01']);
    expect(
      filterItemToEntry({ field: 'bid_date', operator: 'before', value: '2026-04-30' }, column('bid_date')),
    ).toEqual(['bid_date_lt', '2026-04-30']);
    expect(
      filterItemToEntry(
        { field: 'opened_at', operator: 'after', value: new Date('2026-03-01T10:00:00Z') },
        column('opened_at'),
      ),
    ).toEqual(['opened_at_gt', '2026-03-01T10:00:00.000Z']);
    expect(
      filterItemToEntry({ field: 'prevailing_wage', operator: 'is', value: 'true' }, column('prevailing_wage')),
    ).toEqual(['prevailing_wage', true]);
    expect(
      filterItemToEntry({ field: 'prevailing_wage', operator: 'is', value: 'false' }, column('prevailing_wage')),
    ).toEqual(['prevailing_wage', false]);
    expect(filterItemToEntry({ field: 'permit_number', operator: 'isEmpty' }, column('permit_number'))).toEqual([
      'permit_number_null',
      true,
    ]);
    expect(filterItemToEntry({ field: 'permit_number', operator: 'isNotEmpty' }, column('permit_number'))).toEqual([
      'permit_number_null',
      false,
    ]);
  });

  it('leaves out an item still without a value, a bad number, and an operator the API cannot answer', () => {
    expect(filterItemToEntry({ field: 'name', operator: 'contains', value: '' }, column('name'))).toBeUndefined();
    expect(filterItemToEntry({ field: 'value', operator: '>', value: 'abc' }, column('value'))).toBeUndefined();
    expect(filterItemToEntry({ field: 'name', operator: 'startsWith', value: 'x' }, column('name'))).toBeUndefined();
    expect(filterItemToEntry({ field: 'name', operator: '>', value: 'x' }, column('name'))).toBeUndefined();
  });
});

describe('grid filter model <-> react-admin filter values', () => {
  it('shows a filter set under "Add filter" (or in the URL) as the grid filter, and the search as its quick filter', () => {
    expect(filterValuesToFilterModel({ value_gte: 1000, q: 'grand ave' }, COLUMNS)).toEqual({
      items: [{ id: 'value_gte', field: 'value', operator: '>=', value: 1000 }],
      quickFilterValues: ['grand', 'ave'],
    });
    expect(filterValuesToFilterModel({ permit_number_null: false }, COLUMNS).items).toEqual([
      { id: 'permit_number_null', field: 'permit_number', operator: 'isNotEmpty' },
    ]);
    expect(filterValuesToFilterModel({ prevailing_wage: true }, COLUMNS).items).toEqual([
      { id: 'prevailing_wage', field: 'prevailing_wage', operator: 'is', value: 'true' },
    ]);
    const date = filterValuesToFilterModel({ bid_date_lte: '2026-04-30' }, COLUMNS).items[0];
    expect(date).toMatchObject({ field: 'bid_date', operator: 'onOrBefore' });
    expect((date.value as Date).getDate()).toBe(30);
  });

  it('shows the first of several filters in column order; keys of no column (contractor_ids, type of a hidden column) are left to the filter bar', () => {
    const model = filterValuesToFilterModel({ status: 'active', name_like: 'tower', contractor_ids: 3 }, COLUMNS);
    expect(model.items).toEqual([{ id: 'name_like', field: 'name', operator: 'contains', value: 'tower' }]);
    expect(
      filterValuesToFilterModel({ status: 'active', name_like: 'tower' }, COLUMNS, 5).items.map((item) => item.id),
    ).toEqual(['name_like', 'status']);
  });

  it('replaces only what the grid showed and keeps the other filters', () => {
    const current = { name_like: 'tower', status: 'active', type: 'union', q: 'grand' };
    const next = filterModelToFilterValues(
      { items: [{ field: 'value', operator: '>', value: '10' }] },
      current,
      COLUMNS,
    );
    expect(next).toEqual({ status: 'active', type: 'union', q: 'grand', value_gt: 10 });
    // Clearing the grid's filter removes just that one.
    expect(filterModelToFilterValues({ items: [] }, current, COLUMNS)).toEqual({
      status: 'active',
      type: 'union',
      q: 'grand',
    });
    // The quick filter becomes the search.
    expect(filterModelToFilterValues({ items: [], quickFilterValues: ['maria', 'garcia'] }, {}, COLUMNS)).toEqual({
      q: 'maria garcia',
    });
    expect(filterModelToFilterValues({ items: [], quickFilterValues: [] }, { q: 'x' }, COLUMNS)).toEqual({});
  });

  it('round-trips: the API is asked filter[...] and search', () => {
    const values = filterModelToFilterValues(
      { items: [{ field: 'permit_number', operator: 'contains', value: 'P-12' }], quickFilterValues: ['harbor'] },
      { type: 'union' },
      COLUMNS,
    );
    expect(apiQuery([{ field: 'permit_number', sort: 'asc' }], values)).toEqual({
      page: 1,
      per_page: 25,
      sort: 'permit_number',
      order: 'asc',
      search: 'harbor',
      filter: { type: 'union', permit_number_like: 'P-12' },
    });
    expect(filterValuesToFilterModel(values, COLUMNS)).toEqual({
      items: [{ id: 'permit_number_like', field: 'permit_number', operator: 'contains', value: 'P-12' }],
      quickFilterValues: ['harbor'],
    });
  });
});
