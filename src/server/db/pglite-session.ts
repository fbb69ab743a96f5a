import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import { holdsError, messagesOf } from './pglite-answers.js';

/**
 * What a statement gives back, to cross to the server's thread: its rows, or (a prepared statement's answer) the
 * protocol messages as PostgreSQL wrote them, which that thread reads (pglite-answers.ts).
 */
export type StatementResult = { rows: unknown[]; affectedRows?: number } | { raw: Uint8Array };

export const WAL_CHECK_EVERY_MS = 2_000;
const WAL_BEFORE_CHECKPOINT = 48 * 1_048_576;

/** How many statements stay prepared (texts differ with the length of an `in` list: a bound, not a need). */
const PREPARED_STATEMENTS = 500;
/** Characters of a value from which a statement is not prepared (see executeQuery). */
const LARGE_VALUE = 64 * 1024;
/**
 * Statements after which a prepared statement may no longer fit the schema: anything but reads, writes, commits and
 * maintenance (a schema change, a rollback of one). All are dropped then, and prepared again when next run.
 */
const KEEPS_PREPARED =
  /^\s*(select|with|insert|update|delete|begin|commit|savepoint|release|analyze|vacuum|checkpoint)\b/i;
/**
 * Statements that filter on a custom field (`custom ->> 'field'`) or on a person's turf (`in_region_ids && ...`,
 * regions/turf.ts): PostgreSQL's generic plan for them, taken after five runs, made a list filtered on a custom
 * dropdown and sorted by name about 60% slower at 100,000 sites (p95 21 ms against 13 ms planned for the value) and
 * a turf's list four times slower (p95 23.6 ms against about 12 ms; docs/benchmarks.md "Load" and "Turf"), and a
 * dropdown's choice index serves its filter only in a plan made for the value (schemas/indexes.ts choiceIndexes), so
 * they are planned for their values each time.
 */
const PLANNED_EACH_TIME = /"custom"\s*->>|"in_region_ids"\s*&&/;
/** PostgreSQL's refusal to run a prepared statement whose columns changed under it (`select *` after a new column). */
const CHANGED_UNDER_IT = '0A000';

const joined = (parts: Uint8Array[]) => {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
};

/** The error as PGlite's `query` gives it: with the statement and its values. */
function withQuery(error: unknown, text: string, values: readonly unknown[]) {
  if (error && typeof error === 'object') Object.assign(error, { query: text, params: values });
  return error;
}

interface Prepared {
  name: string;
  /** Its parameters' types, which say how to write each value (PGlite's serializers). */
  types: number[];
}

/**
 * The one connection to PGlite, on the database's own thread (pglite-worker.ts): runs the statements the server's
 * thread sends, one at a time in the order they came.
 */
export class PGliteSession {
  /** The statements prepared on the database, by text, most recently used last. */
  private readonly prepared = new Map<string, Prepared>();
  private named = 0;
  private walCheckedAt = 0;

  constructor(private readonly pglite: PGlite) {}

  async execute(text: string, parameters: readonly unknown[]): Promise<StatementResult> {
    if (parameters.length === 0) {
      // Without parameters use the simple protocol, as node-postgres does, so a migration may hold several statements.
      const result = (await this.pglite.exec(text, { rowMode: 'object' })).at(-1) ?? { rows: [], affectedRows: 0 };
      if (!KEEPS_PREPARED.test(text) || /;\s*\S/.test(text)) await this.dropPrepared();
      return { rows: result.rows, affectedRows: result.affectedRows };
    }
    // A statement carrying a large value (an import's batch of rows as JSON) goes through PGlite's own query: the
    // exchange built here copies the value once more, which took an import's peak from about 305 to 316 MB, and
    // its calls into the WebAssembly are nothing beside such a statement's work.
    const large = parameters.some((value) => typeof value === 'string' && value.length > LARGE_VALUE);
    if (!large) return { raw: await this.run(text, parameters) };
    const result = await this.pglite.query(text, parameters as unknown[], { rowMode: 'object' });
    return { rows: result.rows, affectedRows: result.affectedRows };
  }

