import { describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/client/http/client';
import { memoryStorage, REMEMBERED_USER_KEY, SessionStore } from '../../../src/client/session/sessionStore';
import { createFakeFetch, json, when } from './fakeFetch';

/** The app opens with no connection as the person last signed in on the device (docs/offline.md). */
const ada = {
  id: 1,
  name: 'Ada Lovelace',
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  permissions: ['visit:create'],
};

function load(answer: Parameters<typeof when>[2], storage = memoryStorage()) {
  const fake = createFakeFetch([when('GET', '/api/auth/check', answer)]);
  return {
    storage,
    session: new SessionStore(new HttpClient({ fetch: fake.fetch, getCookie: fake.getCookie }), storage),
  };
}

describe('the session with no connection', () => {
  it('remembers who signed in, opens as them when the check gets no answer, and forgets them when the server says signed out', async () => {
    const online = load(json({ data: ada }));
    expect(await online.session.check()).toMatchObject({ id: 1 });
    expect(JSON.parse(online.storage.getItem(REMEMBERED_USER_KEY)!)).toMatchObject({ id: 1, email: 'ada@example.com' });

    const offline = load(new TypeError('Failed to fetch'), online.storage);
    expect(await offline.session.check()).toMatchObject({ id: 1 });
    expect(offline.session.authenticated).toBe(true);

    const signedOut = load(json({ message: 'Unauthenticated.' }, 401), online.storage);
    expect(await signedOut.session.check()).toBeNull();
    expect(online.storage.getItem(REMEMBERED_USER_KEY)).toBeNull();

    // Nobody remembered: no answer means signed out.
    const nobody = load(new TypeError('Failed to fetch'), online.storage);
    expect(await nobody.session.check()).toBeNull();
  });

  it('forgets the person at sign-out', async () => {
    const { session, storage } = load(json({ data: ada }));
    await session.check();
    session.clear();
    expect(storage.getItem(REMEMBERED_USER_KEY)).toBeNull();
  });

  it('keeps the same person object when a check answers the same, and tells its listeners only of a change', async () => {
    const { session } = load(json({ data: ada }));
    const first = await session.check();
    let told = 0;
    session.subscribe(() => (told += 1));
    expect(await session.refresh()).toBe(first);
    expect(session.user).toBe(first);
    expect(told).toBe(0);
  });
});
