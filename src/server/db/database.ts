import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import type { Config } from '../config/config.js';
import { PGliteDialect } from './pglite-dialect.js';
import { PGliteThread } from './pglite-thread.js';
import { asText, DATE, INT8, NUMERIC, toNumber } from './type-parsers.js';
import { trackWrites, WriteGeneration } from './write-tracking.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  kind: DatabaseKind;
  db: Kysely<any>;
  /** Moves after every write through `db` (read caches check it). */
  writes: WriteGeneration;
  /** Run `listener` for every NOTIFY on `channel`, from this process or (on PostgreSQL) any other. */
  listen(channel: string, listener: (payload: string) => void): Promise<void>;
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Runs `work` while no other process runs its own (PostgreSQL: a session advisory lock held by a connection of
   * its own; the embedded database has one process). Processes started together migrate and seed one at a time.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /** Checkpoint and close; safe to call twice. */
  close(): Promise<void>;
  /** The connection pool's state (PostgreSQL); the embedded database has one connection and no pool. */
  poolStats?(): { max: number; total: number; idle: number; waiting: number };
  /** The embedded database's own thread (pglite-thread.ts): started again by itself if it stops. */
  thread?: PGliteThread;
}

export class DataFolderLockedError extends Error {}

/** The advisory lock key of start-up work (migrations, seeding): any fixed number no other code uses. */
const START_LOCK = 7_240_114_001;

export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPGlite(path.join(config.dataDir, 'db'));
}

async function openPostgres(url: string): Promise<Database> {
  // Loaded only here: with the embedded database the driver is never needed.
  const { default: pg } = await import('pg');
  pg.types.setTypeParser(INT8, toNumber);
  pg.types.setTypeParser(NUMERIC, toNumber);
  pg.types.setTypeParser(DATE, asText);
  // No JIT: the access policy's rules (access/compile.ts) give plans of many small subplans whose estimated cost passes
  // jit_above_cost though they run in a millisecond; compiling them took seconds (docs/operations.md).
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    options: '-c jit=off',
  });
  const writes = new WriteGeneration();
  const db = new Kysely<any>({ dialect: trackWrites(new PostgresDialect({ pool }), writes) });
  await sql`select 1`.execute(db);
  let listenClient: pg.Client | null = null;
  const listeners = new Map<string, Array<(payload: string) => void>>();
  let closed = false;
  return {
    kind: 'postgres',
    db,
    writes,
    poolStats: () => ({
      max: pool.options.max ?? 10,
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
    async listen(channel, listener) {
      if (!listenClient) {
        listenClient = new pg.Client({ connectionString: url });
        await listenClient.connect();
        listenClient.on('notification', (message) => {
          for (const fn of listeners.get(message.channel) ?? []) fn(message.payload ?? '');
        });
      }
      if (!listeners.has(channel)) {
        listeners.set(channel, []);
        await listenClient.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      listeners.get(channel)!.push(listener);
    },
    async notify(channel, payload) {
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    async exclusively(work) {
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await holder.query('select pg_advisory_lock($1)', [START_LOCK]);
        return await work();
      } finally {
        // Ending the session releases the lock, also when the unlock cannot be sent.
        await holder.end().catch(() => {});
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await listenClient?.end().catch(() => {});
      await db.destroy();
    },
  };
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
  // Writes in flight when the thread stopped may have committed: what the caches keep is dropped.
  thread.onRestart = () => writes.bump('data', null);
  const db = new Kysely<any>({ dialect: trackWrites(new PGliteDialect(thread), writes) });
  // One process owns the embedded database, so notifications stay in this process.
  const listeners = new Map<string, Array<(payload: string) => void>>();
  let closed = false;
  return {
    kind: 'pglite',
    db,
    writes,
    thread,
    async listen(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, []);
      listeners.get(channel)!.push(listener);
    },
    async notify(channel, payload) {
      for (const fn of listeners.get(channel) ?? []) queueMicrotask(() => fn(payload));
    },
    async exclusively(work) {
      return work();
    },
    async close() {
      if (closed) return;
      closed = true;
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
export async function databaseAnswers(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
