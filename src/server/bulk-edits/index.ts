import fp from 'fastify-plugin';
import type { Feature, FeaturePlugin } from '../app-context.js';
import { registerBulkEditRoutes } from './bulk-edit-routes.js';
import { BULK_EDIT_JOB, BULK_EDIT_UNDO_JOB, BulkEditService } from './bulk-edit-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Bulk edits (tests run their jobs with `app.jobs.drain()`). */
    bulkEdits: BulkEditService;
  }
}

/** Bulk edits of record lists (docs/records.md "Bulk edit"): the routes, and the edit and undo jobs on the app's job worker. */
const bulkEdits: FeaturePlugin = async (app, { ctx }) => {
  const service = new BulkEditService(ctx, () => app.jobs.wake());
  app.decorate('bulkEdits', service);
  app.jobs.register(BULK_EDIT_JOB, (payload, job) => service.run(Number(payload.bulk_edit_id), job), {
    giveUp: (payload, reason) => service.giveUp(Number(payload.bulk_edit_id), reason),
  });
  app.jobs.register(BULK_EDIT_UNDO_JOB, (payload, job) => service.undo(Number(payload.bulk_edit_id), job));
  registerBulkEditRoutes(app, service);
};

export const bulkEditsFeature: Feature = { plugin: fp(bulkEdits, { name: 'bulk-edits', dependencies: ['jobs'] }) };
