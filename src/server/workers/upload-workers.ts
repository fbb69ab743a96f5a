import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { InputLimits } from '../config/config.js';
import { InputLimitError, type LimitDetails, LimitExceeded, toInputLimitError } from '../config/input-limits.js';
import type { TaskName } from './tasks.js';
import type { FromWorker, ToWorker } from './worker-main.js';

/** Chunks sent to a worker and not yet acknowledged, at most: the upload waits (TCP holds the sender) beyond. */
const WINDOW = 8;
/** Idle threads kept for the next upload, and for how long. */
const KEEP_IDLE = 2;
const IDLE_MS = 30_000;

/** The thread's code bundled from the TypeScript sources, once per process (tests, `npm run dev`). */
let sourceBundle: Promise<string> | null = null;

/**
 * Where the thread's code is: the bundle `npm start` runs has it beside main.mjs (build.mjs). From the TypeScript
 * sources it is bundled once, with its packages, into one CommonJS file a thread loads as quickly as the built one.
 */
async function workerFile(): Promise<URL> {
  const here = import.meta.url;
  if (!new URL(here).pathname.endsWith('.ts')) return new URL('./upload-worker.mjs', here);
  sourceBundle ??= bundleSources(fileURLToPath(new URL('./worker-main.ts', here)));
  return pathToFileURL(await sourceBundle);
}

async function bundleSources(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = path.join(os.tmpdir(), `om-upload-worker-${randomUUID()}.cjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
  process.once('exit', () => rmSync(outfile, { force: true }));
  return outfile;
}

interface Thread {
  worker: Worker;
  idleTimer: NodeJS.Timeout | null;
  listener: ((message: FromWorker) => void) | null;
  onExit: ((error: Error) => void) | null;
}

/** One upload's bytes on their way to a worker thread (`UploadWorkers.open`). */
export interface WorkerSession<Result> {
  /** Sends a chunk; waits while the thread is behind. Rejects once the thread found the input over a limit. */
  write(chunk: Uint8Array): Promise<void>;
  /** No more bytes: the task's result, or its InputLimitError. */
  end(): Promise<Result>;
  /** Gives the session up (the upload failed on the request's side). */
  abort(): void;
}

/**
 * The threads that read uploads off the request thread (DESIGN.md 21's spirit for the server's own work): tokenizing a
 * CSV file to check its limits, parsing its first records for a preview, parsing a GeoJSON file. The request thread
 * only moves bytes: from the socket to the file and to the worker. Each upload has a thread to itself while it
 * arrives, with its heap capped (UPLOAD_WORKER_MEMORY_MB): a file that needs more is refused, and only that thread
 * ends. Threads are started on demand (at most HEAVY_WORK_TOTAL uploads run at once: http/heavy-work.ts) and a few
 * are kept for the next uploads.
 */
export class UploadWorkers {
  private readonly idle: Thread[] = [];
  private readonly busy = new Set<Thread>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly memoryMb: () => number) {}

  /** Starts `task` for one upload; the limits' words name `details.subject` (the file) and `details.field`. */
  async open<Result>(
    task: TaskName,
    options: unknown,
    limits: InputLimits,
    details: LimitDetails = {},
  ): Promise<WorkerSession<Result>> {
    if (this.closed) throw new Error('The upload workers are stopped.');
    const thread = await this.take();
    const id = this.nextId++;
    let unacknowledged = 0;
    let failure: Error | null = null;
    let finished = false;
    let wakeWriter: (() => void) | null = null;
    let settle: { resolve(value: Result): void; reject(error: Error): void } | null = null;
    let result: { value: Result } | null = null;

    const wake = () => {
      const resume = wakeWriter;
      wakeWriter = null;
      resume?.();
    };
    const finish = (error: Error | null, value?: Result) => {
      if (finished) return;
      finished = true;
      failure = error;
      thread.listener = null;
      thread.onExit = null;
      this.release(thread, error === null || error instanceof InputLimitError);
      if (error) settle?.reject(error);
      else {
        result = { value: value as Result };
        settle?.resolve(value as Result);
      }
      wake();
    };
    thread.listener = (message) => {
      if (message.id !== id) return;
      if (message.type === 'ack') {
        unacknowledged--;
        if (unacknowledged < WINDOW) wake();
      } else if (message.type === 'done') finish(null, message.result as Result);
      else if (message.type === 'limit')
        finish(toInputLimitError(new LimitExceeded(message.kind, message.line), limits, details));
      else finish(new Error(`Reading the upload failed: ${message.message}`));
    };
    thread.onExit = (error) => {
      const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish(
        outOfMemory
          ? new InputLimitError('workerMemory', limits, { ...details, memoryMb: this.memoryMb() })
          : new Error(`The thread reading the upload stopped: ${error.message}`),
      );
    };
    const post = (message: ToWorker, transfer?: ArrayBuffer[]) => thread.worker.postMessage(message, transfer);
    post({ type: 'start', id, task, options });

    return {
      write: async (chunk) => {
        if (failure) throw failure;
        if (finished) return;
        // A copy the thread may own: the chunk itself may be a view of a pooled buffer.
        const copy = new Uint8Array(chunk);
        unacknowledged++;
        post({ type: 'chunk', id, chunk: copy }, [copy.buffer]);
        while (unacknowledged >= WINDOW && !finished) await new Promise<void>((resolve) => (wakeWriter = resolve));
        if (failure) throw failure;
      },
      end: () =>
        new Promise<Result>((resolve, reject) => {
          if (failure) return reject(failure);
          if (result) return resolve(result.value);
          settle = { resolve, reject };
          post({ type: 'end', id });
        }),
      abort: () => {
        if (finished) return;
        post({ type: 'abort', id });
        finish(new Error('The upload was abandoned.'));
      },
    };
  }

  /** Ends every thread (the app is closing). */
  async close() {
    this.closed = true;
    const threads = [...this.idle, ...this.busy];
    this.idle.length = 0;
    this.busy.clear();
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private async take(): Promise<Thread> {
    const thread = this.idle.pop() ?? this.start(await workerFile());
    if (thread.idleTimer) clearTimeout(thread.idleTimer);
    thread.idleTimer = null;
    thread.worker.ref();
    this.busy.add(thread);
    return thread;
  }

  private start(file: URL): Thread {
    const worker = new Worker(file, {
      resourceLimits: { maxOldGenerationSizeMb: this.memoryMb(), maxYoungGenerationSizeMb: 8 },
      stdout: false,
      stderr: false,
    });
    const thread: Thread = { worker, idleTimer: null, listener: null, onExit: null };
    worker.on('message', (message: FromWorker) => thread.listener?.(message));
    const gone = (error: Error) => {
      this.busy.delete(thread);
      const at = this.idle.indexOf(thread);
      if (at >= 0) this.idle.splice(at, 1);
      thread.onExit?.(error);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`exit code ${code}`)));
    return thread;
  }

  private release(thread: Thread, reusable: boolean) {
    this.busy.delete(thread);
    if (!reusable || this.closed || this.idle.length >= KEEP_IDLE) {
      void thread.worker.terminate();
      return;
    }
    thread.worker.unref();
    thread.idleTimer = setTimeout(() => {
      const at = this.idle.indexOf(thread);
      if (at >= 0) this.idle.splice(at, 1);
      void thread.worker.terminate();
    }, IDLE_MS);
    thread.idleTimer.unref();
    this.idle.push(thread);
  }
}
