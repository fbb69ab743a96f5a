/**
 * The session states of SPEC section 4: a user (or none) and a checked flag.
 *
 * - login / register store the returned user and mark checked;
 * - logout clears both and removes the saved intended URL;
 * - refresh asks the server who the person is: success stores the user, failure clears the user (and the
 *   intended URL when a session was lost; see docs/client.md);
 * - check refreshes only when not yet checked;
 * - authenticated means a user is present.
 * Concurrent refreshes share one request.
 *
 * The signed-in person is remembered on the device (REMEMBERED_USER_KEY) so the app opens with no connection
 * (docs/offline.md): a check that gets no answer at all starts the app as the person last signed in here; the server
 * still decides every request once the connection returns, and any answer that says "signed out" forgets them.
 */
import type { HttpClient } from '../http/client';
import { ApiError } from '../http/errors';
import type { SessionState, SessionUser } from './types';

export const INTENDED_URL_KEY = 'intendedUrl';
export const REMEMBERED_USER_KEY = 'signedInUser';

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** In-memory storage for tests and for browsers that refuse localStorage. */
export function memoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

export function browserStorage(): KeyValueStorage {
  try {
    if (typeof localStorage !== 'undefined') return localStorage;
  } catch {
    // Access to localStorage can throw (privacy settings); fall through.
  }
  return memoryStorage();
}

export class SessionStore {
  private state: SessionState = { user: null, checked: false };
  private listeners = new Set<() => void>();
  private pending: Promise<SessionUser | null> | null = null;

  constructor(
    private readonly http: HttpClient,
    private readonly storage: KeyValueStorage,
  ) {}

  getState = (): SessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get user(): SessionUser | null {
    return this.state.user;
  }

  get authenticated(): boolean {
    return this.state.user !== null;
  }

  private set(next: SessionState): void {
    // The same person as before keeps the same object: every failed response asks again (SPEC 4), and a new object
    // would draw every screen anew (a cell being edited in the grid would lose what was typed).
    if (
      next.user &&
      this.state.user &&
      next.user !== this.state.user &&
      JSON.stringify(next.user) === JSON.stringify(this.state.user)
    )
      next = { ...next, user: this.state.user };
    if (next.user === this.state.user && next.checked === this.state.checked && next.endedBy === this.state.endedBy)
      return;
    if (next.user !== this.state.user) {
      if (next.user) this.storage.setItem(REMEMBERED_USER_KEY, JSON.stringify(next.user));
      else this.storage.removeItem(REMEMBERED_USER_KEY);
    }
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  /** After login or register. */
  setUser(user: SessionUser): void {
    this.set({ user, checked: true });
  }

  /** After logout: user and checked flag cleared, intended URL removed. */
  clear(endedBy: 'logout' | 'timeout' = 'logout'): void {
    this.set({ user: null, checked: false, endedBy });
    this.clearIntendedUrl();
  }

  /** Ask the server who the person is. Concurrent calls share one request. */
  refresh(): Promise<SessionUser | null> {
    if (this.pending) return this.pending;
    const hadUser = this.state.user !== null;
    this.pending = this.http
      .get<{ data: SessionUser }>('/api/auth/check', { refreshSessionOnFailure: false })
      .then((response) => {
        const user = response.data?.data ?? null;
        if (!user) this.storage.removeItem(REMEMBERED_USER_KEY);
        this.set({ user, checked: true, endedBy: user ? undefined : this.state.endedBy });
        return this.state.user;
      })
      .catch((error: unknown) => {
        const answered = error instanceof ApiError && error.kind === 'bad-request';
        const remembered =
          !hadUser && error instanceof ApiError && error.kind === 'network' ? this.rememberedUser() : null;
        if (remembered) {
          // No connection: open the app as the person last signed in on this device.
          this.set({ user: remembered, checked: true });
          return remembered;
        }
        if (answered) this.storage.removeItem(REMEMBERED_USER_KEY);
        if (answered || !hadUser) {
          // The server said "signed out" (or nobody was signed in): a failed check means not signed in.
          this.set({ user: null, checked: true, endedBy: this.state.endedBy });
          if (hadUser) this.clearIntendedUrl();
          return null;
        }
        // Network trouble or a server error while signed in: keep the person, try again next time.
        this.set({ ...this.state, checked: true });
        return this.state.user;
      })
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }

  /**
   * Take who the person is from an answer already on its way (the start answer, app/startAnswer.ts): a user or
   * null settles the check as /api/auth/check would; undefined (no such answer) asks the server.
   */
  adopt(answer: Promise<SessionUser | null | undefined>): void {
    if (this.pending || this.state.checked) return;
    const pending: Promise<SessionUser | null> = answer.then((user) => {
      if (this.pending === pending) this.pending = null;
      if (user === undefined) return this.refresh();
      this.set({ user, checked: true, endedBy: user ? undefined : this.state.endedBy });
      return user;
    });
    this.pending = pending;
  }

  /** Refresh only when not yet checked. */
  check(): Promise<SessionUser | null> {
    if (this.state.checked && !this.pending) return Promise.resolve(this.state.user);
    return this.refresh();
  }

  private rememberedUser(): SessionUser | null {
    try {
      return JSON.parse(this.storage.getItem(REMEMBERED_USER_KEY) ?? 'null') as SessionUser | null;
    } catch {
      return null;
    }
  }

  getIntendedUrl(): string | null {
    return this.storage.getItem(INTENDED_URL_KEY);
  }

  setIntendedUrl(url: string): void {
    this.storage.setItem(INTENDED_URL_KEY, url);
  }

  clearIntendedUrl(): void {
    this.storage.removeItem(INTENDED_URL_KEY);
  }
}

/** SPEC section 4: any failed response refreshes the session state (the error itself is passed on). */
export function refreshSessionOnFailures(http: HttpClient, session: SessionStore): () => void {
  return http.onFailedResponse(() => {
    void session.refresh();
  });
}
