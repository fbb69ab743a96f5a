import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Database } from './database.js';
import { DatabaseHealth } from './database-health.js';
import { PostgresListener } from './postgres-listener.js';
import type { DB } from './schema.generated.js';
import { asText, DATE, INT8, NUMERIC, toNumber } from './type-parsers.js';
import { trackWrites, WriteGeneration } from './write-tracking.js';

/** The advisory lock key of start-up work (migrations, seeding, indexes): any fixed number no other code uses. */
const START_LOCK = 7_240_114_001;
/**
 * The longest a request waits for a pooled connection, or for a new one to be made, before it is answered 503:
 * without it a server that drops packets (rather than refusing) would hold every request for minutes.
 */
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * PostgreSQL behind Kysely, surviving the server's restarts: every connection, pooled or not, has an error handler (an
 * 'error' event without one ends the process), a lost connection is reported to `health`, which probes until the
 * server answers, and the pool makes new connections as requests need them. The read caches are emptied at each
 * change, since writes made meanwhile by other processes were not seen.
 */
export async function openPostgres(url: string): Promise<Database> {
  // Loaded only here: with the embedded database the driver is never needed.
  const { default: pg } = await import('pg');
  pg.types.setTypeParser(INT8, toNumber);
  pg.types.setTypeParser(NUMERIC, toNumber);
  pg.types.setTypeParser(DATE, asText);
  const newClient = () => new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  const health = new DatabaseHealth(async () => {
    const probe = newClient();
    probe.on('error', () => {});
    try {
      await probe.connect();
      await probe.query('select 1');
    } finally {
      await probe.end().catch(() => {});
    }
  });
  // No JIT: the access policy's rules (access/compile.ts) give plans of many small subplans whose estimated cost passes
  // jit_above_cost though they run in a millisecond; compiling them took seconds (docs/operations.md).
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    options: '-c jit=off',
  });
  // An idle connection the server closed (pg-pool drops it and emits this), and any connection's error while a
  // request holds it (the request's query fails too and the pool drops the connection when it is given back).
  pool.on('error', (error) => health.report(error));
  pool.on('connect', (client) => client.on('error', (error) => health.report(error)));
  const watchedPool = {
    connect: () =>
      pool.connect().catch((error) => {
        health.report(error);
        throw error;
      }),
    end: () => pool.end(),
  };
  const writes = new WriteGeneration();
  // Writes other processes made while this one could not read the database were never counted here.
  health.onChange(() => writes.bump());
  const db = new Kysely<DB>({ dialect: trackWrites(new PostgresDialect({ pool: watchedPool }), writes) });
  await sql`select 1`.execute(db);
  const listener = new PostgresListener(newClient, pg.escapeIdentifier, health);
  /** Runs `work` holding a session advisory lock on a connection of its own (waiting for it, or not: null). */
  const holdingLock = async <T>(lock: number, wait: boolean, work: () => Promise<T>): Promise<T | null> => {
    const holder = newClient();
    holder.on('error', (error) => health.report(error));
    await holder.connect();
    try {
      const { rows } = await holder.query(`select ${wait ? 'pg_advisory_lock' : 'pg_try_advisory_lock'}($1) as held`, [
        lock,
      ]);
      // pg_advisory_lock answers void (null) once it holds the lock.
      if (!wait && rows[0]?.held !== true) return null;
      return await work();
    } finally {
      // Ending the session releases the lock, also when the unlock cannot be sent.
      await holder.end().catch(() => {});
    }
  };
  let closed = false;
  return {
    kind: 'postgres',
    db,
    writes,
    health,
    poolStats: () => ({
      max: pool.options.max ?? 10,
      total: pool.totalCount,
      idle: pool.idleCount,
      // pg-pool queues every request for a connection for one tick, also when one is idle and about to be handed
      // over: only those beyond the idle connections wait.
      waiting: Math.max(0, pool.waitingCount - pool.idleCount),
    }),
    listen: (channel, fn) => listener.listen(channel, fn),
    onNotificationsMissed: (fn) => listener.onMissed(fn),
    get listening() {
      return listener.connected;
    },
    async notify(channel, payload) {
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    exclusively: async (work) => (await holdingLock(START_LOCK, true, work))!,
    exclusivelyIfFree: (lock, work) => holdingLock(lock, false, work),
    async close() {
      if (closed) return;
      closed = true;
      health.close();
      await listener.close();
      await db.destroy();
    },
  };
}
