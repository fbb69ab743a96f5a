import type { DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';
import { CompiledQuery, sql, type Kysely } from 'kysely';

/**
 * Counts the writes that pass through this process's database layer. `data` changes after every statement that
 * may have changed what a response shows; `any` also after writes to bookkeeping tables (sessions). Caches tag
 * what they keep with a generation read before their queries ran and drop it once the generation has moved on.
 *
 * Both move only after a write has finished (and, in a transaction, again after its commit or rollback): a
 * read that starts after the move sees the write, and one that started before keeps an old, already stale tag.
 */
export class WriteGeneration {
  data = 0;
  any = 0;
  private readonly listeners: Array<(kind: 'data' | 'bookkeeping') => void> = [];
  /** Reads the counters all processes share (PostgreSQL with the read cache on); null: this process is the only writer. */
  private shared: (() => Promise<{ data: number; any: number }>) | null = null;

  /**
   * Several processes write: every write also moves the database's counters once committed (see TrackingConnection),
   * and `stamp` includes them, so an answer kept by one process is not served after another process's write.
   */
  share(read: () => Promise<{ data: number; any: number }>) {
    this.shared = read;
  }

  get isShared(): boolean {
    return this.shared !== null;
  }

  /**
   * What a cache tags an answer with, read before the answer's queries run; the answer may be served while the stamp
   * is unchanged. With one writer it is this process's count; with several, the shared counters too (one small query).
   */
  async stamp(kind: 'data' | 'any'): Promise<string> {
    const local = this[kind];
    if (!this.shared) return String(local);
    const shared = await this.shared();
    return `${local}:${shared[kind]}`;
  }

  /** Something outside the database changed what responses show (an in-memory cache was cleared). */
  bump(kind: 'data' | 'bookkeeping' = 'data') {
    if (kind === 'data') this.data++;
    this.any++;
    for (const listener of this.listeners) listener(kind);
  }

  onBump(listener: (kind: 'data' | 'bookkeeping') => void) {
    this.listeners.push(listener);
  }
}

/** The counters of migration 020, which every process moves after its writes (PostgreSQL with the read cache on). */
export async function readWriteCounters(db: Kysely<any>): Promise<{ data: number; any: number }> {
  const { rows } = await sql<{ data_writes: string; any_writes: string }>`select (select last_value from om_data_writes) as data_writes, (select last_value from om_any_writes) as any_writes`.execute(db);
  return { data: Number(rows[0]!.data_writes), any: Number(rows[0]!.any_writes) };
}

/** Statements that never change rows. A SELECT is a read: the functions that write (site labour) run only from triggers. */
const READ = /^\s*(select|show|begin|start\s+transaction|commit|end|rollback|savepoint|release|set|reset|analyze|vacuum|checkpoint|listen|unlisten|notify|lock|discard|values)\b/i;
const DML = /^\s*(insert\s+into|update|delete\s+from)\s+"?(\w+)"?/i;
/** Tables no response ever shows: writing them does not make a cached response stale. */
const BOOKKEEPING = new Set(['sessions']);

export type WriteKind = 'none' | 'bookkeeping' | 'data';

/** What a finished statement may have changed; `affected` is its row count when the driver gives one. */
export function classifyStatement(text: string, affected: bigint | undefined): WriteKind {
  const several = /;\s*\S/.test(text);
  if (!several && READ.test(text)) return 'none';
  if (!several && /^\s*with\b/i.test(text) && !/\b(insert|update|delete|merge)\b/i.test(text)) return 'none';
  const dml = several ? null : DML.exec(text);
  if (dml && affected === 0n) return 'none';
  if (dml && BOOKKEEPING.has(dml[2].toLowerCase())) return 'bookkeeping';
  return 'data';
}

/** Wraps a dialect so every statement run through it is counted in `generation`. */
export function trackWrites(dialect: Dialect, generation: WriteGeneration): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new TrackingDriver(dialect.createDriver(), generation),
  };
}

/** Moves the shared counters (migration 020) after a committed write: data writes move both. */
const ADVANCE: Record<Exclude<WriteKind, 'none'>, CompiledQuery> = {
  data: CompiledQuery.raw(`select nextval('om_data_writes'), nextval('om_any_writes')`),
  bookkeeping: CompiledQuery.raw(`select nextval('om_any_writes')`),
};

class TrackingConnection implements DatabaseConnection {
  /** The strongest kind of write since the transaction began (or since the connection was acquired). */
  wrote: WriteKind = 'none';
  inTransaction = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly generation: WriteGeneration,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    let result: QueryResult<R> | undefined;
    try {
      result = await this.inner.executeQuery<R>(compiled);
      return result;
    } finally {
      // A failed statement may still have written (a multi-statement script): count it unless it was a read.
      const kind = classifyStatement(compiled.sql, result ? result.numAffectedRows : undefined);
      if (kind !== 'none') {
        if (kind === 'data' || this.wrote === 'none') this.wrote = kind;
        this.generation.bump(kind);
        // Outside a transaction the write is committed now; inside, the driver advances after the commit.
        if (!this.inTransaction) await this.advanceShared(kind);
      }
    }
  }

  /** Before the write's answer returns, so a read in any process that starts after it sees a new stamp. */
  async advanceShared(kind: WriteKind) {
    if (kind !== 'none' && this.generation.isShared) await this.inner.executeQuery(ADVANCE[kind]);
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiled, chunkSize);
  }
}

class TrackingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly generation: WriteGeneration,
  ) {}

  init() {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new TrackingConnection(await this.inner.acquireConnection(), this.generation);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    (connection as TrackingConnection).wrote = 'none';
    (connection as TrackingConnection).inTransaction = true;
    return this.inner.beginTransaction((connection as TrackingConnection).inner, settings);
  }

  async commitTransaction(connection: DatabaseConnection) {
    const tracking = connection as TrackingConnection;
    const wrote = tracking.wrote;
    try {
      await this.inner.commitTransaction(tracking.inner);
    } finally {
      this.afterTransaction(tracking);
    }
    await tracking.advanceShared(wrote);
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    try {
      await this.inner.rollbackTransaction((connection as TrackingConnection).inner);
    } finally {
      this.afterTransaction(connection as TrackingConnection);
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]) {
    await this.inner.savepoint!((connection as TrackingConnection).inner, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2]) {
    await this.inner.rollbackToSavepoint!((connection as TrackingConnection).inner, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2]) {
    await this.inner.releaseSavepoint!((connection as TrackingConnection).inner, name, compile);
  }

  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection((connection as TrackingConnection).inner);
  }

  destroy() {
    return this.inner.destroy();
  }

  /** On PostgreSQL other connections see a transaction's writes only now: move the generation again. */
  private afterTransaction(connection: TrackingConnection) {
    if (connection.wrote !== 'none') this.generation.bump(connection.wrote);
    connection.wrote = 'none';
    connection.inTransaction = false;
  }
}
