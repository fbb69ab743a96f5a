import { describe, expect, it } from 'vitest';
import { sendPageView } from '../../../src/client/analytics/pageView';
import { dayPart, greeting } from '../../../src/client/dashboard/greeting';
import { initials } from '../../../src/client/layout/initials';
import { canAccessResource, permissionAction } from '../../../src/client/providers/access';
import { ChunkLoadError, importWithTimeout, toChunkError } from '../../../src/client/routing/chunks';

describe('greeting', () => {
  it('varies by time of day and uses the first name', () => {
    expect(greeting('Ada', new Date(2025, 0, 1, 8))).toBe('Good morning, Ada');
    expect(greeting('Ada', new Date(2025, 0, 1, 12))).toBe('Good afternoon, Ada');
    expect(greeting('Ada', new Date(2025, 0, 1, 17, 59))).toBe('Good afternoon, Ada');
    expect(greeting('Ada', new Date(2025, 0, 1, 18))).toBe('Good evening, Ada');
    expect(greeting('Ada', new Date(2025, 0, 1, 2))).toBe('Good evening, Ada');
    expect(greeting('', new Date(2025, 0, 1, 9))).toBe('Good morning');
    expect(dayPart(new Date(2025, 0, 1, 5))).toBe('morning');
  });
});

describe('initials', () => {
  it('first letters of first and last name', () => {
    expect(initials('ada', 'Lovelace')).toBe('AL');
    expect(initials('Ada', '')).toBe('A');
    expect(initials('', '', 'Grace Brewster Hopper')).toBe('GH');
    expect(initials(null, null, null)).toBe('?');
  });
});

describe('chunk loading', () => {
  it('describes a failed chunk with name, type and address', () => {
    const error = toChunkError(
      new TypeError('Failed to fetch dynamically imported module: http://app.test/assets/LoginPage-Bx1.js'),
      'login',
    );
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error.message).toBe('Loading chunk LoginPage-Bx1 failed. (error: http://app.test/assets/LoginPage-Bx1.js)');
    expect(toChunkError(new Error('Importing a module script failed.'), 'login').message).toBe(
      'Loading chunk login failed. (error: unknown address)',
    );
  });

  it('times out', async () => {
    const error: any = await importWithTimeout(() => new Promise(() => undefined), 'dashboard', 10).catch((e) => e);
    expect(error.message).toBe('Loading chunk dashboard failed. (timeout: dashboard)');
    expect(await importWithTimeout(async () => 42, 'x', 10)).toBe(42);
  });
});

describe('analytics page views', () => {
  const view = { path: '/sites', title: 'Sites', referrer: '', timestamp: '2025-01-01T00:00:00Z' };
  it('are off without an endpoint', () => {
    let sent = 0;
    expect(sendPageView(null, view, { sendBeacon: () => (sent++, true) })).toBe(false);
    expect(sent).toBe(0);
  });
  it('go by beacon, or by fetch when beacons are refused', () => {
    const beacons: string[] = [];
    expect(sendPageView('/collect', view, { sendBeacon: (url) => (beacons.push(url), true) })).toBe(true);
    expect(beacons).toEqual(['/collect']);
    const fetched: string[] = [];
    const fakeFetch = (async (url: RequestInfo | URL) => (
      fetched.push(String(url)), new Response(null)
    )) as typeof fetch;
    expect(sendPageView('/collect', view, { sendBeacon: () => false, fetch: fakeFetch })).toBe(true);
    expect(fetched).toEqual(['/collect']);
  });
});

describe('access checks', () => {
  it('map react-admin actions to permission actions', () => {
    expect(permissionAction('list')).toBe('read');
    expect(permissionAction('show')).toBe('read');
    expect(permissionAction('export')).toBe('read');
    expect(permissionAction('edit')).toBe('update');
    expect(permissionAction('clone')).toBe('create');
    expect(permissionAction('delete')).toBe('delete');
    expect(permissionAction('restore')).toBe('restore');
  });
  it('deny everything when signed out', () => {
    expect(canAccessResource(null, 'tasks', 'list')).toBe(false);
  });
  it('use category permissions for records', () => {
    const subject = { role_id: 1, permissions: ['contractor:read:union', 'site:update'] };
    expect(canAccessResource(subject, 'contractors', 'list')).toBe(true);
    expect(canAccessResource(subject, 'contractors', 'show', { type: 'non-union' })).toBe(false);
    expect(canAccessResource(subject, 'sites', 'edit', { type: 'pla' })).toBe(true);
    expect(canAccessResource(subject, 'roles', 'list')).toBe(false);
  });
});