  /**
   * PGlite is a single-user backend, which never checkpoints on its own: pg_wal would grow with every write until
   * the server stops (368 MB of WAL beside 120 MB of data after a 30,000-row import). After a commit, at most every
   * few seconds, a checkpoint runs once the WAL since the last one passes WAL_BEFORE_CHECKPOINT; it runs before the
   * next statement, so nothing else runs meanwhile.
   */
  async checkpointWhenTheWalIsLarge() {
    const now = performance.now();
    if (now - this.walCheckedAt < WAL_CHECK_EVERY_MS) return;
    this.walCheckedAt = now;
    const [{ rows }] = await this.pglite.exec(
      'select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), (select redo_lsn from pg_control_checkpoint()))::float8 as bytes',
    );
    if (((rows[0] as { bytes?: number } | undefined)?.bytes ?? 0) > WAL_BEFORE_CHECKPOINT)
      await this.execute('checkpoint', []);
  }

  /**
   * A statement with parameters, prepared once per text and then run in one exchange with the database: PGlite's
   * `query` makes six calls into the WebAssembly per statement (parse, describe, sync, bind, describe, execute,
   * sync), and PostgreSQL parses and plans it again each time; a prepared statement reuses its parse, and its plan
   * once PostgreSQL finds a generic one as good (docs/benchmarks.md "Load").
   */
  private async run(text: string, values: readonly unknown[]): Promise<Uint8Array> {
    return this.pglite.runExclusive(async () => {
      try {
        return await this.runPrepared(text, values);
      } catch (error) {
        // A column added or dropped by another connection's schema change (none on the embedded database, which
        // has one): prepared again, once, unless a transaction holds it (then it has failed).
        if ((error as { code?: string }).code !== CHANGED_UNDER_IT || this.pglite.isInTransaction())
          throw withQuery(error, text, values);
        this.prepared.delete(text);
        return await this.runPrepared(text, values).catch((again) => Promise.reject(withQuery(again, text, values)));
      }
    });
  }

  private async runPrepared(text: string, values: readonly unknown[]) {
    const statement = await this.statementFor(text);
    const serializers = this.pglite.serializers;
    const written = values.map((value, i) =>
      value === null || value === undefined ? null : (serializers[statement.types[i]]?.(value) ?? String(value)),
    );
    const { serialize } = protocol;
    // A filter on a custom field is planned for its value each time, in the same one exchange: parsed again as the
    // unnamed statement, with the types its prepared twin gave.
    const planned = PLANNED_EACH_TIME.test(text);
    const parsed = planned ? [serialize.parse({ name: '', text, types: statement.types })] : [];
    // The answer is kept as written (PGlite hands out a view of its buffer, copied here) and not read on this thread.
    const chunks: Uint8Array[] = [];
    await this.pglite.execProtocolRawStream(
      joined([
        ...parsed,
        serialize.bind({ statement: planned ? '' : statement.name, values: written }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      {
        syncToFs: false,
        onRawData: (chunk) => {
          chunks.push(chunk.slice());
        },
      },
    );
    await this.pglite.syncToFs();
    const raw = chunks.length === 1 ? chunks[0] : joined(chunks);
    if (holdsError(raw)) {
      // As PGlite's own exchanges throw it: the first error, with PostgreSQL's fields.
      throw messagesOf(raw).find((message) => message instanceof protocol.messages.DatabaseError);
    }
    return raw;
  }

  private async statementFor(text: string): Promise<Prepared> {
    const known = this.prepared.get(text);
    if (known) {
      this.prepared.delete(text);
      this.prepared.set(text, known);
      return known;
    }
    const { serialize } = protocol;
    const name = `om_${++this.named}`;
    const oldest = this.prepared.size >= PREPARED_STATEMENTS ? this.prepared.entries().next().value : undefined;
    const close = oldest ? [serialize.close({ type: 'S', name: oldest[1].name })] : [];
    if (oldest) this.prepared.delete(oldest[0]);
    const messages = await this.pglite.execProtocolStream(
      joined([...close, serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const statement = { name, types: parse.parseDescribeStatementResults(messages) };
    this.prepared.set(text, statement);
    return statement;
  }

  private async dropPrepared() {
    if (this.prepared.size === 0) return;
    this.prepared.clear();
    await this.pglite.exec('deallocate all');
  }
}
