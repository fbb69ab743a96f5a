import fp from 'fastify-plugin';
import type { Feature, FeaturePlugin } from '../app-context.js';
import { isRecordEvent } from '../events/app-events.js';
import { RECORD_CHANGES_JOB } from '../records/record-changes.js';
import { AUTOMATION_EMAIL_JOB, AUTOMATION_RUN_JOB, AutomationRunner } from './automation-runner.js';
import { AutomationService } from './automation-service.js';
import { AutomationTriggers } from './automation-triggers.js';
import { actOnRecordChanges } from './record-changes-job.js';
import { registerAutomationRoutes } from './routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Automations: their service, the runner (tests set its `options`) and the triggers (tests call `tick`). */
    automations: { service: AutomationService; runner: AutomationRunner; triggers: AutomationTriggers };
  }
}

/** The runs a run job carries out: `run_ids` (a batch), or `run_id` (a job queued before batches). */
const runIdsOf = (payload: { run_id?: unknown; run_ids?: unknown[] }): number[] =>
  (payload.run_ids ?? [payload.run_id]).map(Number);

/** Run jobs (each up to 50 runs) carried out as one batch: their runs read, acted on and ended together. */
const RUN_JOBS_PER_BATCH = 10;

/** How often the scheduler checks schedules and dates. */
const TICK_MS = 60_000;

/**
 * Automations (docs/automations.md): the routes, the job that turns committed record changes (the outbox) into runs
 * and webhook messages, the scheduler's check each minute, and the run and email jobs on the app's job worker.
 */
const automations: FeaturePlugin = async (app, { ctx }) => {
  const wake = () => app.jobs.wake();
  const { deliveries } = app.webhooks;
  const runner = new AutomationRunner(ctx, deliveries);
  const triggers = new AutomationTriggers(ctx, wake);
  const service = new AutomationService(ctx, runner, triggers, deliveries, wake);
  app.decorate('automations', { service, runner, triggers });
  app.jobs.registerBatch(AUTOMATION_RUN_JOB, (payloads, job) => runner.runJob(payloads.flatMap(runIdsOf), job), {
    batch: RUN_JOBS_PER_BATCH,
    holdsDatabase: true,
    giveUp: (payload, reason) => runner.giveUp(runIdsOf(payload), reason),
  });
  app.jobs.register(AUTOMATION_EMAIL_JOB, (payload) => runner.sendEmail(payload));
  app.jobs.every('automation-schedule', TICK_MS, () => triggers.tick());
  app.jobs.register(RECORD_CHANGES_JOB, (_payload, job) => actOnRecordChanges(ctx, triggers, app.webhooks, job), {
    holdsDatabase: true,
  });
  // The changes and their job were committed with the write; this only spares the worker its poll.
  ctx.events.on((event) => (isRecordEvent(event) ? wake() : undefined));
  registerAutomationRoutes(app, service, triggers);
};

export const automationsFeature: Feature = {
  plugin: fp(automations, { name: 'automations', dependencies: ['jobs', 'webhooks'] }),
};
