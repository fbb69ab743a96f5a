import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.js';
import { registerContactsRoute } from '../sites/site-routes.js';
import { contractorsResource } from './contractors-resource.js';

/** Contractors beyond the generic routes: POST /{id}/contacts and /{id}/share. */
export function registerContractorRoutes(app: FastifyInstance, ctx: AppContext) {
  registerContactsRoute(app, ctx, contractorsResource);
}
