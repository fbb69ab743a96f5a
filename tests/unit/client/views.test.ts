/**
 * Saved views on the client (docs/views.md): the list's filter values kept as a view's filter tree, and the views
 * listed in the sidebar under their record type.
 */
import { describe, expect, it } from 'vitest';
import { buildMenu } from '../../../src/client/layout/menuModel';
import { listFiltersAsTree } from '../../../src/client/views/viewFilters';

describe('a list filter as a view filter', () => {
  const fields = new Set(['name', 'type', 'value', 'bid_date', 'has_gte']);

  it('reads the list dialect (suffixes, lists) into conditions joined by all or any, without the search', () => {
    const values = { q: 'tower', type: 'union', name_like: 'Harbor', bid_date_gte: '2026-01-01', value_null: false };
    expect(listFiltersAsTree(values, 'all', fields)).toEqual({
      all: [
        { field: 'type', op: 'eq', value: 'union' },
        { field: 'name', op: 'like', value: 'Harbor' },
        { field: 'bid_date', op: 'gte', value: '2026-01-01' },
        { field: 'value', op: 'null', value: false },
      ],
    });
    expect(listFiltersAsTree({ type: ['union', 'pla'] }, 'any', fields)).toEqual({
      any: [{ field: 'type', op: 'in', value: ['union', 'pla'] }],
    });
  });

  it('keeps a field whose own name ends like a suffix, and finds nothing to keep in a search or empty values', () => {
    expect(listFiltersAsTree({ has_gte: 3 }, 'all', fields)).toEqual({
      all: [{ field: 'has_gte', op: 'eq', value: 3 }],
    });
    expect(listFiltersAsTree({ q: 'x', name: '' }, 'all', fields)).toBeNull();
  });
});

describe('views in the sidebar', () => {
  const user = { role_id: 1, permissions: ['contact:read', 'site:read'] };
  const features = ['sites'].map((slug, index) => ({ id: index + 1, slug, name: slug, enabled: true }));
  const views = [
    { id: 7, name: 'Zeta contacts', record_type: 'contact', url: '/contacts?view=7' },
    { id: 3, name: 'Alpha contacts', record_type: 'contact', url: '/contacts?view=3' },
    { id: 5, name: 'Union starting soon', record_type: 'site', url: '/sites?view=5' },
    { id: 9, name: 'Of a type not listed', record_type: 'visit', url: '/visits?view=9' },
  ];

  it('lists each view under its type, by name; a link entry becomes a group led by "All ..."', () => {
    const menu = buildMenu({ user, views, features, schemas: [], statistics: {} });
    const contacts = menu.main.find((item) => item.key === 'contacts')!;
    expect(contacts.to).toBeUndefined();
    expect(contacts.children?.map((child) => [child.label, child.to])).toEqual([
      ['All Contacts', '/contacts'],
      ['Alpha contacts', '/contacts?view=3'],
      ['Zeta contacts', '/contacts?view=7'],
    ]);
    const sites = menu.main.find((item) => item.key === 'sites')!;
    expect(sites.children?.at(-1)).toMatchObject({ key: 'view-5', to: '/sites?view=5' });
    expect(JSON.stringify(menu)).not.toContain('Of a type not listed');
  });

  it('leaves the menu as it was without views', () => {
    const menu = buildMenu({ user, views: [], features, schemas: [], statistics: {} });
    expect(menu.main.find((item) => item.key === 'contacts')?.to).toBe('/contacts');
  });
});
