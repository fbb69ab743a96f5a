import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { InputLimits } from '../config/config.js';
import { InputLimitError, type LimitDetails, LimitExceeded, toInputLimitError } from '../config/input-limits.js';
import { OWN_THREAD, type TaskName } from './tasks.js';
import { threadBundle } from './thread-bundle.js';
import type { FromWorker, ToWorker } from './worker-main.js';

/** Chunks sent to a thread and not yet acknowledged, at most: the upload waits (TCP holds the sender) beyond. */
const WINDOW = 8;
/** The long-lived threads that share the light tasks: one per core, two at most. */
const SHARED_THREADS = Math.max(1, Math.min(2, os.availableParallelism()));

/** Where the thread's code is: the bundle `npm start` runs has it beside main.mjs (build.mjs), else bundled now. */
function workerFile(): Promise<URL> {
  const here = import.meta.url;
  if (!new URL(here).pathname.endsWith('.ts')) return Promise.resolve(new URL('./upload-worker.mjs', here));
  return threadBundle({
    name: 'upload-worker',
    entry: fileURLToPath(new URL('./worker-main.ts', here)),
    format: 'cjs',
  });
}

interface Thread {
  worker: Worker;
  /** The uploads it reads, by session id: what to do with their messages, and if the thread ends. */
  sessions: Map<number, { message(message: FromWorker): void; gone(error: Error): void }>;
  own: boolean;
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
 * The threads that read uploads off the request thread: tokenizing a CSV file to check its limits and parsing its
 * first records for a preview (on two long-lived threads shared by every upload, started with the server), parsing a
 * GeoJSON file (on a thread of its own). The request thread only moves bytes: from the socket to the file and to the
 * thread. Each thread's heap is capped (UPLOAD_WORKER_MEMORY_MB): a file that needs more is refused, and only that
 * thread ends (a shared one is started again for the next upload).
 */
export class UploadWorkers {
  private readonly shared: Thread[] = [];
  private readonly own = new Set<Thread>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly memoryMb: () => number) {}

  /** Starts the shared threads now (the server does, at start), so the first uploads do not wait for them. */
  async start() {
    const file = await workerFile();
    while (!this.closed && this.shared.length < SHARED_THREADS) this.shared.push(this.spawn(file, false));
  }

  /** Starts `task` for one upload; the limits' words name `details.subject` (the file) and `details.field`. */
  async open<Result>(
    task: TaskName,
    options: unknown,
    limits: InputLimits,
    details: LimitDetails = {},
  ): Promise<WorkerSession<Result>> {
    if (this.closed) throw new Error('The upload workers are stopped.');
    const thread = OWN_THREAD[task] ? this.spawn(await workerFile(), true) : await this.leastBusy();
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
      thread.sessions.delete(id);
      if (thread.own) this.end(thread);
      if (error) settle?.reject(error);
      else {
        result = { value: value as Result };
        settle?.resolve(value as Result);
      }
      wake();
    };
    thread.sessions.set(id, {
      message: (message) => {
        if (message.type === 'ack') {
          unacknowledged--;
          if (unacknowledged < WINDOW) wake();
        } else if (message.type === 'done') finish(null, message.result as Result);
        else if (message.type === 'limit')
          finish(toInputLimitError(new LimitExceeded(message.kind, message.line), limits, details));
        else finish(new Error(`Reading the upload failed: ${message.message}`));
      },
      gone: (error) => {
        const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
        finish(
          outOfMemory
            ? new InputLimitError('workerMemory', limits, { ...details, memoryMb: this.memoryMb() })
            : new Error(`The thread reading the upload stopped: ${error.message}`),
        );
      },
    });
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
    const threads = [...this.shared, ...this.own];
    this.shared.length = 0;
    this.own.clear();
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private async leastBusy(): Promise<Thread> {
    if (this.shared.length < SHARED_THREADS) await this.start();
    return this.shared.reduce((best, thread) => (thread.sessions.size < best.sessions.size ? thread : best));
  }

  private spawn(file: URL, own: boolean): Thread {
    const worker = new Worker(file, {
      resourceLimits: { maxOldGenerationSizeMb: this.memoryMb(), maxYoungGenerationSizeMb: 8 },
      stdout: false,
      stderr: false,
    });
    // The threads never keep the process alive: an upload under way has its request, which does.
    worker.unref();
    const thread: Thread = { worker, sessions: new Map(), own };
    if (own) this.own.add(thread);
    worker.on('message', (message: FromWorker) => thread.sessions.get(message.id)?.message(message));
    const gone = (error: Error) => {
      const at = this.shared.indexOf(thread);
      if (at >= 0) this.shared.splice(at, 1);
      this.own.delete(thread);
      for (const session of [...thread.sessions.values()]) session.gone(error);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`exit code ${code}`)));
    return thread;
  }

  private end(thread: Thread) {
    this.own.delete(thread);
    void thread.worker.terminate();
  }
}
