import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';
import { unfinishedJobsStartedBy } from '../jobs/queue.js';
import { HttpError } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route does heavy work (reads and parses an upload, makes a preview or an export, starts an import, export or
     * bulk edit): admitted only within HEAVY_WORK_PER_PERSON and HEAVY_WORK_TOTAL (`HeavyWork`).
     */
    heavy?: true;
  }
}

/** Seconds a person is asked to wait: a request in flight ends soon; a background job takes longer. */
const RETRY_SOON = 5;
const RETRY_LATER = 30;

/**
 * How much heavy work runs at once. Counted: the heavy requests this process is answering (uploads being read,
 * previews, export downloads), and the imports, exports and bulk edits waiting or running in the job queue (every
 * process's, from the database). Per person at most HEAVY_WORK_PER_PERSON, in all at most HEAVY_WORK_TOTAL; a request
 * beyond is answered 429 with Retry-After before its body is read. One person's uploads never take everyone's turn,
 * and the memory all of them use together stays within the budget (docs/settings.md "Memory budget").
 */
export class HeavyWork {
  private readonly mine = new Map<number, number>();
  private inFlight = 0;

  constructor(
    private readonly db: Parameters<typeof unfinishedJobsStartedBy>[0],
    private readonly config: Config,
  ) {}

  /** Admits one heavy request of `userId` (429 beyond the limits); call the returned function when it has ended. */
  async admit(userId: number): Promise<() => void> {
    const { perPerson, total } = this.config.heavyWork;
    // Counted before the query, so two requests arriving together cannot both pass on the same count.
    const ownBefore = this.mine.get(userId) ?? 0;
    this.take(userId);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (this.mine.get(userId) ?? 1) - 1;
      if (left > 0) this.mine.set(userId, left);
      else this.mine.delete(userId);
      this.inFlight--;
    };
    try {
      if (ownBefore >= perPerson) throw busyPerson(perPerson, RETRY_SOON);
      if (this.inFlight > total) throw busyServer(total, RETRY_SOON);
      const jobs = await unfinishedJobsStartedBy(this.db, userId);
      if (ownBefore + jobs.mine >= perPerson) throw busyPerson(perPerson, jobs.mine ? RETRY_LATER : RETRY_SOON);
      if (this.inFlight + jobs.all > total) throw busyServer(total, jobs.all ? RETRY_LATER : RETRY_SOON);
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }

  /** Heavy requests this process is answering: in all, or of one person. */
  running(userId?: number): number {
    return userId === undefined ? this.inFlight : (this.mine.get(userId) ?? 0);
  }

  private take(userId: number) {
    this.mine.set(userId, (this.mine.get(userId) ?? 0) + 1);
    this.inFlight++;
  }
}

function busyPerson(limit: number, seconds: number) {
  return new HttpError(
    429,
    `You already have ${limit} uploads, previews, imports, exports or bulk edits under way; the most one person may have at once is ${limit}. Try again when one has finished (in about ${seconds} seconds).`,
    { 'Retry-After': String(seconds) },
  );
}

function busyServer(limit: number, seconds: number) {
  return new HttpError(
    429,
    `The server is busy with ${limit} uploads, previews, imports, exports or bulk edits, the most it runs at once. Try again in about ${seconds} seconds.`,
    { 'Retry-After': String(seconds) },
  );
}

/**
 * Routes declaring `config: { heavy: true }` are admitted by `heavyWork` once the person is known and before the
 * handler reads the body; their turn ends when the answer has gone (or the connection closed).
 */
export function registerHeavyWork(app: FastifyInstance, heavyWork: HeavyWork) {
  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config?.heavy || !request.user) return;
    const release = await heavyWork.admit(request.user.id);
    reply.raw.once('close', release);
  });
}
