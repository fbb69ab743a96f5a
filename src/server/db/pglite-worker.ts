/**
 * The embedded database's own thread (node:worker_threads): PGlite's WebAssembly PostgreSQL runs here, so the
 * server's thread keeps serving HTTP and JavaScript while a statement runs, and the two cores both work. The server's
 * thread (pglite-thread.ts) sends statements; they run one at a time in the order they came, on PGlite's one
 * connection (pglite-session.ts).
 */
import { type MessagePort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { ARRAY_TYPES_QUERY, type ArrayTypes, OWN_PARSERS } from './pglite-answers.js';
import { PGliteSession, type StatementResult } from './pglite-session.js';

/** What the server's thread sends: a statement (`commit` marks a transaction's end), or close. */
export type ToDatabase =
  | { id: number; sql: string; parameters: readonly unknown[]; commit?: boolean }
  | { id: number; close: true };

/** What this thread answers. `error` carries PostgreSQL's fields (code, detail, constraint...). */
export type FromDatabase =
  | { ready: true; arrays: ArrayTypes }
  | { failed: Record<string, unknown> }
  | { id: number; result: StatementResult }
  | { id: number; error: Record<string, unknown> };

export interface DatabaseThreadData {
  folder: string;
  /** PostgreSQL's WebAssembly, compiled once per process (pglite-thread.ts). */
  module: WebAssembly.Module;
  /** Statements come in and answers go out here. */
  port: MessagePort;
  /** Moved after each answer posted, so the server's thread can wait for one blocked (pglite-thread.ts runWithin). */
  answered: Int32Array;
}

/** An error as plain data: its message, name, stack and own fields (PostgreSQL's code, detail, query...). */
export function errorAsData(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const data: Record<string, unknown> = { ...error, message: error.message, name: error.name, stack: error.stack };
  for (const [key, value] of Object.entries(data))
    if (typeof value === 'function' || (typeof value === 'object' && value !== null && key !== 'params'))
      delete data[key];
  return data;
}

/**
 * Errors after which PGlite cannot go on (its WebAssembly aborted, or it closed): this thread ends, and the server's
 * thread starts a new one on the same data folder, which recovers from its WAL as after a crash.
 */
const fatal = (error: unknown) =>
  error instanceof WebAssembly.RuntimeError || /Aborted\(|PGlite is closed/.test(String((error as Error)?.message));

async function main() {
  const { folder, module, port, answered } = workerData as DatabaseThreadData;
  const post = (message: FromDatabase) => {
    // A raw answer's bytes are moved to the server's thread, not copied.
    const raw = 'result' in message && 'raw' in message.result ? message.result.raw : undefined;
    port.postMessage(message, raw ? [raw.buffer as ArrayBuffer] : []);
    Atomics.add(answered, 0, 1);
    Atomics.notify(answered, 0);
  };
  let pglite: PGlite;
  try {
    // pg_trgm: trigram indexes make list searches (ILIKE '%text%') fast on large tables (docs/records.md).
    pglite = await PGlite.create(folder, {
      parsers: OWN_PARSERS,
      extensions: { pg_trgm },
      pgliteWasmModule: module,
      // The buffer cache lives in WebAssembly memory that never shrinks, and the OS caches the files anyway: 16 MB
      // keeps the idle server small with no loss in the 100,000-site benchmarks (docs/architecture.md, "Start-up").
      // The session checkpoints when the WAL passes 48 MB (pglite-session.ts); a checkpoint keeps at most
      // max_wal_size of old segments for reuse (the default 1 GB would keep pg_wal at three times the data).
      postgresqlconf: ['shared_buffers = 16MB', 'max_wal_size = 64MB', 'min_wal_size = 32MB'],
    });
  } catch (error) {
    post({ failed: errorAsData(error) });
    return;
  }
  const session = new PGliteSession(pglite);
  // The server's thread reads prepared statements' answers with the same parsers (pglite-answers.ts).
  let arrays: ArrayTypes;
  try {
    arrays = (await pglite.query<ArrayTypes[number]>(ARRAY_TYPES_QUERY)).rows;
  } catch (error) {
    post({ failed: errorAsData(error) });
    return;
  }
  let turn: Promise<void> = Promise.resolve();

  async function handle(message: ToDatabase) {
    if ('close' in message) {
      // Everything sent before has run (one turn at a time): flush it all to the data folder, then end.
      await pglite.exec('checkpoint').catch(() => {});
      await pglite.close();
      post({ id: message.id, result: { rows: [] } });
      port.close();
      return;
    }
    try {
      const result = await session.execute(message.sql, message.parameters);
      if (message.commit) await session.checkpointWhenTheWalIsLarge();
      post({ id: message.id, result });
    } catch (error) {
      post({ id: message.id, error: errorAsData(error) });
      if (fatal(error)) process.exit(1);
    }
  }

  port.on('message', (message: ToDatabase) => {
    turn = turn.then(() => handle(message));
  });
  post({ ready: true, arrays });
}

void main();
