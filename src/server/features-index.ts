import type { FastifyInstance } from 'fastify';
import { accessFeature } from './access/index.js';
import { registerActivityRoutes } from './activity/activity-routes.js';
import { apiDocsFeature } from './api-docs/index.js';
import type { AppContext, Feature } from './app-context.js';
import { withAssessmentHistory } from './assessments/history.js';
import { assessmentsFeature } from './assessments/index.js';
import { assigneesFeature } from './assignees/index.js';
import { assistantFeature } from './assistant/index.js';
import { automationsFeature } from './automations/index.js';
import { backupsFeature } from './backups/index.js';
import { bulkEditsFeature } from './bulk-edits/index.js';
import { callListsFeature } from './call-lists/index.js';
import { campaignsFeature } from './campaigns/index.js';
import { contactsResource } from './contacts/contacts-resource.js';
import { registerContractorRoutes } from './contractors/contractor-routes.js';
import { contractorsResource } from './contractors/contractors-resource.js';
import { conversationsFeature } from './conversations/index.js';
import { registerDashboardRoutes } from './dashboard/dashboard-routes.js';
import { exportsFeature } from './exports/index.js';
import { featuresResource } from './features/features-resource.js';
import { grievancesResource } from './grievances/grievances-resource.js';
import { importsFeature } from './imports/index.js';
import { jobsPlugin } from './jobs/index.js';
import { mapFeature } from './map/index.js';
import { membersResource } from './members/members-resource.js';
import { messagesFeature } from './messages/index.js';
import { registerOptionsRoutes } from './options/options-routes.js';
import { publicFormsFeature } from './public-forms/index.js';
import { idempotencyFeature } from './records/idempotency.js';
import type { ResourceDefinition } from './records/resource.js';
import { recruitsResource } from './recruits/recruits-resource.js';
import { registerAddressOptions } from './reference-data/address-options.js';
import { referenceResources } from './reference-data/reference-resources.js';
import { regionsFeature } from './regions/index.js';
import { registerReportRoutes } from './reports/report-routes.js';
import { registerRevisionRoutes } from './revisions/revisions-routes.js';
import { rolesResource } from './roles/roles-resource.js';
import { registerBuiltinTypes } from './schemas/builtin-types.js';
import { schemaBacked } from './schemas/schema-backed.js';
import { schemaResources } from './schemas/schema-resources.js';
import { registerSchemaRoutes } from './schemas/schema-routes.js';
import { registerSiteRoutes } from './sites/site-routes.js';
import { sitesResource } from './sites/sites-resource.js';
import { registerBootstrapRoutes } from './system/bootstrap-routes.js';
import { registerSystemRoutes } from './system/system-routes.js';
import { teamsResource } from './teams/teams-resource.js';
import { tokensFeature } from './tokens/index.js';
import { registerUserRoutes } from './users/user-routes.js';
import { usersResource } from './users/users-resource.js';
import { viewsFeature } from './views/index.js';
import { visitsResource } from './visits/visits-resource.js';
import { webhooksFeature } from './webhooks/index.js';
import {
  attachmentsResource,
  documentsResource,
  notesResource,
  notificationsResource,
  tasksResource,
} from './work/work-resources.js';
import { registerWorkRoutes } from './work/work-routes.js';

/** A folder whose routes are a `register(app, ctx)` function, as a feature. */
const routes = (
  register: (app: FastifyInstance, ctx: AppContext) => void,
  resources?: readonly ResourceDefinition[],
): Feature => ({
  plugin: async (app, { ctx }) => register(app, ctx),
  resources,
});

/**
 * Every server feature, registered in this order (app.ts): each is a Fastify plugin that adds its routes, event
 * listeners and jobs, with the resources the generic routes serve for it. A feature's routes come before the generic
 * routes; a new feature is one folder with an index.ts and one line here.
 */
export const features: Feature[] = [
  // People and access: users (with their own routes), roles, teams (a record type: custom fields from its schema),
  // feature switches.
  routes(registerUserRoutes, [usersResource, rolesResource, schemaBacked(teamsResource), featuresResource]),
  // The access policy's role screen: record types and their reach, "see as" (docs/security.md).
  accessFeature,
  // Record types and their form logic (docs/records.md), then the organizing records.
  routes((app, ctx) => registerSchemaRoutes(app, ctx, resourceDefinitions), schemaResources),
  routes(registerSiteRoutes, [sitesResource]),
  routes(registerContractorRoutes, [contractorsResource]),
  // People, whose assessments are kept with their history (docs/conversations.md "Assessments").
  {
    resources: [
      withAssessmentHistory(contactsResource),
      withAssessmentHistory(membersResource),
      withAssessmentHistory(recruitsResource),
      grievancesResource,
    ],
  },
  // Site visits with their head counts (docs/visits.md).
  { resources: [visitsResource] },
  // Campaigns toward a majority and their cards (docs/campaigns.md).
  campaignsFeature,
  // Conversations with people, their outcomes and assessments, a person's timeline (docs/conversations.md).
  conversationsFeature,
  assessmentsFeature,
  // Call lists: people worked one at a time, the phone bank (docs/conversations.md "Call lists").
  callListsFeature,
  // Reference lists and tags; regions and the map (docs/map.md).
  routes(registerAddressOptions, referenceResources),
  regionsFeature,
  mapFeature,
  // Work on records.
  // Who work can be given to (tasks, next steps), by name (issue 36).
  assigneesFeature,
  routes(registerWorkRoutes, [
    tasksResource,
    notesResource,
    notificationsResource,
    documentsResource,
    attachmentsResource,
  ]),
  // Saved views of any record type, personal or shared (docs/views.md).
  viewsFeature,
  // Figures, the activity feed and reports; history, options lists, system.
  routes(registerDashboardRoutes),
  routes(registerActivityRoutes),
  routes(registerReportRoutes),
  routes(registerRevisionRoutes),
  routes(registerOptionsRoutes),
  routes(registerSystemRoutes),
  // Scheduled backups and the last backup on the system status (docs/operations.md "Backups").
  backupsFeature,
  // The client's start answer: config, session, features and schemas in one request (docs/client.md).
  routes(registerBootstrapRoutes),
  // Background jobs, then the features that run them: imports and exports (docs/imports.md).
  { plugin: jobsPlugin },
  // Idempotency-Keys past their time are removed by a job (records/idempotency.ts, docs/offline.md).
  idempotencyFeature,
  importsFeature,
  exportsFeature,
  // One field of many records set at once, undone as a whole (docs/records.md "Bulk edit").
  bulkEditsFeature,
  // Signed outgoing webhooks on record events, their deliveries retried (docs/webhooks.md).
  webhooksFeature,
  // Automations: triggers, conditions and actions acting as their owner, with a run log (docs/automations.md).
  automationsFeature,
  // Texts and emails to the people of a list, sent by a job (docs/messages.md).
  messagesFeature,
  // Public forms and e-signed authorization cards, confirmed by their signers (docs/public-forms.md).
  publicFormsFeature,
  // Conversations with the assistant, private to their maker (docs/assistant.md).
  assistantFeature,
  // Personal access tokens for scripts (docs/api.md "Personal access tokens").
  tokensFeature,
  // The API's OpenAPI document, generated from every route's contract (docs/api.md).
  apiDocsFeature,
];

/** Every resource served by the generic routes. */
export const resourceDefinitions: ResourceDefinition[] = features.flatMap((feature) => feature.resources ?? []);
registerBuiltinTypes(resourceDefinitions);
