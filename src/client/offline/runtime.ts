/**
 * Offline work (docs/offline.md): whether the browser is online, the signed-in person's outbox, and sending it. One
 * instance for the app (`offline`), connected to the app's HTTP client, session and query cache at start-up
 * (app/services.ts); the data provider captures writes into it (offlineDataProvider.ts) and the top bar shows it
 * (OfflineIndicator.tsx).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { HttpClient } from '../http/client';
import type { SessionStore } from '../session/sessionStore';
import { type OfflineDatabase, type OutboxItem, openOfflineDatabase } from './database';
import { type NewItem, Outbox } from './outbox';
import { sendItem } from './send';
import { SiteCache } from './siteCache';

export interface OfflineState {
  online: boolean;
  /** The signed-in person's outbox, oldest first. */
  items: readonly OutboxItem[];
  sending: boolean;
}

/** The service worker's cache of API answers (vite.config.ts): emptied when the person signs out or changes. */
export const API_CACHE = 'api';
/** While items wait and the browser says it is online (a server error, a lost answer), another try this often. */
const RETRY_MS = 30_000;
/** While the server cannot be reached, it is asked again this often. */
const PROBE_MS = 5_000;
/** A small answer that is never cached (vite.config.ts leaves it out of the worker's API cache). */
const PROBE_PATH = '/api/health';

interface Connection {
  http: HttpClient;
  session: SessionStore;
  queryClient: QueryClient;
}

export class OfflineRuntime {
  private state: OfflineState = {
    online: typeof navigator === 'undefined' ? true : navigator.onLine,
    items: [],
    sending: false,
  };
  private listeners = new Set<() => void>();
  private database: Promise<OfflineDatabase> | null = null;
  private connection: Connection | null = null;
  private userId: number | null = null;
  private probing: ReturnType<typeof setTimeout> | undefined;
  readonly outbox = new Outbox(() => this.db());
  readonly sites = new SiteCache(() => this.db());

  private db(): Promise<OfflineDatabase> {
    this.database ??= openOfflineDatabase();
    return this.database;
  }

  getState = (): OfflineState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(next: Partial<OfflineState>) {
    this.state = { ...this.state, ...next };
    for (const listener of this.listeners) listener();
  }

  get online() {
    return this.state.online;
  }

  get signedInUserId() {
    return this.userId;
  }

  /** Once, at start-up. Without IndexedDB (a private window of some browsers) nothing is captured. */
  connect(connection: Connection) {
    if (this.connection || typeof window === 'undefined' || typeof indexedDB === 'undefined') return;
    this.connection = connection;
    // The browser's word is not enough: "online" may be a network that reaches nothing (or, after a reload with no
    // connection, what some browsers say anyway), so the server is asked before the outbox is sent.
    window.addEventListener('online', () => void this.probe());
    window.addEventListener('offline', () => this.unreachable());
    if (navigator.onLine) void this.probe();
    this.outbox.subscribe(() => void this.reload());
    const follow = () => {
      const id = connection.session.user?.id ?? null;
      if (id === this.userId) return;
      const previous = this.userId;
      this.userId = id;
      if (previous !== null) void this.forget(previous);
      void this.reload();
      if (id !== null) {
        void this.flush();
        void this.refreshSites();
      }
    };
    connection.session.subscribe(follow);
    follow();
    setInterval(() => {
      if (this.state.online && this.state.items.some((item) => item.state === 'waiting')) void this.flush();
    }, RETRY_MS);
  }

  /** A request got no answer: offline until the server answers again. */
  unreachable() {
    if (this.state.online) this.set({ online: false });
    this.probing ??= setTimeout(() => void this.probe(), PROBE_MS);
  }

  private async probe() {
    clearTimeout(this.probing);
    this.probing = undefined;
    const answered = await fetch(PROBE_PATH, { cache: 'no-store', headers: { Accept: 'application/json' } }).then(
      (response) => response.ok,
      () => false,
    );
    if (!answered) return this.unreachable();
    if (!this.state.online) this.set({ online: true });
    await this.flush();
    await this.refreshSites();
  }

  /** Keeps a write in the outbox for the signed-in person; it is sent when the connection returns. */
  async capture(item: Omit<NewItem, 'userId'>): Promise<OutboxItem> {
    if (this.userId === null) throw new Error('Sign in to save changes on this device.');
    const stored = await this.outbox.add({ ...item, userId: this.userId });
    return stored;
  }

  /** Sends what waits, when online and signed in; then the screens showing those records read them again. */
  async flush(): Promise<void> {
    const { connection, userId } = this;
    if (!connection || userId === null || !this.state.online) return;
    this.set({ sending: true });
    try {
      const { sent, stopped } = await this.outbox.flush(userId, (item) => sendItem(connection.http, item));
      if (stopped === 'offline') this.unreachable();
      for (const resource of new Set(sent.map((item) => item.resource)))
        await connection.queryClient.invalidateQueries({ queryKey: [resource] });
    } finally {
      this.set({ sending: false });
      await this.reload();
    }
  }

  async retryItem(item: OutboxItem, data: Record<string, unknown>) {
    await this.outbox.retry(item, data);
    await this.flush();
  }

  async discard(item: OutboxItem) {
    await this.outbox.remove(item.key);
  }

  private async reload() {
    const items = this.userId === null ? [] : await this.outbox.items(this.userId).catch(() => []);
    this.set({ items });
  }

  /** Fetches the signed-in person's sites for offline work when the kept list is old (or always, with `force`). */
  async refreshSites(force = false) {
    const { connection, userId } = this;
    if (!connection || userId === null || !this.state.online) return;
    await this.sites.refresh(connection.http, userId, force).catch(() => undefined);
  }

  /** Sign-out or another person: their kept sites and the service worker's API answers go. */
  private async forget(userId: number) {
    await this.sites.forget(userId).catch(() => undefined);
    if (typeof caches !== 'undefined') await caches.delete(API_CACHE).catch(() => false);
  }
}

export const offline = new OfflineRuntime();
