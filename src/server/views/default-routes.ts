import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { record } from '../http/contracts.js';
import { writeHeaders } from '../records/routes.js';
import { DefaultViews } from './default-views.js';

const recordType = z.string().min(1).max(60).describe("The record type's slug (site, or a type made in the app).");
const defaultView = z
  .object({
    data: z.object({
      view: record.nullable().describe('The view the list opens in; null: the whole list.'),
      source: z
        .enum(['person', 'role'])
        .nullable()
        .describe("person: the person's own choice; role: their role's default view of the type."),
    }),
    message: z.string().optional(),
  })
  .meta({ id: 'DefaultView' });

/**
 * GET /api/views/default?record_type=<type>: the view this person's list of the type opens in (their own choice, else
 * their role's default); PUT /api/views/default {record_type, view_id}: their own choice (null: their role's again).
 * A role's default is a view's `default_role_ids`, set by those who manage roles (docs/views.md "Default views"):
 * by its owner on the view itself, or, on any view they read, PUT /api/views/role-defaults {view_id, role_ids}.
 */
export function registerDefaultViewRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const defaults = new DefaultViews(ctx);
  const permission = { resource: 'views', action: 'read' } as const;
  app.get(
    '/api/views/default',
    {
      schema: { querystring: z.object({ record_type: recordType }), response: { 200: defaultView } },
      config: { permission },
    },
    async (request) => ({ data: await defaults.of(request.user!, request.query.record_type) }),
  );
  app.put(
    '/api/views/default',
    {
      schema: {
        headers: writeHeaders,
        body: z.object({
          record_type: recordType,
          view_id: z.number().int().min(1).nullable().describe('The view to open the list in; null: the role default.'),
        }),
        response: { 200: defaultView },
      },
      config: { permission },
    },
    async (request) => {
      const chosen = await defaults.choose(request.user!, request.body.record_type, request.body.view_id);
      return {
        data: chosen,
        message:
          chosen.source === 'person' ? 'Your lists now open in this view.' : 'Your lists open as your role’s again.',
      };
    },
  );
  app.put(
    '/api/views/role-defaults',
    {
      schema: {
        headers: writeHeaders,
        body: z.object({
          view_id: z.number().int().min(1).describe('A view the person reads, of any owner.'),
          role_ids: z
            .array(z.number().int().min(1))
            .max(100)
            .describe(
              'The roles whose default view of its type it is from now on (each one it is shared with); [] none.',
            ),
        }),
        response: { 200: z.object({ data: record, message: z.string() }).meta({ id: 'RoleDefaults' }) },
      },
      // Those who manage roles (role:update), as the views resource's sharing checks say.
      config: { permission: 'role:update' },
    },
    async (request) => {
      const view = await defaults.setRoleDefaults(request.user!, request.body.view_id, request.body.role_ids);
      const count = request.body.role_ids.length;
      return {
        data: view,
        message: count
          ? `The view "${view.name}" is the default of ${count} role${count === 1 ? '' : 's'}.`
          : `The view "${view.name}" is no role's default.`,
      };
    },
  );
}
