import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.js';
import { registerActivityRoutes } from './activity/activity-routes.js';
import { assistantMessagesResource, assistantThreadsResource } from './assistant/resources.js';
import { registerAssistantRoutes } from './assistant/routes.js';
import { contactsResource } from './contacts/contacts-resource.js';
import { registerContractorRoutes } from './contractors/contractor-routes.js';
import { contractorsResource } from './contractors/contractors-resource.js';
import { registerDashboardRoutes } from './dashboard/dashboard-routes.js';
import { featuresResource } from './features/features-resource.js';
import { grievancesResource } from './grievances/grievances-resource.js';
import { importResourceDefinitions } from './imports/resources.js';
import { registerImportFeature } from './jobs/index.js';
import { registerMapRoutes } from './map/map-routes.js';
import { membersResource } from './members/members-resource.js';
import type { ResourceDefinition } from './records/resource.js';
import { recruitsResource } from './recruits/recruits-resource.js';
import { registerAddressOptions } from './reference-data/address-options.js';
import { referenceResources } from './reference-data/reference-resources.js';
import { regionsResource } from './regions/regions-resource.js';
import { registerReportRoutes } from './reports/report-routes.js';
import { rolesResource } from './roles/roles-resource.js';
import { registerBuiltinTypes } from './schemas/builtin-types.js';
import { schemaBacked } from './schemas/schema-backed.js';
import { schemaResources } from './schemas/schema-resources.js';
import { registerSchemaRoutes } from './schemas/schema-routes.js';
import { registerSiteRoutes } from './sites/site-routes.js';
import { sitesResource } from './sites/sites-resource.js';
import { teamsResource } from './teams/teams-resource.js';
import { registerUserRoutes } from './users/user-routes.js';
import { usersResource } from './users/users-resource.js';
import { registerWorkRoutes } from './work/work-routes.js';
import { attachmentsResource, documentsResource, notesResource, notificationsResource, tasksResource } from './work/work-resources.js';

/** Every resource served by the generic routes. A feature adds its definition here. */
export const resourceDefinitions: ResourceDefinition[] = [
  usersResource,
  rolesResource,
  // Teams and regions are record types too: their custom fields come from their schema.
  schemaBacked(teamsResource),
  featuresResource,
  // Record types and their form logic (docs/records.md).
  ...schemaResources,
  // The organizing records.
  sitesResource,
  contractorsResource,
  contactsResource,
  membersResource,
  recruitsResource,
  grievancesResource,
  // Reference lists, tags and regions.
  ...referenceResources,
  schemaBacked(regionsResource),
  // Work on records.
  tasksResource,
  notesResource,
  notificationsResource,
  documentsResource,
  attachmentsResource,
  // Importers, importer columns and rules, imports, exports (docs/imports.md).
  ...importResourceDefinitions,
  // Conversations with the assistant, private to their maker (docs/assistant.md).
  assistantThreadsResource,
  assistantMessagesResource,
];
registerBuiltinTypes(resourceDefinitions);

/** Routes of features beyond the generic ones. Registered before the generic routes of the same paths. */
export function registerFeatureRoutes(app: FastifyInstance, ctx: AppContext) {
  registerUserRoutes(app, ctx);
  registerDashboardRoutes(app, ctx);
  registerActivityRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  registerMapRoutes(app, ctx);
  registerSchemaRoutes(app, ctx, resourceDefinitions);
  registerSiteRoutes(app, ctx);
  registerContractorRoutes(app, ctx);
  registerWorkRoutes(app, ctx);
  registerAddressOptions(app, ctx);
  registerImportFeature(app, ctx);
  registerAssistantRoutes(app, ctx);
}
