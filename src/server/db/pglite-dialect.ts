import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

/**
 * A Kysely dialect over PGlite. PGlite is one connection, so the driver hands it out to one caller at a
 * time: a transaction keeps it until commit or rollback, and other queries wait their turn.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

export const WAL_CHECK_EVERY_MS = 2_000;
const WAL_BEFORE_CHECKPOINT = 48 * 1_048_576;

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private releaseCurrent: (() => void) | null = null;
  private readonly connection: PGliteConnection;

  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.releaseCurrent = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('commit'));
    await this.checkpointWhenTheWalIsLarge(connection);
  }

  private walCheckedAt = 0;

  /**
   * PGlite is a single-user backend, which never checkpoints on its own: pg_wal would grow with every write until
   * the server stops (368 MB of WAL beside 120 MB of data after a 30,000-row import). After a commit, at most every
   * few seconds, a checkpoint runs once the WAL since the last one passes WAL_BEFORE_CHECKPOINT; the transaction's
   * connection is still held, so nothing else runs meanwhile.
   */
  private async checkpointWhenTheWalIsLarge(connection: DatabaseConnection) {
    const now = performance.now();
    if (now - this.walCheckedAt < WAL_CHECK_EVERY_MS) return;
    this.walCheckedAt = now;
    const { rows } = await connection.executeQuery<{ bytes: number }>(
      CompiledQuery.raw('select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), (select redo_lsn from pg_control_checkpoint()))::float8 as bytes'),
    );
    if ((rows[0]?.bytes ?? 0) > WAL_BEFORE_CHECKPOINT) await connection.executeQuery(CompiledQuery.raw('checkpoint'));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection() {
    const release = this.releaseCurrent;
    this.releaseCurrent = null;
    release?.();
  }

  async destroy() {
    // The owner of the PGlite instance closes it (after a checkpoint), not Kysely.
  }
}

/**
 * PGlite runs each query on this thread and its promises settle as microtasks, so a long run of queries (an import
 * chunk, a bulk edit) would never let the event loop reach its I/O: static files, websockets and timers would wait
 * for the whole run. After this long without a turn, the next query first gives the event loop one.
 */
const MAX_HOLD_MS = 40;
let heldSince = performance.now();

async function giveTheEventLoopATurn() {
  if (performance.now() - heldSince < MAX_HOLD_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  heldSince = performance.now();
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    await giveTheEventLoopATurn();
    // Without parameters use the simple protocol, as node-postgres does, so a migration may hold several statements.
    const result =
      compiled.parameters.length === 0
        ? ((await this.pglite.exec(compiled.sql, { rowMode: 'object' })).at(-1) ?? { rows: [], affectedRows: 0 })
        : await this.pglite.query<R>(compiled.sql, compiled.parameters as unknown[], { rowMode: 'object' });
    return {
      rows: result.rows as R[],
      numAffectedRows: result.affectedRows != null ? BigInt(result.affectedRows) : undefined,
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on the embedded database; page through results instead.');
  }
}
