import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/client/http/client';
import { createAuthProvider } from '../../../src/client/providers/authProvider';
import {
  INTENDED_URL_KEY,
  memoryStorage,
  refreshSessionOnFailures,
  SessionStore,
} from '../../../src/client/session/sessionStore';
import { createFakeFetch, json, when } from './fakeFetch';

const user = (over: Record<string, unknown> = {}) => ({
  id: 1,
  first_name: 'Ada',
  last_name: 'Lovelace',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  role: { id: 2, slug: 'user', name: 'User', incognito: false },
  role_id: 2,
  permissions: ['contact:read', 'site:read:union'],
  team_id: null,
  team_ids: [],
  realtime_key: 'rk',
  incognito: false,
  impersonator: null,
  ...over,
});

function setup(routes: Parameters<typeof createFakeFetch>[0] = []) {
  const fake = createFakeFetch(routes);
  const http = new HttpClient({ fetch: fake.fetch, getCookie: fake.getCookie });
  const storage = memoryStorage();
  const session = new SessionStore(http, storage);
  refreshSessionOnFailures(http, session);
  const auth = createAuthProvider(http, session);
  return { fake, http, storage, session, auth };
}

const signedIn = when('GET', '/api/auth/check', json({ data: user() }));
const signedOut = when('GET', '/api/auth/check', json({ message: 'Unauthenticated.' }, 401));

describe('session states', () => {
  it('starts with no user and not checked', () => {
    const { session } = setup();
    expect(session.getState()).toMatchObject({ user: null, checked: false });
    expect(session.authenticated).toBe(false);
  });

  it('refresh stores the user on success and marks checked', async () => {
    const { session } = setup([signedIn]);
    await session.refresh();
    expect(session.getState().checked).toBe(true);
    expect(session.user?.email).toBe('ada@example.com');
    expect(session.authenticated).toBe(true);
  });

  it('a failed check silently means not signed in', async () => {
    const { session } = setup([signedOut]);
    expect(await session.refresh()).toBeNull();
    expect(session.getState()).toMatchObject({ user: null, checked: true });
  });

  it('check refreshes only when not yet checked', async () => {
    const { session, fake } = setup([signedIn]);
    await session.check();
    await session.check();
    expect(fake.requests.filter((r) => r.path === '/api/auth/check')).toHaveLength(1);
  });

  it('concurrent refreshes share one request', async () => {
    const { session, fake } = setup([signedIn]);
    await Promise.all([session.refresh(), session.refresh(), session.check()]);
    expect(fake.requests.filter((r) => r.path === '/api/auth/check')).toHaveLength(1);
  });

  it('losing the session clears the user and the intended URL', async () => {
    let answer = json({ data: user() });
    const { session, storage } = setup([when('GET', '/api/auth/check', () => answer)]);
    await session.refresh();
    storage.setItem(INTENDED_URL_KEY, '/users?page=2');
    answer = json({ message: 'Unauthenticated.' }, 401);
    await session.refresh();
    expect(session.user).toBeNull();
    expect(storage.getItem(INTENDED_URL_KEY)).toBeNull();
  });

  it('a network failure while signed in keeps the person', async () => {
    let answer: any = json({ data: user() });
    const { session } = setup([when('GET', '/api/auth/check', () => answer)]);
    await session.refresh();
    answer = new TypeError('Failed to fetch');
    await session.refresh();
    expect(session.user?.id).toBe(1);
  });

  it('any failed response refreshes the session and passes the error on', async () => {
    const { session, http, fake } = setup([signedIn, when('GET', '/api/sites', json({ message: 'Forbidden' }, 403))]);
    const error = await http.get('/api/sites').catch((e) => e);
    expect(error.status).toBe(403);
    await session.check();
    expect(fake.requests.filter((r) => r.path === '/api/auth/check')).toHaveLength(1);
    expect(session.user?.id).toBe(1);
  });

  it('the session check failing does not trigger another check', async () => {
    const { session, fake } = setup([signedOut]);
    await session.refresh();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.requests.filter((r) => r.path === '/api/auth/check')).toHaveLength(1);
  });
});

