import type { Feature } from '../app-context.js';
import { registerViewRoutes } from './view-routes.js';
import { viewsResource } from './views-resource.js';

/**
 * Saved views (docs/views.md): the views resource (its reads, deletes and restores by the generic routes, its writes
 * checked by view-routes.ts); `view=<id>` on every list is the record service's (saved-view.ts).
 */
export const viewsFeature: Feature = {
  resources: [viewsResource],
  plugin: async (app, { ctx }) => registerViewRoutes(app, ctx),
};
