/**
 * The outbox: writes captured with no connection (or whose answer never came), kept in IndexedDB until the server
 * has them. Each item has a key of its own that travels as the Idempotency-Key, so sending an item again (after a
 * dropped connection, a reload, a second tab) never makes a second record: the server answers a repeated key with
 * the first answer (src/server/records/idempotency.ts). An item leaves the outbox only once an answer says it was
 * written; one that the server refuses stays, marked, for the person: a conflict (someone saved the record meanwhile)
 * to resolve, or a refusal (422, 403) to read.
 */
import type { OfflineDatabase, OutboxItem } from './database';

/** What sending one item came to. */
export type Delivery =
  | { outcome: 'sent'; record: Record<string, unknown> }
  /** No connection (or no answer): the item waits for the next attempt. */
  | { outcome: 'offline' }
  /** The server cannot take it now (an error on its side, a signed-out session, a rate limit): it waits too. */
  | { outcome: 'later' }
  | { outcome: 'conflict'; message: string; theirs?: Record<string, unknown> }
  | { outcome: 'refused'; message: string; errors?: Record<string, string> };

export type Send = (item: OutboxItem) => Promise<Delivery>;

export interface FlushResult {
  sent: OutboxItem[];
  /** Why not every waiting item was tried: no connection, or the server asked to come back later; false if all were. */
  stopped: 'offline' | 'later' | false;
}

export type NewItem = Omit<OutboxItem, 'key' | 'createdAt' | 'state'> & { key?: string };

export const newKey = () => `outbox-${crypto.randomUUID()}`;

export class Outbox {
  private flushing: Promise<FlushResult> | null = null;
  private listeners = new Set<() => void>();
  /** The last item's time: two items added in the same millisecond still keep the order they were made in. */
  private lastCreatedAt = 0;

  constructor(private readonly db: () => Promise<OfflineDatabase>) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed() {
    for (const listener of this.listeners) listener();
  }

  async add(item: NewItem): Promise<OutboxItem> {
    this.lastCreatedAt = Math.max(Date.now(), this.lastCreatedAt + 1);
    const stored: OutboxItem = { ...item, key: item.key ?? newKey(), createdAt: this.lastCreatedAt, state: 'waiting' };
    await (await this.db()).put('outbox', stored);
    this.changed();
    return stored;
  }

  /** The person's items, oldest first. */
  async items(userId: number): Promise<OutboxItem[]> {
    const items = await (await this.db()).getAllFromIndex('outbox', 'byUser', userId);
    return items.sort((a, b) => a.createdAt - b.createdAt || a.key.localeCompare(b.key));
  }

  async remove(key: string): Promise<void> {
    await (await this.db()).delete('outbox', key);
    this.changed();
  }

  /**
   * Sends the person's waiting items in the order they were made, one at a time; stops at the first that finds no
   * connection. Calls in one tab share one run; tabs take turns (Web Locks, where the browser has them), so two tabs
   * never send the same item at once (and if they did, its key would keep it to one record).
   */
  flush(userId: number, send: Send): Promise<FlushResult> {
    if (!this.flushing) {
      const run = () => this.sendWaiting(userId, send);
      const locks =
        typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
      const running: Promise<FlushResult> = locks
        ? locks.request('organizing-map-outbox', run).then((result) => result)
        : run();
      this.flushing = running.finally(() => {
        this.flushing = null;
      });
    }
    return this.flushing!;
  }

  private async sendWaiting(userId: number, send: Send): Promise<FlushResult> {
    const sent: OutboxItem[] = [];
    for (const item of await this.items(userId)) {
      if (item.state !== 'waiting') continue;
      let delivery: Delivery;
      try {
        delivery = await send(item);
      } catch {
        delivery = { outcome: 'offline' };
      }
      if (delivery.outcome === 'offline' || delivery.outcome === 'later') return { sent, stopped: delivery.outcome };
      if (delivery.outcome === 'sent') {
        await this.remove(item.key);
        sent.push(item);
      } else {
        await this.mark(item, delivery);
      }
    }
    return { sent, stopped: false };
  }

  private async mark(item: OutboxItem, delivery: Extract<Delivery, { outcome: 'conflict' | 'refused' }>) {
    const marked: OutboxItem =
      delivery.outcome === 'conflict'
        ? { ...item, state: 'conflict', message: delivery.message, theirs: delivery.theirs }
        : { ...item, state: 'refused', message: delivery.message, errors: delivery.errors };
    await (await this.db()).put('outbox', marked);
    this.changed();
  }

  /**
   * Resolving a conflict or a refusal: the item is sent again with `data` (the person's values, kept or edited,
   * carrying the version they have now seen) under a new key, since it is another request than the one refused.
   */
  async retry(item: OutboxItem, data: Record<string, unknown>): Promise<OutboxItem> {
    const db = await this.db();
    const again: OutboxItem = {
      ...item,
      key: newKey(),
      data,
      state: 'waiting',
      theirs: undefined,
      message: undefined,
      errors: undefined,
    };
    const tx = db.transaction('outbox', 'readwrite');
    await tx.store.delete(item.key);
    await tx.store.put(again);
    await tx.done;
    this.changed();
    return again;
  }
}
