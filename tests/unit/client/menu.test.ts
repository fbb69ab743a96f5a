import { describe, expect, it } from 'vitest';
import { activeKeys, buildMenu, filterLink, showsAdminSection } from '../../../src/client/layout/menuModel';
import { reportsMenu } from '../../../src/client/reports/menu';

const allFeatures = ['map', 'contractors', 'sites', 'grievances', 'system'].map((slug, index) => ({
  id: index + 1,
  slug,
  name: slug,
  enabled: true,
}));
const subject = (permissions: string[]) => ({ role_id: 1, permissions });
const keys = (items: { key: string }[]) => items.map((item) => item.key);

describe('sidebar menu', () => {
  it('always shows Dashboard, Activity, Tasks and Notifications (with counts), Profile and Sign Out', () => {
    const menu = buildMenu({
      user: subject([]),
      features: [],
      schemas: [],
      statistics: { tasks_open: 4, notifications_unread: 2 },
    });
    expect(keys(menu.main)).toEqual(['dashboard', 'activity', 'tasks', 'notifications']);
    expect(menu.main.find((item) => item.key === 'tasks')?.badge).toBe(4);
    expect(menu.main.find((item) => item.key === 'notifications')?.badge).toBe(2);
    expect(menu.admin).toEqual([]);
    expect(menu.bottom.map((item) => item.label)).toEqual(['Profile', 'Sign Out']);
    expect(menu.bottom[1]!.action).toBe('signOut');
  });

  it('offers Public Forms in the admin section only to those who may change schemas, as the server checks', () => {
    const input = { features: [], schemas: [], statistics: {} };
    const publisher = buildMenu({ ...input, user: subject(['role:read', 'schema:update']) });
    expect(publisher.admin.find((item) => item.key === 'admin-public-forms')?.to).toBe('/public-forms');
    const organizer = buildMenu({ ...input, user: subject(['role:read', 'schema:read', 'contact:read']) });
    expect(keys(organizer.admin)).not.toContain('admin-public-forms');
  });

  it('an administrator sees every conditional item', () => {
    const admin = subject([
      'contact:read',
      'contractor:read',
      'site:read',
      'recruit:read',
      'member:read',
      'grievance:read',
      'import:read',
      'building-type:create',
      'role:read',
      'user:read',
      'classification:read',
      'trade:read',
      'union:read',
      'site-phase:read',
      'site-status:read',
      'classification-type:read',
      'dispatch-type:read',
      'map:read',
    ]);
    const menu = buildMenu({ user: admin, features: allFeatures, schemas: [], statistics: {} });
    expect(keys(menu.main)).toEqual([
      'dashboard',
      'activity',
      'tasks',
      'notifications',
      'map',
      'contacts',
      'contractors',
      'sites',
      'recruits',
      'members',
      'grievances',
      'imports',
      'system',
    ]);
    const sites = menu.main.find((item) => item.key === 'sites')!;
    expect(sites.label).toBe('Job Sites');
    expect(sites.children!.map((child) => child.label)).toEqual([
      'Development',
      'LCMT',
      'Non-Union',
      'PLA',
      'Public Works',
      'Union',
    ]);
    expect(sites.children![5]!.to).toBe(filterLink('sites', { type: 'union' }));
    expect(menu.main.find((item) => item.key === 'contractors')!.children!.map((child) => child.label)).toEqual([
      'Union',
      'Non-Union',
    ]);
    expect(menu.main.find((item) => item.key === 'system')!.to).toBe('/users');
    expect(menu.main.find((item) => item.key === 'grievances')!.to).toBe('/grievances');
    expect(keys(menu.admin)).toEqual([
      'admin-classification',
      'admin-classification-type',
      'admin-dispatch-type',
      'admin-trade',
      'admin-union',
      'admin-site-phase',
      'admin-site-status',
      'admin-role',
      'admin-user',
    ]);
  });

  it('items depend on category permissions', () => {
    const menu = buildMenu({
      user: subject(['site:read:union', 'site:read:pla', 'contractor:read:non-union']),
      features: allFeatures,
      schemas: [],
      statistics: {},
    });
    expect(menu.main.find((item) => item.key === 'sites')!.children!.map((child) => child.key)).toEqual([
      'sites-pla',
      'sites-union',
    ]);
    expect(menu.main.find((item) => item.key === 'contractors')!.children!.map((child) => child.key)).toEqual([
      'contractors-non-union',
    ]);
  });

  it('feature-gated items hide when the feature is off', () => {
    const features = allFeatures.map((feature) => ({ ...feature, enabled: false }));
    const menu = buildMenu({
      user: subject(['site:read', 'contractor:read', 'grievance:read']),
      features,
      schemas: [],
      statistics: {},
    });
    expect(keys(menu.main)).toEqual(['dashboard', 'activity', 'tasks', 'notifications']);
  });

  it('Reports lists the reports the person may open; Map and System need the permission the server asks', () => {
    const reportsOn = [...allFeatures, { id: 9, slug: 'reports', name: 'reports', enabled: true }];
    const leader = buildMenu({
      user: subject(['report:read', 'site:read:union', 'task:read', 'map:read', 'user:read']),
      features: reportsOn,
      schemas: [],
      statistics: {},
      featureItems: [reportsMenu],
    });
    const reports = leader.main.find((item) => item.key === 'reports')!;
    expect(reports.children!.map((child) => child.to)).toEqual([
      '/reports/market-share',
      '/reports/task-performance',
      '/reports/user-performance',
    ]);
    expect(keys(leader.main)).toEqual(expect.arrayContaining(['map', 'system']));
    const off = buildMenu({
      user: subject(['report:read', 'site:read']),
      features: reportsOn.map((f) => (f.slug === 'reports' ? { ...f, enabled: false } : f)),
      schemas: [],
      statistics: {},
      featureItems: [reportsMenu],
    });
    expect(keys(off.main)).not.toContain('reports');
    const organizer = buildMenu({
      user: subject(['site:read']),
      features: reportsOn,
      schemas: [],
      statistics: {},
      featureItems: [reportsMenu],
    });
    expect(keys(organizer.main)).not.toContain('reports');
    expect(keys(organizer.main)).not.toContain('map');
    expect(keys(organizer.main)).not.toContain('system');
  });

  it('grievances need both the feature and the permission', () => {
    const withFeature = buildMenu({ user: subject([]), features: allFeatures, schemas: [], statistics: {} });
    expect(keys(withFeature.main)).not.toContain('grievances');
  });

  it('menu labels come from the schema titles', () => {
    const schemas = [
      { id: 1, type: 'contact', name_singular: 'person', name_plural: 'people' },
      { id: 2, type: 'site', name_singular: 'project', name_plural: 'projects' },
      { id: 3, type: 'grievance', name_singular: 'Case', name_plural: 'Cases' },
    ];
    const menu = buildMenu({
      user: subject(['contact:read', 'site:read', 'grievance:read']),
      features: allFeatures,
      schemas,
      statistics: {},
    });
    expect(menu.main.find((item) => item.key === 'contacts')!.label).toBe('People');
    expect(menu.main.find((item) => item.key === 'sites')!.label).toBe('Projects');
    expect(menu.main.find((item) => item.key === 'grievances')!.label).toBe('Cases');
  });

  it('the admin section shows on any listed create permission or role/user read', () => {
    expect(showsAdminSection(subject(['union:create']))).toBe(true);
    expect(showsAdminSection(subject(['role:read']))).toBe(true);
    expect(showsAdminSection(subject(['user:read']))).toBe(true);
    expect(showsAdminSection(subject(['union:read']))).toBe(false);
    // Read permissions alone do not open the section.
    expect(buildMenu({ user: subject(['union:read']), features: [], schemas: [], statistics: {} }).admin).toEqual([]);
    const onlyUsers = buildMenu({ user: subject(['user:read']), features: [], schemas: [], statistics: {} });
    expect(keys(onlyUsers.admin)).toEqual(['admin-user']);
  });
});

describe('active entries', () => {
  const menu = buildMenu({ user: subject(['site:read']), features: allFeatures, schemas: [], statistics: {} });
  const items = [...menu.main, ...menu.admin, ...menu.bottom];

  it('follow the path and a category filter in the query, not a list page or sort (the entries then render nothing again)', () => {
    const union = `?filter=${encodeURIComponent(JSON.stringify({ type: 'union' }))}`;
    expect(activeKeys(items, '/sites', union)).toBe('sites-union');
    expect(
      activeKeys(
        items,
        '/sites',
        `?displayedFilters=%7B%7D${union.replace('?', '&')}&order=ASC&page=2&perPage=100&sort=name`,
      ),
    ).toBe('sites-union');
    expect(activeKeys(items, '/sites', '?page=2')).toBe('');
    expect(activeKeys(items, '/tasks', '?page=3&perPage=25')).toBe('tasks');
    expect(activeKeys(items, '/', '')).toBe('dashboard');
    expect(activeKeys(items, '/notifications/4', '')).toBe('notifications');
  });
});
