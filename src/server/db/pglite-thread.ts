/**
 * The server's side of the embedded database's thread (pglite-worker.ts): starts it, sends it statements and hands
 * back their answers, and starts it again when it stops unexpectedly (PGlite recovers the data folder from its WAL,
 * as after a crash). Statements sent meanwhile wait for the new thread; those in flight fail.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { threadBundle } from '../workers/thread-bundle.js';
import { answerParsers, type Parsers, rowsOf } from './pglite-answers.js';
import type { DatabaseThreadData, FromDatabase, ToDatabase } from './pglite-worker.js';

/**
 * The database thread's JavaScript heap: PGlite's own objects, the rows of the statement at hand and an import's
 * batch of rows as JSON. The database's memory (WebAssembly) is outside it.
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 8 };
/** Restarts within this long count as one run of failures; after MAX_RESTARTS of them the process exits. */
const RESTART_WINDOW_MS = 60_000;
const MAX_RESTARTS = 3;
/**
 * How long this thread waits, blocked, for the answer to a statement inside a transaction before it waits as usual
 * (see `runWithin`).
 */
const TRANSACTION_WAIT_MS = 10;
/** Characters of a value from which a statement is expected to take long (an import's batch of rows as JSON). */
const LARGE_VALUE = 64 * 1024;

export interface StatementAnswer {
  rows: unknown[];
  affectedRows?: number;
}

/**
 * Where the thread's code is: the bundle `npm start` runs has it beside itself; from the sources (tests, `npm run dev`)
 * it is bundled once per process (workers/thread-bundle.ts), its packages left in node_modules (PGlite reads its own
 * files from beside itself).
 */
function threadScript(): Promise<URL> {
  if (!import.meta.url.endsWith('.ts')) return Promise.resolve(new URL('./pglite-worker.mjs', import.meta.url));
  const entry = fileURLToPath(new URL('./pglite-worker.ts', import.meta.url));
  return threadBundle({ name: 'pglite-worker', entry, format: 'esm', externalPackages: true });
}

export class DatabaseThreadStoppedError extends Error {}

let compiled: Promise<WebAssembly.Module> | undefined;
/**
 * PostgreSQL's WebAssembly, compiled once per process and handed to each database thread (a module crosses threads
 * without a copy of its code): a thread started again, or each app of a test run, does not compile it anew (about
 * 0.8 s of CPU each).
 */
function postgresModule(): Promise<WebAssembly.Module> {
  compiled ??= readFile(createRequire(import.meta.url).resolve('@electric-sql/pglite/pglite.wasm')).then((bytes) =>
    WebAssembly.compile(bytes),
  );
  return compiled;
}

interface Waiting {
  resolve: (answer: StatementAnswer) => void;
  reject: (error: Error) => void;
  settled: boolean;
}

export class PGliteThread {
  private worker!: Worker;
  private port!: MessagePort;
  /** Moved by the database thread after each answer it posts (see `runWithin`). */
  private answered!: Int32Array;
  private ready!: Promise<void>;
  private readonly pending = new Map<number, Waiting>();
  private nextId = 0;
  /** How this thread reads the answers the database's thread hands over as written (pglite-answers.ts). */
  private parsers: Parsers = answerParsers([]);
  private closing = false;
  private restartsAt: number[] = [];
  /** Moves each time the thread starts again: a transaction begun on an earlier thread is gone. */
  epoch = 0;
  /** When the last statement was sent (performance.now()). */
  lastSentAt = 0;
  /** Told at each unexpected stop, before the thread starts again (/api/ready answers 503 until it has). */
  onStop: (error: Error) => void = () => {};
  /** Told once the thread stopped unexpectedly runs again (the read caches drop what they kept). */
  onRestart: (error: Error) => void = () => {};

  private constructor(
    private readonly folder: string,
    private readonly module: WebAssembly.Module,
    private readonly script: URL,
  ) {}

  static async start(folder: string): Promise<PGliteThread> {
    const [module, script] = await Promise.all([postgresModule(), threadScript()]);
    const thread = new PGliteThread(folder, module, script);
    thread.spawn();
    await thread.ready;
    return thread;
  }

  /** Runs one statement; statements run in the order they were sent. */
  async run(sql: string, parameters: readonly unknown[], commit = false): Promise<StatementAnswer> {
    await this.ready;
    if (this.closing) throw new DatabaseThreadStoppedError('The embedded database is closed.');
    return this.send({ id: ++this.nextId, sql, parameters, commit });
  }

  /**
   * Runs a statement of the transaction that holds the database. While a transaction is open nothing else runs
   * there, so each of its statements waits for this thread to pick up the answer to the one before: under load that
   * is a whole turn of the event loop (every request's work in hand), and the transactions queued behind it wait
   * that long too. So this thread waits for the answer blocked, briefly (TRANSACTION_WAIT_MS: most statements of a
   * write take under a millisecond), then as usual; a statement carrying a large value is not waited for blocked.
   */
  async runWithin(sql: string, parameters: readonly unknown[], commit = false): Promise<StatementAnswer> {
    await this.ready;
    if (this.closing) throw new DatabaseThreadStoppedError('The embedded database is closed.');
    const id = ++this.nextId;
    const answer = this.send({ id, sql, parameters, commit });
    const large = parameters.some((value) => typeof value === 'string' && value.length > LARGE_VALUE);
    if (!large) this.receiveUntil(id, performance.now() + TRANSACTION_WAIT_MS);
    return answer;
  }

