import type { Feature } from '../app-context.js';
import { registerBoardRoutes } from './board-routes.js';
import { registerGroupRoutes } from './group-routes.js';
import { registerViewRoutes } from './view-routes.js';
import { viewsResource } from './views-resource.js';

/**
 * Saved views (docs/views.md): the views resource (its reads, deletes and restores by the generic routes, its writes
 * checked by view-routes.ts); `view=<id>` on every list is the record service's (saved-view.ts); a list's groups
 * with counts and sums (group-routes.ts); a kanban's first page of every column in one request (board-routes.ts).
 */
export const viewsFeature: Feature = {
  resources: [viewsResource],
  plugin: async (app, { ctx }) => {
    registerViewRoutes(app, ctx);
    registerGroupRoutes(app, ctx);
    registerBoardRoutes(app, ctx);
  },
};
