import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Kysely, type QueryExecutorProvider, sql } from 'kysely';
import type { Config } from '../config/config.js';
import { DatabaseHealth } from './database-health.js';
import { PGliteDialect } from './pglite-dialect.js';
import { PGliteThread } from './pglite-thread.js';
import { openPostgres } from './postgres.js';
import type { DB } from './schema.generated.js';
import { markSoleWriter, trackWrites, WriteGeneration } from './write-tracking.js';

export type DatabaseKind = 'pglite' | 'postgres';

/** What is asked of the embedded database's one connection now (the job worker holds back while it is busy). */
export interface DatabaseDemand {
  /** Statements sent and not yet answered, and transactions waiting for their turn or open. */
  readonly waiting: number;
  /** When the last statement was sent (performance.now()). */
  readonly lastSentAt: number;
}

export interface Database {
  kind: DatabaseKind;
  db: Kysely<DB>;
  /** Moves after every write through `db` (read caches check it). */
  writes: WriteGeneration;
  /** Whether the database answers now; the embedded one unless its thread is starting again (db/database-health.ts). */
  health: DatabaseHealth;
  /** Run `listener` for every NOTIFY on `channel`, from this process or (on PostgreSQL) any other. */
  listen(channel: string, listener: (payload: string) => void): Promise<void>;
  /**
   * `listener` runs when notifications may have been missed: the LISTEN connection was lost and is open again
   * (PostgreSQL). Returns a function that stops it.
   */
  onNotificationsMissed(listener: () => void): () => void;
  /** Whether notifications reach this process now (its LISTEN connection is open; always, on the embedded database). */
  readonly listening: boolean;
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Runs `work` while no other process runs its own (PostgreSQL: a session advisory lock held by a connection of
   * its own; the embedded database has one process). Processes started together migrate and seed one at a time.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` unless another process runs work under the same `lock` (a number of its own) now; null when it did not
   * run. The embedded database has one process: there the lock is held in memory, against other work of this process.
   */
  exclusivelyIfFree<T>(lock: number, work: () => Promise<T>): Promise<T | null>;
  /** Checkpoint and close; safe to call twice. */
  close(): Promise<void>;
  /** The connection pool's state (PostgreSQL); the embedded database has one connection and no pool. */
  poolStats?(): { max: number; total: number; idle: number; waiting: number };
  /** The embedded database's own thread (pglite-thread.ts): started again by itself if it stops. */
  thread?: PGliteThread;
  /** The embedded database: what its one connection is asked now. (PostgreSQL's pool serves the worker apart.) */
  demand?: DatabaseDemand;
  /**
   * The embedded database: runs `work` with its one connection to itself across its statements and transactions, for
   * at most `maxMs` (pglite-dialect.ts `hold`). PostgreSQL has a pool, and no hold.
   */
  hold?<T>(work: () => Promise<T>, maxMs: number): Promise<T>;
}

export class DataFolderLockedError extends Error {}

export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPGlite(path.join(config.dataDir, 'db'));
}

/**
 * The embedded database runs on a thread of its own (pglite-worker.ts), so HTTP and JavaScript run beside it on the
 * other core; this process holds the data folder's lock.
 */
async function openPGlite(folder: string): Promise<Database> {
  mkdirSync(folder, { recursive: true });
  const releaseLock = acquireLock(folder);
  let thread: PGliteThread;
  try {
    thread = await PGliteThread.start(folder);
  } catch (error) {
    releaseLock();
    throw error;
  }
  const writes = new WriteGeneration();
  const health = DatabaseHealth.inProcess();
  thread.onStop = (error) => health.stopped(error.message);
  thread.onRestart = () => {
    // Writes in flight when the thread stopped may have committed: what the caches keep is dropped.
    writes.bump('data', null);
    health.started();
  };
  const dialect = new PGliteDialect(thread);
  const db = new Kysely<DB>({ dialect: trackWrites(dialect, writes) });
  markSoleWriter(db, writes);
  // One process owns the embedded database, so notifications stay in this process.
  const listeners = new Map<string, Array<(payload: string) => void>>();
  const heldLocks = new Set<number>();
  let closed = false;
  return {
    kind: 'pglite',
    db,
    writes,
    health,
    thread,
    hold: (work, maxMs) => dialect.hold(work, maxMs),
    demand: {
      get waiting() {
        return thread.waiting + dialect.transactionsQueued;
      },
      get lastSentAt() {
        return thread.lastSentAt;
      },
    },
    async listen(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, []);
      listeners.get(channel)!.push(listener);
    },
    onNotificationsMissed: () => () => {},
    listening: true,
    async notify(channel, payload) {
      for (const fn of listeners.get(channel) ?? []) queueMicrotask(() => fn(payload));
    },
    async exclusively(work) {
      return work();
    },
    async exclusivelyIfFree(lock, work) {
      // One process, but several parts of it may ask (two outbox publishers in a test): the lock is held in memory.
      if (heldLocks.has(lock)) return null;
      heldLocks.add(lock);
      try {
        return await work();
      } finally {
        heldLocks.delete(lock);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      health.close();
      try {
        // Statements in flight finish first; then everything is flushed to the data folder.
        await thread.close();
      } finally {
        releaseLock();
      }
    },
  };
}

/**
 * PGlite has no lock of its own: two processes on one folder would corrupt it. A lock file holding our pid
 * refuses the second; a lock left by a process that no longer runs is taken over.
 */
export function acquireLock(folder: string): () => void {
  const lockPath = path.join(folder, '..', 'organizing-map.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(lockPath, 'utf8') === String(process.pid)) unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (error: any) {
      if (error.code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lockPath, 'utf8'));
      if (holder && holder !== process.pid && processIsAlive(holder)) {
        throw new DataFolderLockedError(
          `The data folder ${path.dirname(lockPath)} is in use by another server process (pid ${holder}). ` +
            'Stop that process first, or start this one with another DATA_DIR.',
        );
      }
      if (existsSync(lockPath)) unlinkSync(lockPath);
    }
  }
  throw new DataFolderLockedError(`Could not lock the data folder ${path.dirname(lockPath)}.`);
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error: any) {
    return error.code === 'EPERM';
  }
}

/** Whether the database answers a trivial query (health and readiness checks). */
export async function databaseAnswers(db: QueryExecutorProvider): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