  /** Takes the answers already posted, in order, blocked until the one of `id` is among them or `deadline` passes. */
  private receiveUntil(id: number, deadline: number) {
    for (;;) {
      const seen = Atomics.load(this.answered, 0);
      for (let next = receiveMessageOnPort(this.port); next; next = receiveMessageOnPort(this.port))
        this.deliver(next.message as FromDatabase);
      if (this.pending.get(id)?.settled !== false) return;
      const left = deadline - performance.now();
      if (left <= 0 || Atomics.wait(this.answered, 0, seen, left) === 'timed-out') return;
    }
  }

  /** Lets everything sent finish, checkpoints, closes PGlite and ends the thread. Safe to call twice. */
  async close() {
    if (this.closing) return;
    this.closing = true;
    try {
      await this.ready;
      await this.send({ id: ++this.nextId, close: true });
    } catch {
      /* a thread that stopped has nothing left to flush */
    } finally {
      await this.worker.terminate();
      this.port.close();
      for (const waiting of this.pending.values())
        waiting.reject(new DatabaseThreadStoppedError('The embedded database is closed.'));
      this.pending.clear();
    }
  }

  /** Ends the thread at once, as a crash would (tests). */
  async kill() {
    await this.worker.terminate();
  }

  /** Statements sent and not yet answered. */
  get waiting() {
    return this.pending.size;
  }

  private send(message: ToDatabase): Promise<StatementAnswer> {
    this.lastSentAt = performance.now();
    return new Promise((resolve, reject) => {
      this.pending.set(message.id, { resolve, reject, settled: false });
      this.port.postMessage(message);
    });
  }

  private deliver(message: FromDatabase) {
    if (!('id' in message)) return;
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    waiting.settled = true;
    if ('error' in message) waiting.reject(asError(message.error));
    else if (!('raw' in message.result)) waiting.resolve(message.result);
    else {
      try {
        waiting.resolve(rowsOf(message.result.raw, this.parsers));
      } catch (error) {
        waiting.reject(error as Error);
      }
    }
  }

  private spawn() {
    const channel = new MessageChannel();
    const answered = new Int32Array(new SharedArrayBuffer(4));
    const workerData: DatabaseThreadData = { folder: this.folder, module: this.module, port: channel.port2, answered };
    const worker = new Worker(this.script, {
      workerData,
      transferList: [channel.port2],
      resourceLimits: RESOURCE_LIMITS,
    });
    this.port?.close();
    this.worker = worker;
    this.port = channel.port1;
    this.answered = answered;
    const port = channel.port1;
    let opened = false;
    this.ready = new Promise<void>((resolve, reject) => {
      const started = (message: FromDatabase) => {
        if ('ready' in message) {
          opened = true;
          this.parsers = answerParsers(message.arrays);
          resolve();
        } else if ('failed' in message) {
          reject(asError(message.failed));
          void worker.terminate();
        } else return;
        port.off('message', started);
      };
      port.on('message', started);
      worker.once('exit', (code) => reject(new Error(`The embedded database stopped while opening (exit ${code}).`)));
      worker.once('error', reject);
    });
    // An unhandled rejection of `ready` is the starter's to see (start, run); this one only keeps it handled.
    this.ready.catch(() => {});
    port.on('message', (message: FromDatabase) => this.deliver(message));
    let failure: Error | undefined;
    worker.on('error', (error) => (failure = error));
    worker.once('exit', (code) => {
      // A thread that never opened the database failed to start: its starter hears of it (ready rejects).
      if (this.worker !== worker || !opened) return;
      const stopped = new DatabaseThreadStoppedError(
        `The embedded database stopped unexpectedly (${failure?.message ?? `exit ${code}`}); it is starting again.`,
      );
      for (const waiting of this.pending.values()) waiting.reject(stopped);
      this.pending.clear();
      if (!this.closing) this.restart(stopped);
    });
  }

  private restart(reason: Error) {
    const now = Date.now();
    this.restartsAt = [...this.restartsAt.filter((at) => now - at < RESTART_WINDOW_MS), now];
    console.error(`${reason.message} (restart ${this.restartsAt.length} within a minute)`);
    if (this.restartsAt.length > MAX_RESTARTS) {
      // Something keeps it from running: leave it to the supervisor (npm start), which starts the whole server again.
      console.error('The embedded database keeps stopping: the server exits.');
      process.exit(1);
    }
    this.epoch++;
    this.onStop(reason);
    this.spawn();
    this.ready.then(
      () => this.onRestart(reason),
      (error) => {
        console.error(`The embedded database could not start again: ${error.message}. The server exits.`);
        process.exit(1);
      },
    );
  }
}

/** An error from the database thread, with PostgreSQL's fields, and this thread's stack where it was awaited. */
function asError(data: Record<string, unknown>): Error {
  const error = new Error(String(data.message));
  for (const [key, value] of Object.entries(data))
    if (key !== 'stack' && key !== 'message') Object.assign(error, { [key]: value });
  return error;
}
