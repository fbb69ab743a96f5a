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

/**
 * A Kysely dialect over the embedded database's thread (pglite-thread.ts). PGlite is one connection: statements
 * outside a transaction are sent at once and run in the order sent, so the database thread always has the next one
 * while this thread serves HTTP; a transaction has the connection to itself from begin to commit or rollback, and
 * other statements wait here until it ends.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly thread: PGliteThread) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.thread);
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  /** The connection whose transaction holds the database, and the end of that transaction. */
  owner: PGliteConnection | null = null;
  ended: Promise<void> = Promise.resolve();
  private endTransaction: () => void = () => {};
  /** Transactions take turns: each waits for the one before to end. */
  private turn: Promise<void> = Promise.resolve();

  constructor(readonly thread: PGliteThread) {}

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection) {
    const previous = this.turn;
    let release!: () => void;
    this.turn = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.owner = connection as PGliteConnection;
    this.ended = new Promise<void>((resolve) => (this.endTransaction = resolve));
    const end = this.endTransaction;
    this.endTransaction = () => {
      end();
      release();
    };
    (connection as PGliteConnection).epoch = this.thread.epoch;
    try {
      await connection.executeQuery(CompiledQuery.raw('begin'));
    } catch (error) {
      this.release();
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection) {
    try {
      await (connection as PGliteConnection).run('commit', [], true);
    } finally {
      this.release();
    }
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    try {
      // On a thread started again since the begin the transaction is gone already.
      if ((connection as PGliteConnection).epoch === this.thread.epoch)
        await connection.executeQuery(CompiledQuery.raw('rollback'));
    } finally {
      this.release();
    }
  }

  private release() {
    this.owner = null;
    this.endTransaction();
  }

  async releaseConnection() {}

  async destroy() {
    // The owner of the database thread closes it (after a checkpoint), not Kysely.
  }
}

class PGliteConnection implements DatabaseConnection {
  /** The database thread's epoch at this connection's begin (pglite-thread.ts). */
  epoch = -1;

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
    while (driver.owner && driver.owner !== this) await driver.ended;
    if (driver.owner !== this) return driver.thread.run(sql, parameters, commit);
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
