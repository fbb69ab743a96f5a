/** The client-mode grid's sort (TableGrid): the totals row stays last in either direction; values sort as they are. */

import type { GridSortCellParams } from '@mui/x-data-grid';
import { describe, expect, it } from 'vitest';
import { totalsLastComparator } from '../../../src/client/records/grid/TableGrid';

const cell = (id: string) => ({ id }) as unknown as GridSortCellParams;
const rows: Array<[string, unknown]> = [
  ['b', 20],
  ['__total__', 1000],
  ['a', 3],
  ['c', null],
  ['d', 100],
];

const sorted = (direction: 'asc' | 'desc') => {
  const compare = totalsLastComparator(direction);
  return [...rows].sort(([idA, a], [idB, b]) => compare(a, b, cell(idA), cell(idB))).map(([id]) => id);
};

describe('totalsLastComparator', () => {
  it('sorts numbers as numbers, empty first, the totals row last', () => {
    expect(sorted('asc')).toEqual(['c', 'a', 'b', 'd', '__total__']);
  });
  it('keeps the totals row last when sorting down', () => {
    expect(sorted('desc')).toEqual(['d', 'b', 'a', 'c', '__total__']);
  });
  it('sorts text by its numbers and without case', () => {
    const compare = totalsLastComparator('asc');
    const labels = ['Local 12', 'local 3', 'Local 105'];
    expect([...labels].sort((a, b) => compare(a, b, cell(a), cell(b)))).toEqual(['local 3', 'Local 12', 'Local 105']);
  });
});
