import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { FeaturePlugin } from '../app-context.js';
import { JobWorker } from './worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The background job worker (imports, undo, exports); started by main.ts, stopped when the app closes. */
    jobs: JobWorker;
  }
}

/**
 * The database-backed job worker, shared by the features that run work in the background: each registers its
 * handlers on `app.jobs` in its own plugin. The worker is created here but only runs once `startJobWorker(app)` is
 * called (main.ts), so tests drive the queue themselves (`app.jobs.drain()`). Not encapsulated (fastify-plugin), so
 * `app.jobs` is the app's own.
 */
const jobs: FeaturePlugin = async (app, { ctx }) => {
  const worker = new JobWorker({
    db: ctx.db,
    singleProcess: ctx.database.kind === 'pglite',
    log: app.log,
    staleAfterSeconds: ctx.config.jobStaleSeconds,
    health: ctx.database.health,
    released: () => ctx.database.notify(RELEASED_CHANNEL, ''),
    demand: ctx.database.demand,
    hold: ctx.database.hold?.bind(ctx.database),
    holdBackMs: ctx.config.jobHoldBackMs,
  });
  app.decorate('jobs', worker);
  // A process draining (SIGTERM) gives its job back at once, and the others hear of it rather than at their next poll.
  await ctx.database.listen(RELEASED_CHANNEL, () => worker.wake());
  ctx.lifecycle.onDrain(() => worker.stop());
  app.addHook('onClose', async () => {
    await worker.stop();
  });
};

/** NOTIFY channel of a job given back to the queue by a stopping process. */
const RELEASED_CHANNEL = 'om_job_released';
export const jobsPlugin = fp(jobs, { name: 'jobs' });

/** Starts the in-process job worker (requeues jobs a stopped process left running). */
export async function startJobWorker(app: FastifyInstance) {
  await app.jobs.start();
}
