import fp from 'fastify-plugin';
import type { Feature, FeaturePlugin } from '../app-context.js';
import { IMPORT_JOB, IMPORT_UNDO_JOB, ImportService } from './import-service.js';
import { registerImportRoutes } from './import-routes.js';
import { ImporterService } from './importer-service.js';
import { registerImporterRoutes } from './importer-routes.js';
import { ImportProcessor } from './processor.js';
import { importResourceDefinitions } from './resources.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The import runner the job worker uses (tests set its options). */
    importProcessor: ImportProcessor;
  }
}

/**
 * Imports (docs/imports.md): importers, their columns and rules, and imports as resources; the upload, preview,
 * report and undo routes; the import and undo jobs on the app's job worker. Not encapsulated (fastify-plugin), so
 * `app.importProcessor` is the app's own.
 */
const imports: FeaturePlugin = async (app, { ctx }) => {
  const service = new ImportService(ctx, () => app.jobs.wake());
  const importers = new ImporterService(ctx);
  app.decorate('importProcessor', new ImportProcessor(ctx, service));
  app.jobs.register(IMPORT_JOB, (payload, job) => app.importProcessor.run(Number(payload.import_id), job));
  app.jobs.register(IMPORT_UNDO_JOB, (payload, job) => app.importProcessor.undo(Number(payload.import_id), job));
  registerImportRoutes(app, ctx, service, importers);
  registerImporterRoutes(app, ctx, importers);
};

export const importsFeature: Feature = { resources: importResourceDefinitions, plugin: fp(imports, { name: 'imports', dependencies: ['jobs'] }) };
