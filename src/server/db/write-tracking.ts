import type { DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { DB } from './schema.generated.js';

/**
 * Counts the writes that pass through this process's database layer. `data` changes after every statement that
 * may have changed what a response shows; `any` also after writes to bookkeeping tables (sessions, idempotency
 * keys); `accounts` only after writes that may have changed a signed-in person (ACCOUNT_TABLES, or a statement whose
 * table is not known).
 * Caches tag what they keep with a generation read before their queries ran and drop it once the generation has
 * moved on.
 *
 * Both move only after a write has finished (and, in a transaction, again after its commit or rollback): a
 * read that starts after the move sees the write, and one that started before keeps an old, already stale tag.
 */
export class WriteGeneration {
  data = 0;
  any = 0;
  accounts = 0;
  /** Writes by table, and writes whose tables are not known (which may have written any): this process's only. */
  private readonly tables = new Map<string, number>();
  private unknownTables = 0;
  private readonly listeners: Array<(kind: 'data' | 'bookkeeping', accounts: boolean) => void> = [];
  /** Reads the counters all processes share (PostgreSQL with the read cache on); null: this process is the only writer. */
  private shared: (() => Promise<SharedCounters>) | null = null;

  /**
   * Several processes write: every write also moves the database's counters once committed (see TrackingConnection),
   * and `stamp` includes them, so an answer kept by one process is not served after another process's write.
   */
  share(read: () => Promise<SharedCounters>) {
    // Those asking while a read is on its way take its answer: read after they asked less than one read ago, as if
    // they had asked a moment earlier (under load, about three reads an answer became one).
    let reading: Promise<SharedCounters> | null = null;
    this.shared = () => {
      reading ??= read().finally(() => {
        reading = null;
      });
      return reading;
    };
  }

  get isShared(): boolean {
    return this.shared !== null;
  }

  /**
   * What a cache tags an answer with, read before the answer's queries run; the answer may be served while the stamp
   * is unchanged. With one writer it is this process's count; with several, the shared counters too (one small query).
   */
  async stamp(kind: keyof SharedCounters): Promise<string> {
    const local = this[kind];
    if (!this.shared) return String(local);
    const shared = await this.shared();
    return `${local}:${shared[kind]}`;
  }

  /**
   * What a cache of rows of one table tags them with: moves with each write to that table, or of unknown tables, by
   * this process. Only for a process that is the only writer (`isShared` false).
   */
  tableStamp(table: string): string {
    return `${this.unknownTables}:${this.tables.get(table) ?? 0}`;
  }

  /**
   * Something changed what responses show: a write to these tables (null: not known, any), or something outside the
   * database (an in-memory cache was cleared).
   */
  bump(kind: 'data' | 'bookkeeping' = 'data', tables: ReadonlySet<string> | null = null) {
    if (kind === 'data') this.data++;
    this.any++;
    if (tables === null) this.unknownTables++;
    else for (const table of tables) this.tables.set(table, (this.tables.get(table) ?? 0) + 1);
    const accounts = writesAccounts(tables);
    if (accounts) this.accounts++;
    for (const listener of this.listeners) listener(kind, accounts);
  }

  onBump(listener: (kind: 'data' | 'bookkeeping', accounts: boolean) => void) {
    this.listeners.push(listener);
  }
}

export interface SharedCounters {
  data: number;
  any: number;
  accounts: number;
}

/** The counters of migrations 020 and 029, which every process moves after its writes (PostgreSQL with the read cache on). */
export async function readWriteCounters(db: Kysely<DB>): Promise<SharedCounters> {
  const { rows } = await sql<{
    data_writes: string;
    any_writes: string;
    account_writes: string;
  }>`select (select last_value from om_data_writes) as data_writes, (select last_value from om_any_writes) as any_writes, (select last_value from om_account_writes) as account_writes`.execute(
    db,
  );
  return {
    data: Number(rows[0]!.data_writes),
    any: Number(rows[0]!.any_writes),
    accounts: Number(rows[0]!.account_writes),
  };
}

/** Statements that never change rows. A SELECT is a read: the functions that write (site labour) run only from triggers. */
const READ =
  /^\s*(select|show|begin|start\s+transaction|commit|end|rollback|savepoint|release|set|reset|analyze|vacuum|checkpoint|listen|unlisten|notify|lock|discard|values)\b/i;
const DML = /^\s*(insert\s+into|update|delete\s+from)\s+"?(\w+)"?/i;
/**
 * An EXPLAIN that only plans (a list's estimated total: list-query.ts totalFromCount). With ANALYZE it runs the
 * statement, which may write.
 */
const PLANS_ONLY = /^\s*explain\b(?![^;]*\banaly[sz]e\b)/i;
/** Tables no response ever shows: writing them does not make a cached response stale. */
const BOOKKEEPING = new Set(['sessions', 'idempotency_keys']);
/**
 * The tables a signed-in person is read from (auth/load-user.ts: the session, the user, the role and its
 * permissions, the teams), and their turf (access/kept-turfs.ts: the regions assigned to them or their teams); their
 * foreign keys cascade only among themselves. Sessions and turfs are kept until one is written.
 */
export const ACCOUNT_TABLES: ReadonlySet<string> = new Set([
  'sessions',
  'users',
  'roles',
  'teams',
  'team_user',
  'regions',
  'region_users',
]);

export type WriteKind = 'none' | 'bookkeeping' | 'data';

/** What a finished statement may have changed; `affected` is its row count when the driver gives one. */
export function classifyStatement(text: string, affected: bigint | undefined): WriteKind {
  const several = /;\s*\S/.test(text);
  if (!several && (READ.test(text) || PLANS_ONLY.test(text))) return 'none';
  if (!several && /^\s*with\b/i.test(text) && !/\b(insert|update|delete|merge)\b/i.test(text)) return 'none';
  const dml = several ? null : DML.exec(text);
  if (dml && affected === 0n) return 'none';
  if (dml && BOOKKEEPING.has(dml[2].toLowerCase())) return 'bookkeeping';
  return 'data';
}

/**
 * The one table a statement that wrote may have written: that of one INSERT, UPDATE or DELETE; null for anything
 * else (a script, a WITH, a TRUNCATE or a schema change may write any table).
 */
export function writtenTable(text: string): string | null {
  const dml = /;\s*\S/.test(text) ? null : DML.exec(text);
  return dml ? dml[2].toLowerCase() : null;
}

/** Whether writes to these tables (null: not known) may have changed a signed-in person. */
export function writesAccounts(tables: ReadonlySet<string> | null): boolean {
  return tables === null || [...tables].some((table) => ACCOUNT_TABLES.has(table));
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

/** Moves the shared counters (migrations 020, 029) after a committed write: data writes move `data` and `any`. */
const advance = (kind: Exclude<WriteKind, 'none'>, accounts: boolean) =>
  CompiledQuery.raw(
    `select ${[kind === 'data' ? `nextval('om_data_writes')` : '', `nextval('om_any_writes')`, accounts ? `nextval('om_account_writes')` : ''].filter(Boolean).join(', ')}`,
  );
const ADVANCE = {
  data: { true: advance('data', true), false: advance('data', false) },
  bookkeeping: { true: advance('bookkeeping', true), false: advance('bookkeeping', false) },
};

class TrackingConnection implements DatabaseConnection {
  /** The strongest kind of write since the transaction began (or since the connection was acquired). */
  wrote: WriteKind = 'none';
  /** The tables those writes wrote (null: not known). */
  written: Set<string> | null = new Set();
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
        const table = writtenTable(compiled.sql);
        const tables = table === null ? null : new Set([table]);
        if (kind === 'data' || this.wrote === 'none') this.wrote = kind;
        if (tables === null) this.written = null;
        else this.written?.add(table!);
        this.generation.bump(kind, tables);
        // Outside a transaction the write is committed now; inside, the driver advances after the commit.
        if (!this.inTransaction) await this.advanceShared(kind, writesAccounts(tables));
      }
    }
  }

  /** Before the write's answer returns, so a read in any process that starts after it sees a new stamp. */
  async advanceShared(kind: WriteKind, accounts: boolean) {
    if (kind !== 'none' && this.generation.isShared) await this.inner.executeQuery(ADVANCE[kind][`${accounts}`]);
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
    (connection as TrackingConnection).written = new Set();
    (connection as TrackingConnection).inTransaction = true;
    return this.inner.beginTransaction((connection as TrackingConnection).inner, settings);
  }

  async commitTransaction(connection: DatabaseConnection) {
    const tracking = connection as TrackingConnection;
    const { wrote, written } = tracking;
    try {
      await this.inner.commitTransaction(tracking.inner);
    } finally {
      this.afterTransaction(tracking);
    }
    await tracking.advanceShared(wrote, writesAccounts(written));
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    try {
      await this.inner.rollbackTransaction((connection as TrackingConnection).inner);
    } finally {
      this.afterTransaction(connection as TrackingConnection);
    }
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['savepoint']>>[2],
  ) {
    await this.inner.savepoint!((connection as TrackingConnection).inner, name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2],
  ) {
    await this.inner.rollbackToSavepoint!((connection as TrackingConnection).inner, name, compile);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2],
  ) {
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
    if (connection.wrote !== 'none') this.generation.bump(connection.wrote, connection.written);
    connection.wrote = 'none';
    connection.written = new Set();
    connection.inTransaction = false;
  }
}

