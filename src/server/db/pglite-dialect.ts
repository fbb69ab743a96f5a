import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import type { PGliteThread } from './pglite-thread.js';
import type { DB } from './schema.generated.js';

/**
 * A Kysely dialect over the embedded database's thread (pglite-thread.ts). PGlite is one connection: statements
 * outside a transaction are sent at once and run in the order sent, so the database thread always has the next one
 * while this thread serves HTTP; a transaction has the connection to itself from begin to commit or rollback, and
 * statements that came after it was asked for wait here until it ends.
 */
export class PGliteDialect implements Dialect {
  private readonly driver: PGliteDriver;
  constructor(thread: PGliteThread) {
    this.driver = new PGliteDriver(thread);
  }
  /** Transactions begun and not yet ended (the database's demand: db/database.ts). */
  get transactionsQueued() {
    return this.driver.queued;
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return this.driver;
  }
  createIntrospector(db: Kysely<DB>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  /** The connection whose transaction holds the database. */
  owner: PGliteConnection | null = null;
  /** Transactions begun and not yet ended (running or waiting for their turn). */
  queued = 0;
  /**
   * Ends when the last transaction asked for has ended. Transactions take turns in the order they were asked for,
   * and a statement outside a transaction waits for those asked for before it, as on one connection handed out in
   * turn: reads coming in all the time must not keep a write waiting.
   */
  lastEnd: Promise<void> = Promise.resolve();

  constructor(readonly thread: PGliteThread) {}

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection) {
    const own = connection as PGliteConnection;
    const previous = this.lastEnd;
    this.queued++;
    this.lastEnd = new Promise<void>((resolve) => {
      own.endTransaction = () => {
        this.owner = null;
        this.queued--;
        resolve();
      };
    });
    await previous;
    this.owner = own;
    own.epoch = this.thread.epoch;
    try {
      await own.executeQuery(CompiledQuery.raw('begin'));
    } catch (error) {
      own.endTransaction();
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection) {
    const own = connection as PGliteConnection;
    try {
      await own.run('commit', [], true);
    } finally {
      own.endTransaction();
    }
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    const own = connection as PGliteConnection;
    try {
      // On a thread started again since the begin the transaction is gone already.
      if (own.epoch === this.thread.epoch) await own.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      own.endTransaction();
    }
  }

  async releaseConnection() {}

  async destroy() {
    // The owner of the database thread closes it (after a checkpoint), not Kysely.
  }
}

class PGliteConnection implements DatabaseConnection {
  /** The database thread's epoch at this connection's begin (pglite-thread.ts). */
  epoch = -1;
  endTransaction: () => void = () => {};

  constructor(private readonly driver: PGliteDriver) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.run(compiled.sql, compiled.parameters);
    return {
      rows: result.rows as R[],
      numAffectedRows: result.affectedRows != null ? BigInt(result.affectedRows) : undefined,
    };
  }

  async run(sql: string, parameters: readonly unknown[], commit = false) {
    const { driver } = this;
    if (driver.owner !== this) {
      if (driver.queued > 0) await driver.lastEnd;
      return driver.thread.run(sql, parameters, commit);
    }
    if (this.epoch !== driver.thread.epoch)
      throw new Error('The embedded database restarted during this transaction, which was rolled back.');
    // The begin waits behind the statements sent before it; the transaction's own statements have it to themselves.
    return sql === 'begin' ? driver.thread.run(sql, parameters) : driver.thread.runWithin(sql, parameters, commit);
  }

  // biome-ignore lint/correctness/useYield: the embedded database cannot stream; the method must exist.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on the embedded database; page through results instead.');
  }
}