describe('authProvider', () => {
  it('login posts email, password, remember; stores the user; returns and clears the intended URL', async () => {
    const { auth, session, storage, fake } = setup([when('POST', '/api/auth/login', json({ data: user() }))]);
    storage.setItem(INTENDED_URL_KEY, '/users?filter=%7B%7D#top');
    const result = await auth.login({ email: 'ada@example.com', password: 'secret', remember: true });
    expect(fake.requests[0]!.path).toBe('/sanctum/csrf-cookie');
    expect(fake.last().body).toEqual({ email: 'ada@example.com', password: 'secret', remember: true });
    expect(result).toEqual({ redirectTo: '/users?filter=%7B%7D#top' });
    expect(session.getState().checked).toBe(true);
    expect(session.user?.id).toBe(1);
    expect(storage.getItem(INTENDED_URL_KEY)).toBeNull();
  });

  it('login without an intended URL goes to the dashboard', async () => {
    const { auth } = setup([when('POST', '/api/auth/login', json({ data: user() }))]);
    expect(await auth.login({ email: 'a', password: 'b' })).toEqual({ redirectTo: '/' });
  });

  it('a wrong password rejects with the server message and keeps the intended URL', async () => {
    const { auth, storage } = setup([
      signedOut,
      when(
        'POST',
        '/api/auth/login',
        json(
          {
            message: 'These credentials do not match our records.',
            errors: { email: ['These credentials do not match our records.'] },
          },
          422,
        ),
      ),
    ]);
    storage.setItem(INTENDED_URL_KEY, '/roles');
    const error = await auth.login({ email: 'a', password: 'b' }).catch((e) => e);
    expect(error.status).toBe(422);
    expect(error.message).toBe('These credentials do not match our records.');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(storage.getItem(INTENDED_URL_KEY)).toBe('/roles');
  });

  it('throttled login rejects with status 429', async () => {
    const { auth } = setup([
      when(
        'POST',
        '/api/auth/login',
        json({ message: 'Too many login attempts. Please try again in 60 seconds.' }, 429, { 'Retry-After': '60' }),
      ),
    ]);
    const error = await auth.login({ email: 'a', password: 'b' }).catch((e) => e);
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(60);
  });

  it('logout posts, clears user and checked flag, and removes the intended URL', async () => {
    const { auth, session, storage, fake } = setup([signedIn, when('POST', '/api/auth/logout', { status: 204 })]);
    await session.refresh();
    storage.setItem(INTENDED_URL_KEY, '/roles');
    expect(await auth.logout({})).toBe('/login');
    expect(fake.last().path).toBe('/api/auth/logout');
    expect(session.getState()).toEqual({ user: null, checked: false, endedBy: 'logout' });
    expect(storage.getItem(INTENDED_URL_KEY)).toBeNull();
  });

  it('a timeout sign-out is remembered until the next sign-in', async () => {
    const { auth, session } = setup([
      signedIn,
      when('POST', '/api/auth/logout', { status: 204 }),
      when('POST', '/api/auth/login', json({ data: user() })),
    ]);
    await session.refresh();
    await auth.logout({ reason: 'timeout' });
    expect(session.getState().endedBy).toBe('timeout');
    await auth.login({ email: 'a', password: 'b' });
    expect(session.getState().endedBy).toBeUndefined();
  });

  it('logout still signs out locally when the server call fails', async () => {
    const { auth, session } = setup([signedIn, when('POST', '/api/auth/logout', json({ message: 'x' }, 500))]);
    await session.refresh();
    const original = console.error;
    console.error = () => undefined;
    try {
      await auth.logout({});
    } finally {
      console.error = original;
    }
    expect(session.user).toBeNull();
  });

  it('checkAuth resolves for a signed-in person and rejects without logging out otherwise', async () => {
    expect(await setup([signedIn]).auth.checkAuth({})).toBeUndefined();
    const rejection = await setup([signedOut])
      .auth.checkAuth({})
      .catch((e) => e);
    expect(rejection).toMatchObject({ logoutUser: false, redirectTo: '/login' });
  });

  it('checkError rejects on 401 once the session is gone, resolves otherwise', async () => {
    const { auth } = setup([signedOut]);
    await expect(auth.checkError({ status: 401 })).rejects.toMatchObject({ logoutUser: false });
    await expect(auth.checkError({ status: 403 })).resolves.toBeUndefined();
    await expect(auth.checkError({ status: 500 })).resolves.toBeUndefined();
  });

  it('getIdentity and getPermissions come from the session user', async () => {
    const { auth } = setup([signedIn]);
    const identity = await auth.getIdentity!();
    expect(identity).toMatchObject({ id: 1, fullName: 'Ada Lovelace', first_name: 'Ada' });
    expect(await auth.getPermissions!({})).toEqual(['contact:read', 'site:read:union']);
    expect(await setup([signedOut]).auth.getPermissions!({})).toEqual([]);
  });

  it('canAccess uses the shared permission rules', async () => {
    const { auth } = setup([signedIn]);
    expect(await auth.canAccess!({ resource: 'contacts', action: 'list' })).toBe(true);
    expect(await auth.canAccess!({ resource: 'contacts', action: 'edit' })).toBe(false);
    expect(await auth.canAccess!({ resource: 'users', action: 'list' })).toBe(false);
    expect(await auth.canAccess!({ resource: 'sites', action: 'list' })).toBe(true);
    expect(await auth.canAccess!({ resource: 'sites', action: 'show', record: { id: 1, type: 'union' } })).toBe(true);
    expect(await auth.canAccess!({ resource: 'sites', action: 'show', record: { id: 2, type: 'pla' } })).toBe(false);
    expect(await auth.canAccess!({ resource: 'notifications', action: 'list' })).toBe(true);
    expect(await setup([signedOut]).auth.canAccess!({ resource: 'notifications', action: 'list' })).toBe(false);
  });

  it('password reset and update', async () => {
    const { auth, fake } = setup([
      when('POST', '/api/password/reset', json({ message: 'We have emailed your password reset link.' })),
      when('POST', '/api/password/update', json({ message: 'Your password has been reset.' })),
    ]);
    expect(await auth.requestPasswordReset('a@b.c')).toBe('We have emailed your password reset link.');
    expect(fake.last().body).toEqual({ email: 'a@b.c' });
    const data = { token: 't', email: 'a@b.c', password: 'newpassword', password_confirmation: 'newpassword' };
    expect(await auth.updatePassword(data)).toBe('Your password has been reset.');
    expect(fake.last().body).toEqual(data);
  });

  it('register and impersonate store the returned user', async () => {
    const { auth, session } = setup([
      when('POST', '/api/auth/register', json({ data: user({ id: 5 }) })),
      when('POST', '/api/auth/impersonate/9', json({ data: user({ id: 9 }) })),
    ]);
    await auth.register({ email: 'x' });
    expect(session.user?.id).toBe(5);
    await auth.impersonate(9);
    expect(session.user?.id).toBe(9);
  });

  it('leaving an impersonation posts to its endpoint', async () => {
    const { auth, fake } = setup([when('POST', '/api/auth/impersonate/leave', json({ message: 'Back.' }))]);
    await auth.leaveImpersonation();
    expect(fake.requests.some((r) => r.method === 'POST' && r.path === '/api/auth/impersonate/leave')).toBe(true);
  });
});

