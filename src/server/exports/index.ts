import type { Feature, FeaturePlugin } from '../app-context.js';
import { registerExportRoutes } from './export-routes.js';
import { EXPORT_JOB, ExportService } from './export-service.js';
import { exportsResource } from './exports-resource.js';

/**
 * CSV exports of lists (docs/imports.md "Exports"): the exports resource, the download and background-export routes,
 * and the export job on the app's job worker (registered after the jobs plugin).
 */
const exportsPlugin: FeaturePlugin = async (app, { ctx }) => {
  const exports = new ExportService(ctx, () => app.jobs.wake());
  app.jobs.register(EXPORT_JOB, (payload, job) => exports.run(Number(payload.export_id), job), {
    giveUp: (payload, reason) => exports.giveUp(Number(payload.export_id), reason),
  });
  registerExportRoutes(app, exports);
};

export const exportsFeature: Feature = { resources: [exportsResource], plugin: exportsPlugin };
