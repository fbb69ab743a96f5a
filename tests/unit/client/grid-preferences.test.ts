/** Each person's column order (preferences.ts): the fields in their order, and moving one past a shown column. */
import { describe, expect, it } from 'vitest';
import { moveColumn, orderedFields, shownColumns } from '../../../src/client/records/grid/preferences';

const FIELDS = ['name', 'type', 'city', 'state', 'bid_date'];

describe('column order', () => {
  it('puts the fields the person placed first, then the others in schema order, ignoring fields gone since', () => {
    expect(orderedFields(FIELDS, undefined)).toEqual(FIELDS);
    expect(orderedFields(FIELDS, ['city', 'gone', 'name'])).toEqual(['city', 'name', 'type', 'state', 'bid_date']);
  });

  it('moves a column past the next shown one, leaving hidden ones in place, and not past either end', () => {
    const shown = new Set(['name', 'city', 'bid_date']);
    expect(moveColumn(FIELDS, shown, 'name', 1)).toEqual(['city', 'type', 'name', 'state', 'bid_date']);
    expect(moveColumn(FIELDS, shown, 'bid_date', -1)).toEqual(['name', 'type', 'bid_date', 'state', 'city']);
    expect(moveColumn(FIELDS, shown, 'name', -1)).toEqual(FIELDS);
    expect(moveColumn(FIELDS, shown, 'bid_date', 1)).toEqual(FIELDS);
  });

  it('gives the shown columns in the person order (the export follows it)', () => {
    expect(shownColumns(FIELDS, ['name', 'city'], { order: ['city', 'name'] })).toEqual(['city', 'name']);
    expect(shownColumns(FIELDS, ['name', 'city'], { visible: ['state', 'name'], order: ['state'] })).toEqual([
      'state',
      'name',
    ]);
  });
});
