/**
 * The browser's offline store (IndexedDB, through `idb`): the outbox of writes waiting to be sent, and the sites each
 * person may work on, kept for when there is no connection. Everything is kept by the signed-in person's id; signing
 * out forgets their sites (offline/session.ts), and their waiting writes are sent only while they are signed in.
 */
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

/** A write captured in the browser, sent to `POST /api/{resource}` (create) or `/api/{resource}/{id}` (update). */
export interface OutboxItem {
  /** Sent as the Idempotency-Key: the server writes the item once however often it is sent. */
  key: string;
  userId: number;
  resource: string;
  kind: 'create' | 'update';
  id?: number | string;
  data: Record<string, unknown>;
  /** Update: the record as the person saw it when they made the change, so a conflict shows what they changed. */
  base?: Record<string, unknown>;
  /** Words for the person ("Visit to Pier 9", "Note on a site"). */
  label: string;
  createdAt: number;
  state: 'waiting' | 'conflict' | 'refused';
  /** `conflict`: the record as the server has it now (someone saved it after this change was made). */
  theirs?: Record<string, unknown>;
  /** `conflict` or `refused`: the server's message; `refused`: its field errors. */
  message?: string;
  errors?: Record<string, string>;
}

export interface CachedSites {
  userId: number;
  savedAt: number;
  sites: Record<string, unknown>[];
}

export interface OfflineSchema extends DBSchema {
  outbox: { key: string; value: OutboxItem; indexes: { byUser: number } };
  sites: { key: number; value: CachedSites };
}

export type OfflineDatabase = IDBPDatabase<OfflineSchema>;

export const DATABASE_NAME = 'organizing-map-offline';

export function openOfflineDatabase(name = DATABASE_NAME): Promise<OfflineDatabase> {
  return openDB<OfflineSchema>(name, 1, {
    upgrade(db) {
      const outbox = db.createObjectStore('outbox', { keyPath: 'key' });
      outbox.createIndex('byUser', 'userId');
      db.createObjectStore('sites', { keyPath: 'userId' });
    },
  });
}
