import { AsyncLocalStorage } from 'node:async_hooks';
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
 * statements that came after it was asked for wait here until it ends. A hold (`hold`) has it so across several
 * statements and transactions.
 */
export class PGliteDialect implements Dialect {
  private readonly driver: PGliteDriver;
  constructor(thread: PGliteThread) {
    this.driver = new PGliteDriver(thread);
  }
  /**
   * Runs `work` with the database to itself, as a transaction has it but across its statements and transactions,
   * until it ends or `maxMs` passes (then the statements waiting run, and `work` goes on taking turns with them): a
   * background job's statements then meet people's requests once, not between each of theirs.
   */
  hold<T>(work: () => Promise<T>, maxMs: number): Promise<T> {
    return this.driver.hold(work, maxMs);
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

/**
 * A hold on the database (PGliteDriver.hold): taken in turn as a transaction is, let go when its work ends or its
 * time is up, never while a transaction of its work is open.
 */
class Hold {
  /** Transactions of its work open now. */
  open = 0;
  private timeUp = false;
  private timer: NodeJS.Timeout | undefined;
  /** Gives the database up; null once given up (or before it was had). */
  private end: (() => void) | null = null;
  /** Waiting for its open transaction to end. */
  private waiting: Array<() => void> = [];

  constructor(
    private readonly driver: PGliteDriver,
    private readonly maxMs: number,
  ) {}

  /** Whether it has the database now. */
  get held() {
    return this.end !== null;
  }

  async take() {
    this.end = await this.driver.takeTurn(this);
    this.timer = setTimeout(() => {
      this.timeUp = true;
      this.letGo();
    }, this.maxMs);
  }

  /** Lets the database go now, or when its open transaction ends. */
  letGo() {
    if (!this.end || this.open > 0) return;
    clearTimeout(this.timer);
    this.end();
    this.end = null;
  }

  transactionEnded() {
    this.open--;
    if (this.open > 0) return;
    if (this.timeUp) this.letGo();
    for (const resume of this.waiting.splice(0)) resume();
  }

  /**
   * Resolves once no transaction of its work is open: its work's other statements (a listener's read) wait for it,
   * as they would outside a hold, rather than run inside it.
   */
  async free() {
    while (this.open > 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
}

class PGliteDriver implements Driver {
  /** The connection whose transaction has the database, or the hold that has it. */
  owner: PGliteConnection | Hold | null = null;
  /** The hold the running code's work is in, if any. */
  private readonly holding = new AsyncLocalStorage<Hold>();
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

  /**
   * Waits for the transactions and holds asked for before, then gives the database to `owner`; the function it
   * returns gives it up.
   */
  async takeTurn(owner: PGliteConnection | Hold): Promise<() => void> {
    const previous = this.lastEnd;
    this.queued++;
    let end!: () => void;
    this.lastEnd = new Promise<void>((resolve) => {
      end = () => {
        this.owner = null;
        this.queued--;
        resolve();
      };
    });
    await previous;
    this.owner = owner;
    return end;
  }

  /** The hold the running code is in, while it has the database. */
  heldHere(): Hold | undefined {
    const hold = this.holding.getStore();
    return hold?.held && this.owner === hold ? hold : undefined;
  }

  async hold<T>(work: () => Promise<T>, maxMs: number): Promise<T> {
    if (this.holding.getStore()) return work();
    const hold = new Hold(this, maxMs);
    await hold.take();
    try {
      return await this.holding.run(hold, work);
    } finally {
      hold.letGo();
    }
  }

  async beginTransaction(connection: DatabaseConnection) {
    const own = connection as PGliteConnection;
    await this.heldHere()?.free();
    const hold = this.heldHere();
    if (hold) {
      // A transaction of the hold's work: the database is the hold's already.
      hold.open++;
      own.hold = hold;
      own.endTransaction = () => {
        own.hold = null;
        hold.transactionEnded();
      };
    } else own.endTransaction = await this.takeTurn(own);
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
  /** The hold whose work this connection's transaction is part of. */
  hold: Hold | null = null;
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
    if (driver.owner !== this && !this.hold) {
      await driver.heldHere()?.free();
      // A statement of a hold's work, outside its transactions, runs at once; any other waits its turn.
      if (driver.heldHere()) return driver.thread.runWithin(sql, parameters, commit);
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
