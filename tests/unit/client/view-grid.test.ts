/**
 * A view in the grid (docs/views.md "Changing a view"): its columns as the grid's preferences and back, its filters
 * with those added on its list, its grouping from the URL or the view, and a group's filter.
 */
import { describe, expect, it } from 'vitest';
import { groupFilter } from '../../../src/client/views/GroupedList';
import { groupSlugOf } from '../../../src/client/views/grouping';
import type { SavedView } from '../../../src/client/views/useSavedView';
import {
  columnsOfPreferences,
  preferencesOfColumns,
  sameColumns,
  savedColumnsOf,
} from '../../../src/client/views/viewColumns';
import { andFilters } from '../../../src/client/views/viewFilters';

describe("a view's columns", () => {
  const fields = ['name', 'type', 'city', 'estimated_value'];
  const defaults = ['name', 'type', 'city'];

  it("shows the view's columns in its order with its widths, and gives them back as saved", () => {
    const columns = [{ field: 'city', width: 240 }, { field: 'name' }];
    const preferences = preferencesOfColumns(columns);
    expect(preferences).toEqual({ visible: ['city', 'name'], order: ['city', 'name'], widths: { city: 240 } });
    expect(columnsOfPreferences(fields, defaults, preferences)).toEqual(columns);
  });

  it('keeps widths within what the server takes, rounded', () => {
    const columns = columnsOfPreferences(fields, defaults, { widths: { name: 10.4, type: 151.6, city: 5000 } });
    expect(columns).toEqual([
      { field: 'name', width: 20 },
      { field: 'type', width: 152 },
      { field: 'city', width: 2000 },
    ]);
  });

  it('tells a resized or moved column from the saved ones', () => {
    const saved = [{ field: 'name', width: 180 }, { field: 'type' }];
    expect(sameColumns(saved, [{ field: 'name', width: 180 }, { field: 'type' }])).toBe(true);
    expect(sameColumns(saved, [{ field: 'name', width: 260 }, { field: 'type' }])).toBe(false);
    expect(sameColumns(saved, [{ field: 'type' }, { field: 'name', width: 180 }])).toBe(false);
    expect(sameColumns(saved, [{ field: 'name', width: 180 }])).toBe(false);
  });

  it('reads only well-formed saved columns, and none as none', () => {
    expect(savedColumnsOf(null)).toBeNull();
    expect(savedColumnsOf([])).toBeNull();
    expect(savedColumnsOf([{ field: 'name' }, 'type', { width: 3 }])).toEqual([{ field: 'name' }]);
  });
});

describe("a view's filters with the list's", () => {
  const union = { field: 'type', op: 'eq', value: 'union' };
  const city = { field: 'city', op: 'eq', value: 'Oakland' };

  it('joins two "all" groups into one, and nests an "any" group', () => {
    expect(andFilters({ all: [union] }, { all: [city] })).toEqual({ all: [union, city] });
    expect(andFilters({ any: [union, city] }, { all: [city] })).toEqual({ all: [{ any: [union, city] }, city] });
  });

  it('keeps either alone when the other is missing', () => {
    expect(andFilters(null, { all: [city] })).toEqual({ all: [city] });
    expect(andFilters({ all: [union] }, null)).toEqual({ all: [union] });
    expect(andFilters('nonsense', null)).toBeNull();
  });
});

describe('grouping', () => {
  const view = { group_by: 'type' } as SavedView;

  it("takes the URL's grouping over the view's, and `group=` as none", () => {
    expect(groupSlugOf(new URLSearchParams(''), view)).toBe('type');
    expect(groupSlugOf(new URLSearchParams('group=status'), view)).toBe('status');
    expect(groupSlugOf(new URLSearchParams('group='), view)).toBeNull();
    expect(groupSlugOf(new URLSearchParams(''), undefined)).toBeNull();
  });

  it("adds a group's value to the list's filters, or asks for the rows without one", () => {
    expect(groupFilter('type', 'union')).toEqual({ type: 'union' });
    expect(groupFilter('flagged', false)).toEqual({ flagged: false });
    expect(groupFilter('owner_id', null)).toEqual({ owner_id_null: true });
  });
});
