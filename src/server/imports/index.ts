import fp from 'fastify-plugin';
import type { Feature, FeaturePlugin } from '../app-context.js';
import { endIndexDeferral } from './deferred-indexes.js';
import { registerImportRoutes } from './import-routes.js';
import { IMPORT_JOB, IMPORT_UNDO_JOB, ImportService } from './import-service.js';
import { registerImporterRoutes } from './importer-routes.js';
import { ImporterService } from './importer-service.js';
import { ImportProcessor } from './processor.js';
import { importResourceDefinitions } from './resources.js';
import { removeExpiredUploads, UPLOAD_RETENTION_EVERY_MS, UPLOAD_RETENTION_JOB } from './upload-retention.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The import runner the job worker uses (tests set its options). */
    importProcessor: ImportProcessor;
  }
}

/**
 * Imports (docs/imports.md): importers, their columns and rules, and imports as resources; the upload, preview,
 * report and undo routes; the import and undo jobs on the app's job worker, and the removal of uploaded files past
 * UPLOAD_RETENTION_DAYS. Not encapsulated (fastify-plugin), so
 * `app.importProcessor` is the app's own.
 */
const imports: FeaturePlugin = async (app, { ctx }) => {
  const service = new ImportService(ctx, () => app.jobs.wake());
  const importers = new ImporterService(ctx);
  app.decorate('importProcessor', new ImportProcessor(ctx, service));
  app.jobs.register(IMPORT_JOB, (payload, job) => app.importProcessor.run(Number(payload.import_id), job), {
    giveUp: async (payload, reason) => {
      await service.fail(
        Number(payload.import_id),
        `The import stopped: ${reason} What it imported is kept; import the file again to finish it (rows already imported are skipped).`,
      );
      await endIndexDeferral(ctx, Number(payload.import_id), null);
    },
  });
  app.jobs.register(IMPORT_UNDO_JOB, (payload, job) => app.importProcessor.undo(Number(payload.import_id), job));
  app.jobs.every(UPLOAD_RETENTION_JOB, UPLOAD_RETENTION_EVERY_MS, async () => {
    const removed = await removeExpiredUploads(ctx.db, ctx.files, ctx.config.uploadRetentionDays);
    if (removed) app.log.info({ removed }, 'Removed uploaded files past UPLOAD_RETENTION_DAYS');
  });
  registerImportRoutes(app, ctx, service, importers);
  registerImporterRoutes(app, ctx, importers);
};

export const importsFeature: Feature = {
  resources: importResourceDefinitions,
  plugin: fp(imports, { name: 'imports', dependencies: ['jobs'] }),
};
