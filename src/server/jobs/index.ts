import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { EXPORT_JOB, ExportService } from '../exports/export-service.js';
import { registerExportRoutes } from '../exports/routes.js';
import { IMPORT_JOB, IMPORT_UNDO_JOB, ImportProcessor, type ProcessorOptions } from '../imports/processor.js';
import { registerImportRoutes } from '../imports/routes.js';
import { JobWorker } from './worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The background job worker (imports, undo, exports); started by main.ts, stopped when the app closes. */
    jobs: JobWorker;
    /** The import runner the worker uses (tests set its options). */
    importProcessor: ImportProcessor;
  }
}

/**
 * The import and export feature: routes, the job worker and its handlers. The worker is created here but only
 * runs once `startJobWorker(app)` is called (main.ts), so tests drive the queue themselves (`app.jobs.drain()`).
 */
export function registerImportFeature(app: FastifyInstance, ctx: AppContext, processorOptions: ProcessorOptions = {}) {
  const worker = new JobWorker({ db: ctx.db, singleProcess: ctx.database.kind === 'pglite', log: app.log });
  const processor = new ImportProcessor(ctx, processorOptions);
  const exports = new ExportService(ctx);
  worker.register(IMPORT_JOB, (payload, job) => app.importProcessor.run(Number(payload.import_id), job));
  worker.register(IMPORT_UNDO_JOB, (payload, job) => app.importProcessor.undo(Number(payload.import_id), job));
  worker.register(EXPORT_JOB, (payload, job) => exports.run(Number(payload.export_id), job));
  app.decorate('jobs', worker);
  app.decorate('importProcessor', processor);
  const wake = () => worker.wake();
  registerImportRoutes(app, ctx, { wake });
  registerExportRoutes(app, ctx, { wake });
  app.addHook('onClose', async () => {
    await worker.stop();
  });
}

/** Starts the in-process job worker (requeues jobs a stopped process left running). */
export async function startJobWorker(app: FastifyInstance) {
  await app.jobs.start();
}
