import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { idParams, messageAnswer, optionalBody, recordAnswer } from '../http/contracts.js';
import type { ResourceDefinition } from '../records/resource.js';
import { socketOf } from '../records/routes.js';
import { shareAnswer, shareBody, shareRecord } from '../work/share.js';
import { attachmentsResource } from '../work/work-resources.js';
import { documentUpload, uploadDocument } from '../work/work-routes.js';
import { sitesResource } from './sites-resource.js';

const contactsBody = z
  .object({
    contact_ids: z.array(z.coerce.number().int().positive()).max(5_000).optional(),
    contact_id: z.coerce.number().int().positive().optional(),
    detach: z.boolean().optional(),
    updated_at: z.string().optional(),
  })
  .strict()
  .refine((body) => body.contact_ids !== undefined || body.contact_id !== undefined, {
    message: 'Send contact_ids (the whole list) or contact_id (one to add, or with detach: true to remove).',
    path: ['contact_ids'],
  });

/**
 * POST /{id}/contacts for sites and contractors: `contact_ids` replaces the list; `contact_id` adds one (or removes it
 * with `detach: true`). An update of the record through the record service (permission, revision, event).
 */
export function registerContactsRoute(fastify: FastifyInstance, ctx: AppContext, def: ResourceDefinition) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    `/api/${def.name}/:id/contacts`,
    {
      schema: { params: idParams, body: contactsBody, response: { 200: recordAnswer, 409: messageAnswer } },
      config: { permission: { resource: def.name, action: 'update' } },
    },
    async (request) => {
      const { id } = request.params;
      const body = request.body;
      let contactIds = body.contact_ids;
      if (contactIds === undefined) {
        const current: number[] = (await ctx.records.show(request.user, def, id)).contact_ids ?? [];
        contactIds = body.detach
          ? current.filter((c) => c !== body.contact_id)
          : [...new Set([...current, body.contact_id!])];
      }
      const { record, message } = await ctx.records.update(
        request.user,
        def,
        id,
        { contact_ids: contactIds, ...(body.updated_at ? { updated_at: body.updated_at } : {}) },
        { socketId: socketOf(request) },
      );
      return { data: record, message };
    },
  );
  app.post(
    `/api/${def.name}/:id/share`,
    {
      schema: { params: idParams, body: optionalBody(shareBody), response: { 200: shareAnswer } },
      config: { permission: { resource: def.name, action: 'read' } },
    },
    async (request) => shareRecord(ctx, request.user!, def, request.params.id, request.body),
  );
}

const changeTypeBody = z
  .object({ type: z.string().trim().min(1, 'The type field is required.').max(60), updated_at: z.string().optional() })
  .strict();

/** Sites beyond the generic routes: change-type, contacts, share, attachments. */
export function registerSiteRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  registerContactsRoute(app, ctx, sitesResource);

  // Moving a site to another type needs update permission on both its old and its new category.
  app.post(
    '/api/sites/:id/change-type',
    {
      schema: { params: idParams, body: changeTypeBody, response: { 200: recordAnswer, 409: messageAnswer } },
      config: { permission: { resource: 'sites', action: 'update' } },
    },
    async (request) => {
      const { record } = await ctx.records.update(request.user, sitesResource, request.params.id, request.body, {
        socketId: socketOf(request),
      });
      return { data: record, message: `${await ctx.records.nameOf(sitesResource)} type changed successfully.` };
    },
  );

  app.post(
    '/api/sites/:id/attachments',
    {
      schema: { params: idParams, body: documentUpload, response: { 201: recordAnswer } },
      config: {
        permission: {
          allOf: [
            { resource: 'sites', action: 'read' },
            { resource: 'attachments', action: 'create' },
          ],
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await ctx.records.show(request.user, sitesResource, id);
      const { record, message } = await uploadDocument(ctx, request, attachmentsResource, { type: 'site', id });
      return reply.status(201).send({ data: record, message });
    },
  );
}