describe('the session from the start answer', () => {
  it('a person in the start answer settles the check without asking /api/auth/check, and react-admin sees them', async () => {
    const { fake, session, auth } = setup([signedIn]);
    session.adopt(Promise.resolve(user()));
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
    expect(await auth.getPermissions!({})).toEqual(['contact:read', 'site:read:union']);
    expect(session.getState()).toMatchObject({ user: { id: 1 }, checked: true });
    expect(fake.requests.filter((r) => r.path === '/api/auth/check')).toHaveLength(0);
  });

  it('null in the start answer means signed out, without a request', async () => {
    const { fake, session } = setup([signedIn]);
    session.adopt(Promise.resolve(null));
    expect(await session.check()).toBeNull();
    expect(session.getState()).toMatchObject({ user: null, checked: true });
    expect(fake.requests).toHaveLength(0);
  });

  it('no start answer: the session is asked for as usual, once for concurrent checks', async () => {
    const { fake, session } = setup([signedIn]);
    session.adopt(Promise.resolve(undefined));
    const [first, second] = await Promise.all([session.check(), session.check()]);
    expect(first).toMatchObject({ id: 1 });
    expect(second).toMatchObject({ id: 1 });
    expect(fake.requests.filter((r) => r.path === '/api/auth/check')).toHaveLength(1);
  });
});
