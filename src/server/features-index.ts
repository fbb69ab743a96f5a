import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.js';
import { featuresResource } from './features/features-resource.js';
import type { ResourceDefinition } from './records/resource.js';
import { registerActivityRoutes } from './activity/activity-routes.js';
import { registerDashboardRoutes } from './dashboard/dashboard-routes.js';
import { registerReportRoutes } from './reports/report-routes.js';
import { rolesResource } from './roles/roles-resource.js';
import { teamsResource } from './teams/teams-resource.js';
import { registerUserRoutes } from './users/user-routes.js';
import { usersResource } from './users/users-resource.js';

/** Every resource served by the generic routes. A feature adds its definition here. */
export const resourceDefinitions: ResourceDefinition[] = [usersResource, rolesResource, teamsResource, featuresResource];

/** Routes of features beyond the generic ones. Registered before the generic routes of the same paths. */
export function registerFeatureRoutes(app: FastifyInstance, ctx: AppContext) {
  registerUserRoutes(app, ctx);
  registerDashboardRoutes(app, ctx);
  registerActivityRoutes(app, ctx);
  registerReportRoutes(app, ctx);
}
