import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { parseFilterTree } from '../filters/filter-tree.js';
import { idParams, messageAnswer, recordAnswer, recordInput } from '../http/contracts.js';
import { fieldError } from '../http/errors.js';
import { writeAnswer, writeHeaders, writeOptionsOf } from '../records/routes.js';
import { viewSorts, viewsResource } from './views-resource.js';

/**
 * POST /api/views and POST|PUT|PATCH /api/views/{id}: the generic writes of a record, after checking what the view
 * names against what the person may read: its record type, and its filters, sorts and grouping as a list of that
 * type would take them (422 naming the field otherwise). The answer is the view, with its `url` in the app.
 * Reads, deletes and restores are the generic routes'.
 */
export function registerViewRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const def = viewsResource;

  /** The record type a view shows, as this person may list it; 422 on `record_type` otherwise. */
  const typeOf = (user: AuthUser | null, type: unknown) => {
    const target = typeof type === 'string' ? ctx.resources.byType(type) : undefined;
    if (!target || !user || !ctx.records.access.mayRead(user, target) || target === def)
      throw fieldError('record_type', `There is no record type "${String(type)}" you may read.`);
    return target;
  };

  /**
   * What the view will hold, checked as a list of its type: the filters, sorts and grouping sent (those kept are not
   * checked again: a view naming a field deleted since still opens, and can still be renamed or shared).
   */
  const check = async (user: AuthUser | null, recordType: unknown, values: Record<string, unknown>) => {
    const target = typeOf(user, recordType);
    const filters = values.filters == null ? null : parseFilterTree(values.filters);
    const sorts = viewSorts.safeParse(values.sorts ?? []);
    await ctx.records.checkListQuery(user, target, filters ? { filters: JSON.stringify(filters) } : {}, {
      sorts: sorts.success ? sorts.data : [],
      groupBy: typeof values.group_by === 'string' ? values.group_by : null,
    });
    // Kept as parsed: a condition alone becomes a group of one.
    return filters ? { ...values, filters } : values;
  };

  const options = (request: FastifyRequest) => writeOptionsOf(request);

  app.post(
    '/api/views',
    {
      schema: { headers: writeHeaders, body: recordInput, response: { 200: recordAnswer, 201: recordAnswer } },
      config: { permission: { resource: def.name, action: 'create' } },
    },
    async (request, reply) => {
      ctx.records.authorize(request.user, def, 'create');
      const values = await check(request.user, request.body.record_type, request.body);
      const written = await ctx.records.create(request.user, def, values, options(request));
      return writeAnswer(ctx, def, request, reply, written, 201);
    },
  );

  for (const method of ['POST', 'PUT', 'PATCH'] as const)
    app.route({
      method,
      url: '/api/views/:id',
      schema: {
        params: idParams,
        headers: writeHeaders,
        body: recordInput,
        response: { 200: recordAnswer, 409: messageAnswer },
      },
      config: { permission: { resource: def.name, action: 'update' } },
      handler: async (request, reply) => {
        const existing = await ctx.records.show(request.user, def, request.params.id);
        const values = await check(request.user, existing.record_type, request.body);
        const written = await ctx.records.update(request.user, def, request.params.id, values, options(request));
        return writeAnswer(ctx, def, request, reply, written, 200);
      },
    });
}
