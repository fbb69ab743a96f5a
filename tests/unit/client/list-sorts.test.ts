/** A list's several sorts in react-admin's one sort, and on to the API's `sort=type,-bid_date`. */
import { describe, expect, it } from 'vitest';
import { listQuery } from '../../../src/client/providers/dataProvider';
import { listSortOf, sortsOf } from '../../../src/client/views/listSorts';

describe('several sorts', () => {
  it('keeps one sort as react-admin writes it, several as the server reads them', () => {
    expect(listSortOf([{ field: 'name', order: 'desc' }])).toEqual({ field: 'name', order: 'DESC' });
    expect(
      listSortOf([
        { field: 'type', order: 'asc' },
        { field: 'bid_date', order: 'desc' },
        { field: '', order: 'asc' },
      ]),
    ).toEqual({ field: 'type,-bid_date', order: 'ASC' });
    expect(listSortOf([])).toEqual({ field: '', order: 'ASC' });
  });

  it('reads them back', () => {
    expect(sortsOf({ field: 'name', order: 'DESC' })).toEqual([{ field: 'name', order: 'desc' }]);
    expect(sortsOf({ field: 'type,-bid_date,name', order: 'ASC' })).toEqual([
      { field: 'type', order: 'asc' },
      { field: 'bid_date', order: 'desc' },
      { field: 'name', order: 'asc' },
    ]);
    expect(sortsOf({ field: '-value', order: 'ASC' })).toEqual([{ field: 'value', order: 'desc' }]);
    expect(sortsOf({ field: '', order: 'ASC' })).toEqual([]);
  });

  it('reaches the API as sort=type,-bid_date', () => {
    const sort = listSortOf([
      { field: 'type', order: 'asc' },
      { field: 'bid_date', order: 'desc' },
    ]);
    expect(listQuery({ sort })).toEqual({ sort: 'type,-bid_date', order: 'asc' });
  });
});