const soleWriters = new WeakMap<object, WriteGeneration>();

/** Marks `db` as written by this process alone (the embedded database): `tableStampOf` then answers for it. */
export function markSoleWriter(db: Kysely<DB>, generation: WriteGeneration) {
  soleWriters.set(db.getExecutor().adapter, generation);
}

/**
 * `WriteGeneration.tableStamp` of the database `db` (or its transaction) belongs to, when this process is its only
 * writer; null when another process may write it too (PostgreSQL), and a copy kept by stamp could be stale.
 */
export function tableStampOf(db: Kysely<DB>, table: string): string | null {
  return soleWriters.get(db.getExecutor().adapter)?.tableStamp(table) ?? null;
}

/**
 * A value read from the database, kept while the stamp it was read under (`WriteGeneration.stamp`, `tableStamp`)
 * stays the same. The stamp is taken before the read: a write meanwhile moves it, and the next call reads again. A
 * read that fails is not kept.
 */
export class KeptByStamp<T> {
  private kept: { stamp: string; value: Promise<T> } | null = null;

  get(stamp: string, read: () => Promise<T>): Promise<T> {
    if (this.kept?.stamp === stamp) return this.kept.value;
    const kept = { stamp, value: read() };
    this.kept = kept;
    kept.value.catch(() => this.kept === kept && (this.kept = null));
    return kept.value;
  }
}
