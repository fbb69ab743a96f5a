import type { Kysely } from 'kysely';
import { claimJob, enqueueJob, enqueueUnlessPending, failJob, finishJob, heartbeat, requeueAbandoned, WORKER_ID, type Job } from './queue.js';

export interface JobContext {
  job: Job;
  /** Keeps the claim alive and stores progress (call at least every minute on long jobs). */
  heartbeat(progress?: unknown): Promise<void>;
  /** True once the worker is stopping: a handler should stop at its next checkpoint and throw `JobInterrupted`. */
  readonly stopping: boolean;
}

/** Thrown by a handler that stopped at a checkpoint because the worker is stopping: the job is requeued as is. */
export class JobInterrupted extends Error {
  constructor() {
    super('The worker stopped; the job resumes from its last checkpoint.');
  }
}

/** Thrown by a test hook: the worker stops and leaves the job `running`, as a process killed at that instant would. */
export class SimulatedCrash extends Error {}

/** Thrown for failures that retrying cannot fix (missing file, deleted import): the job is failed at once. */
export class PermanentJobError extends Error {}

export type JobHandler = (payload: any, ctx: JobContext) => Promise<void>;

export interface WorkerOptions {
  db: Kysely<any>;
  /** PGlite: one process owns the database, so at start every `running` job was abandoned. */
  singleProcess?: boolean;
  pollMs?: number;
  log?: { info(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  workerId?: string;
}

/**
 * The in-process job worker (DESIGN.md 8): polls the `jobs` table, claims one job at a time with
 * `for update skip locked`, runs its handler, marks it done, or requeues it with back-off on error. Handlers
 * checkpoint their progress in the database so a restarted worker resumes rather than repeats.
 */
export class JobWorker {
  private readonly handlers = new Map<string, JobHandler>();
  /** Types of the jobs that queue their own next run (`every`). */
  private readonly periodic = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private wakeRequested = false;
  /** Set by stop(): handlers stop at their next checkpoint. (Not set before start: tests drain without starting.) */
  private stopRequested = false;
  readonly workerId: string;

  constructor(private readonly options: WorkerOptions) {
    this.workerId = options.workerId ?? WORKER_ID;
  }

  register(type: string, handler: JobHandler) {
    this.handlers.set(type, handler);
    return this;
  }

  /**
   * A job of `type` every `everyMs`: queued when the worker starts unless one is already queued or running, and
   * queued again for `everyMs` later each time it ends well (a failed run is retried as any job is).
   */
  every(type: string, everyMs: number, handler: JobHandler) {
    this.periodic.add(type);
    return this.register(type, async (payload, ctx) => {
      await handler(payload, ctx);
      await enqueueJob(this.options.db, type, {}, { runAt: new Date(Date.now() + everyMs) });
    });
  }

  private async queuePeriodic() {
    for (const type of this.periodic) await enqueueUnlessPending(this.options.db, type);
  }

  async start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopRequested = false;
    const requeued = await requeueAbandoned(this.options.db, { everyRunning: this.options.singleProcess, workerId: this.workerId });
    if (requeued) this.options.log?.info({ requeued }, 'Requeued jobs left running by a stopped process');
    await this.queuePeriodic();
    this.schedule(0);
  }

  /** Look for work now (after enqueueing a job in this process). */
  wake() {
    if (this.stopped) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    this.schedule(0);
  }

  /** Stops claiming jobs; waits for the job in hand to reach a checkpoint. */
  async stop() {
    this.stopped = true;
    this.stopRequested = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  /** Runs due jobs until none is left (tests and the bench drive the queue with this). */
  async drain(): Promise<number> {
    let count = 0;
    while (await this.runOne()) count++;
    return count;
  }

  get isStopping() {
    return this.stopRequested;
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.loop().finally(() => {
        this.running = null;
      });
    }, ms);
    this.timer.unref?.();
  }

  private async loop() {
    try {
      while (!this.stopped && (await this.runOne())) {
        /* keep going while there is work */
      }
    } catch (error) {
      this.options.log?.error({ err: error }, 'Job worker error');
    }
    const again = this.wakeRequested;
    this.wakeRequested = false;
    this.schedule(again ? 0 : (this.options.pollMs ?? 1_000));
  }

  /** Claims and runs one job; false when none was due. */
  async runOne(): Promise<boolean> {
    const { db } = this.options;
    const job = await claimJob(db, this.workerId, [...this.handlers.keys()]);
    if (!job) return false;
    const handler = this.handlers.get(job.type)!;
    const worker = this;
    const ctx: JobContext = {
      job,
      heartbeat: (progress) => heartbeat(db, job.id, progress),
      get stopping() {
        return worker.stopRequested;
      },
    };
    try {
      await handler(job.payload, ctx);
      await finishJob(db, job.id);
    } catch (error) {
      if (error instanceof SimulatedCrash) {
        this.stopped = true;
        throw error;
      }
      if (error instanceof JobInterrupted) {
        await db.updateTable('jobs').set({ status: 'queued', locked_by: null, locked_at: null, attempts: Math.max(0, job.attempts - 1) }).where('id', '=', job.id).execute();
        return false;
      }
      const retried = await failJob(db, job, error, { retry: !(error instanceof PermanentJobError) });
      this.options.log?.error({ err: error, job: job.id, type: job.type, retried }, 'Job failed');
    }
    return true;
  }
}
