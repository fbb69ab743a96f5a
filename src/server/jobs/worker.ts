import type { Kysely, Transaction } from 'kysely';
import { isConnectionLost } from '../db/connection-errors.js';
import type { DatabaseDemand } from '../db/database.js';
import type { DB } from '../db/schema.generated.js';
import {
  claimJobs,
  enqueueJob,
  enqueueUnlessPending,
  failJob,
  finishJobs,
  heartbeat,
  holdsClaim,
  type Job,
  requeueAbandoned,
  requeueStranded,
  WORKER_ID,
} from './queue.js';

export interface JobContext {
  /** The job (of a batch, the first). */
  job: Job;
  /** The jobs handled at once: the one job, or a batch (JobHandlerOptions.batch). */
  jobs: readonly Job[];
  /** Keeps the claim alive and stores progress (call at least every minute on long jobs). */
  heartbeat(progress?: unknown): Promise<void>;
  /**
   * Call first in each transaction that commits a step of the job: throws `ClaimLost` when another worker has
   * taken the job (any of a batch) over (this one was taken for dead), and otherwise keeps it from doing so until
   * the commit.
   */
  holdClaim(trx: Transaction<DB>): Promise<void>;
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

/** This worker no longer holds the job (another took it over): it stops without touching the job's row. */
export class ClaimLost extends Error {
  constructor() {
    super('Another worker took this job over.');
  }
}

/** Thrown for failures that retrying cannot fix (missing file, deleted import): the job is failed at once. */
export class PermanentJobError extends Error {}

/**
 * Whether a handler's failure means the job was cut off rather than that it went wrong (the worker stopping, a
 * crash, another worker taking over, the database lost): the handler leaves what it works on as it is, for the job to
 * go on later, instead of marking it failed.
 */
export function jobCutOff(error: unknown): boolean {
  return (
    error instanceof JobInterrupted ||
    error instanceof SimulatedCrash ||
    error instanceof ClaimLost ||
    isConnectionLost(error)
  );
}

export type JobHandler = (payload: any, ctx: JobContext) => Promise<void>;
/** Handles a batch of jobs of one type at once (registerBatch): their payloads, oldest first. */
export type BatchHandler = (payloads: any[], ctx: JobContext) => Promise<void>;

export interface JobHandlerOptions {
  /**
   * A short job (an automation's runs, webhook messages, the outbox's changes): on the embedded database it runs
   * holding the one connection, for at most HOLD_MAX_MS, so that its statements meet people's requests once rather
   * than one by one between theirs (a request waits for the job once instead of many requests each waiting a little).
   * Its work outside the database (a webhook's HTTP) is inside the hold too: the limit bounds a slow receiver's share.
   */
  holdsDatabase?: boolean;
  /** Called when the job is failed for good without its handler saying so (it stopped on every attempt): mark what it works on failed, with `reason`. */
  giveUp?(payload: any, reason: string): Promise<void>;
}

export interface BatchHandlerOptions extends JobHandlerOptions {
  /**
   * Up to this many due jobs of the type are claimed in one statement, handled in one call and finished in one
   * statement (automation runs, webhook messages): the statements per job fall as the queue grows.
   */
  batch: number;
}

/** How long the database must have had no statement from elsewhere before a held-back worker claims (makeWay). */
const QUIET_MS = 20;
/** How often a held-back worker looks again. */
const HOLD_POLL_MS = 5;
/** The longest a job holds the embedded database (JobHandlerOptions.holdsDatabase); then requests take turns with it again. */
const HOLD_MAX_MS = 250;

export interface WorkerOptions {
  db: Kysely<DB>;
  /** PGlite: one process owns the database, so at start every `running` job was abandoned. */
  singleProcess?: boolean;
  pollMs?: number;
  log?: { info(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  workerId?: string;
  /** How long a running job may go without a heartbeat before it is taken for stuck and retried (JOB_STALE_SECONDS). */
  staleAfterSeconds?: number;
  /** How often a worker looks for jobs abandoned by other processes. */
  recoverEveryMs?: number;
  /** Whether the database answers (db/database-health.ts): the worker pauses while it does not and resumes after. */
  health?: { readonly up: boolean; onChange(listener: (up: boolean) => void): () => void };
  /** Called after the worker, stopping, gave its job back to the queue: tells the other processes to take it now. */
  released?(): Promise<void>;
  /**
   * What people's requests ask of the database (the embedded one: one connection, shared with the worker): before
   * each turn of claims the worker holds back while they keep it busy, for at most `holdBackMs` (JOB_HOLD_BACK_MS).
   */
  demand?: DatabaseDemand;
  holdBackMs?: number;
  /** The embedded database's hold (db/database.ts), for jobs that hold it (JobHandlerOptions.holdsDatabase). */
  hold?<T>(work: () => Promise<T>, maxMs: number): Promise<T>;
}

/**
 * The in-process job worker (DESIGN.md 8): polls the `jobs` table, claims one job (or a batch of one type) at a
 * time with `for update skip locked`, runs its handler, marks it done, or requeues it with back-off on error. Handlers
 * checkpoint their progress in the database so a restarted worker resumes rather than repeats.
 */
export class JobWorker {
  private readonly handlers = new Map<string, BatchHandler>();
  private readonly handlerOptions = new Map<string, BatchHandlerOptions>();
  private lastRecovery = 0;
  /** Types of the jobs that queue their own next run (`every`). */
  private readonly periodic = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private wakeRequested = false;
  /** Set by stop(): handlers stop at their next checkpoint. (Not set before start: tests drain without starting.) */
  private stopRequested = false;
  /** The database was lost while this worker ran: its job may be left `running`, to be given back once it returns. */
  private stranded = false;
  private stopWatching: (() => void) | null = null;
  readonly workerId: string;

  constructor(private readonly options: WorkerOptions) {
    this.workerId = options.workerId ?? WORKER_ID;
  }

  register(type: string, handler: JobHandler, options: JobHandlerOptions = {}) {
    return this.registerBatch(type, (payloads, ctx) => handler(payloads[0], ctx), { ...options, batch: 1 });
  }

  /**
   * A type whose due jobs are handled a batch at a time (BatchHandlerOptions.batch). The batch succeeds or fails as
   * one: each of its jobs is finished, retried or given up alike.
   */
  registerBatch(type: string, handler: BatchHandler, options: BatchHandlerOptions) {
    this.handlers.set(type, handler);
    this.handlerOptions.set(type, options);
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
    const requeued = await requeueAbandoned(this.options.db, {
      everyRunning: this.options.singleProcess,
      workerId: this.workerId,
    });
    if (requeued) this.options.log?.info({ requeued }, 'Requeued jobs left running by a stopped process');
    await this.queuePeriodic();
    this.stopWatching = this.options.health?.onChange((up) => this.databaseChanged(up)) ?? null;
    this.schedule(0);
  }

  /** Paused while the database is away (the loop does not run); on its return, back to work at once. */
  private databaseChanged(up: boolean) {
    if (this.stopped) return;
    if (!up) {
      this.stranded = true;
      this.options.log?.info({}, 'Job worker paused: the database does not answer');
      return;
    }
    this.options.log?.info({}, 'Job worker resumed: the database answers again');
    this.wake();
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
    this.stopWatching?.();
    this.stopWatching = null;
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
    if (this.options.health && !this.options.health.up) return; // resumed by databaseChanged
    try {
      if (this.stranded) {
        // Its connection was cut mid-job: the job is still `running` in this worker's name, and no one else takes it
        // (this process is alive, its heartbeat recent). Given back without counting the attempt: not its fault.
        const requeued = await requeueStranded(this.options.db, this.workerId);
        this.stranded = false;
        if (requeued) this.options.log?.info({ requeued }, 'Requeued the job the lost database connection cut off');
      }
      await this.recoverAbandoned();
      while (!this.stopped && (await this.makeWay()) && (await this.turn())) {
        /* keep going while there is work */
      }
    } catch (error) {
      if (isConnectionLost(error)) {
        this.stranded = true;
        // Paused until the database answers again, unless it is still taken for up: then tried again after a poll.
        if (this.options.health && !this.options.health.up) return;
      } else this.options.log?.error({ err: error }, 'Job worker error');
    }
    const again = this.wakeRequested;
    this.wakeRequested = false;
    this.schedule(again ? 0 : (this.options.pollMs ?? 1_000));
  }

  /**
   * With several processes on one PostgreSQL, any of them may die mid-job: each worker looks now and then for jobs
   * whose process is gone or silent, so another process finishes them. (On the embedded database the one process
   * requeues everything at start.)
   */
  private async recoverAbandoned() {
    if (this.options.singleProcess) return;
    if (Date.now() - this.lastRecovery < (this.options.recoverEveryMs ?? 15_000)) return;
    this.lastRecovery = Date.now();
    const requeued = await requeueAbandoned(this.options.db, {
      workerId: this.workerId,
      staleAfterSeconds: this.options.staleAfterSeconds,
    });
    if (requeued) this.options.log?.info({ requeued }, 'Requeued jobs abandoned by another process');
  }

  /**
   * Requests come first: on the embedded database a job's statements and transactions queue people's updates behind
   * them. While the database keeps having statements from elsewhere (within QUIET_MS), the worker waits, at most
   * `holdBackMs`; under steady use it then takes a turn (`turn`) at what gathered meanwhile, in bigger batches. True
   * unless stopping.
   */
  private async makeWay(): Promise<boolean> {
    const { demand, holdBackMs = 0 } = this.options;
    if (!demand || holdBackMs <= 0) return !this.stopped;
    const until = performance.now() + holdBackMs;
    for (;;) {
      if (this.stopped) return false;
      const now = performance.now();
      const quietFor = demand.waiting > 0 ? 0 : now - demand.lastSentAt;
      if (quietFor >= QUIET_MS || now >= until) return true;
      await new Promise((resolve) => setTimeout(resolve, Math.min(HOLD_POLL_MS, until - now)));
    }
  }

  /** Claims and runs the next due job, or a batch of its type (registerBatch); false when none was due. */
  async runOne(): Promise<boolean> {
    return (await this.claimAndRun(new Set())) === true;
  }

  /**
   * One turn after the worker made way: each type with a due job is claimed once, the oldest due first, and a batch
   * type again while its batch comes back full. The stages of a change (its runs, then their messages) so go through
   * in one turn, and a turn's claims are as large as what gathered while the worker held back: under steady use the
   * requests meet the worker's statements once a turn, not once a claim. False when nothing was due or it was
   * interrupted.
   */
  private async turn(): Promise<boolean> {
    const done = new Set<string>();
    let ran = false;
    while (!this.stopped) {
      const claimed = await this.claimAndRun(done);
      if (claimed === null) return ran;
      if (claimed === false) return false;
      ran = true;
    }
    return ran;
  }

  /**
   * Claims the next due job of a type not in `done` (or a batch of its type) and runs it; adds its type to `done`
   * unless it is a batch that came back full. Null when none was due; false when interrupted.
   */
  private async claimAndRun(done: Set<string>): Promise<boolean | null> {
    const upTo = Object.fromEntries(
      [...this.handlerOptions].filter(([type]) => !done.has(type)).map(([type, options]) => [type, options.batch]),
    );
    const jobs = await claimJobs(this.options.db, this.workerId, upTo);
    if (!jobs.length) return null;
    const type = jobs[0]!.type;
    const batch = upTo[type] ?? 1;
    if (batch === 1 || jobs.length < batch) done.add(type);
    return this.runClaimed(jobs);
  }

  /**
   * Runs claimed jobs of one type (one, or a batch), holding the embedded database if the type does; false when
   * interrupted (given back to the queue as they were).
   */
  private runClaimed(claimed: readonly Job[]): Promise<boolean> {
    const { hold } = this.options;
    const held = hold && this.handlerOptions.get(claimed[0]!.type)?.holdsDatabase;
    return held ? hold(() => this.runJobs(claimed), HOLD_MAX_MS) : this.runJobs(claimed);
  }

  private async runJobs(claimed: readonly Job[]): Promise<boolean> {
    const { db } = this.options;
    const type = claimed[0]!.type;
    const handler = this.handlers.get(type)!;
    const jobs: Job[] = [];
    for (const job of claimed) {
      if (job.attempts <= job.max_attempts) {
        jobs.push(job);
        continue;
      }
      // Requeued after its process stopped on each attempt: give it up rather than loop for ever.
      const reason = `It stopped before finishing on each of ${job.max_attempts} attempts${job.error ? ` (last: ${job.error})` : ''}.`;
      await this.handlerOptions.get(type)?.giveUp?.(job.payload, reason);
      await failJob(db, job, new Error(reason), { retry: false });
      this.options.log?.error({ job: job.id, type }, `Job given up: ${reason}`);
    }
    if (!jobs.length) return true;
    const ids = jobs.map((job) => job.id);
    const worker = this;
    const ctx: JobContext = {
      job: jobs[0]!,
      jobs,
      heartbeat: async (progress) => {
        if (!(await heartbeat(db, ids, progress, worker.workerId))) throw new ClaimLost();
      },
      holdClaim: async (trx) => {
        if (!(await holdsClaim(trx, ids, worker.workerId))) throw new ClaimLost();
      },
      get stopping() {
        return worker.stopRequested;
      },
    };
    try {
      await handler(
        jobs.map((job) => job.payload),
        ctx,
      );
      await finishJobs(db, ids);
    } catch (error) {
      if (error instanceof SimulatedCrash) {
        this.stopped = true;
        throw error;
      }
      if (error instanceof ClaimLost) {
        this.options.log?.error({ jobs: ids, type }, 'Job taken over by another worker; this one stopped');
        return true;
      }
      if (error instanceof JobInterrupted) {
        for (const job of jobs)
          await db
            .updateTable('jobs')
            .set({ status: 'queued', locked_by: null, locked_at: null, attempts: Math.max(0, job.attempts - 1) })
            .where('id', '=', job.id)
            .execute();
        await this.options.released?.().catch(() => {});
        return false;
      }
      // Left `running`: given back when the database answers again (loop, `stranded`).
      if (isConnectionLost(error)) throw error;
      for (const job of jobs) {
        const retried = await failJob(db, job, error, { retry: !(error instanceof PermanentJobError) });
        this.options.log?.error({ err: error, job: job.id, type, retried }, 'Job failed');
      }
    }
    return true;
  }
}
