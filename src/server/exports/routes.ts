import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { forbidden, HttpError, notFound } from '../http/errors.js';
import { parseBody } from '../http/parse-body.js';
import { enqueueJob } from '../jobs/queue.js';
import { idParam, socketOf } from '../records/routes.js';
import { BACKGROUND_THRESHOLD, EXPORT_JOB, ExportService, parseExportQuery } from './export-service.js';

const fileName = (resource: string) => `${resource.replace(/[^\w-]+/g, '-')}-${new Date().toISOString().slice(0, 10)}.csv`;

/**
 * CSV exports of any list (SPEC section 7 `exports`): GET /api/exports/download streams the list with its filters,
 * sort and columns; big lists (or `background=1`) become a background export with a download when done.
 */
export function registerExportRoutes(app: FastifyInstance, ctx: AppContext, options: { wake: () => void }) {
  const service = new ExportService(ctx);
  const exportsDef = () => ctx.resources.get('exports')!;

  const startBackground = async (userId: number, request: ReturnType<typeof parseExportQuery>) => {
    const row = await ctx.db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('exports')
        .values({ user_id: userId, resource: request.resource, params: JSON.stringify(request.params), columns: JSON.stringify(request.columns), status: 'pending', file_name: fileName(request.resource) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await enqueueJob(trx, EXPORT_JOB, { export_id: created.id });
      return created;
    });
    options.wake();
    return row.id as number;
  };

  app.get('/api/exports/download', { config: { permission: 'export:create' } }, async (request, reply) => {
    const user = request.user!;
    if (!can(user, 'export:create')) throw forbidden('You do not have permission to export lists.');
    const query = parseExportQuery(request.query as Record<string, unknown>);
    const def = service.definition(query.resource);
    await service.columnsOf(def, query.columns); // unknown columns: 422 before anything is sent
    const total = await service.count(user, def, query.params); // also checks read permission and the filters
    const background = (request.query as any).background === '1' || total > BACKGROUND_THRESHOLD;
    if (background) {
      const id = await startBackground(user.id, query);
      const record = await ctx.records.show(asOwner(user), exportsDef(), id);
      return reply.status(202).send({ data: record, message: `The export of ${total.toLocaleString('en')} rows has started; it will be ready to download shortly.` });
    }
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${fileName(query.resource)}"`);
    reply.header('x-total-count', String(total));
    return reply.send(Readable.from(service.stream(user, def, query)));
  });

  app.post('/api/exports', { config: { permission: 'export:create' } }, async (request, reply) => {
    const user = request.user!;
    if (!can(user, 'export:create')) throw forbidden('You do not have permission to export lists.');
    const body = parseBody(
      z.object({ resource: z.string().min(1).max(80), params: z.record(z.string(), z.any()).default({}), columns: z.array(z.string().max(100)).max(300).default([]) }),
      request.body,
    );
    const def = service.definition(body.resource);
    await service.columnsOf(def, body.columns);
    await service.count(user, def, body.params);
    const id = await startBackground(user.id, body);
    const record = await ctx.records.show(asOwner(user), exportsDef(), id);
    await ctx.records.announce(exportsDef(), record, ['ModelCreated', 'ModelSaved'], socketOf(request));
    return reply.status(201).send({ data: record, message: 'The export has started.' });
  });

  /** A person who may export reads their own exports (rows are always filtered to their own: ownerColumn). */
  const asOwner = (user: AuthUser | null) => {
    if (!user) return user;
    if (!can(user, 'export:create') || can(user, 'export:read')) return user;
    return { ...user, permissions: [...user.permissions, 'export:read'] };
  };
  const ownExports = { config: { permission: { anyOf: [{ resource: 'exports', action: 'read' }, 'export:create'] } } } as const;
  app.get('/api/exports', ownExports, async (request) => ctx.records.list(asOwner(request.user), exportsDef(), request.query as Record<string, unknown>));
  app.get<{ Params: { id: number } }>('/api/exports/:id', { schema: { params: idParam }, ...ownExports }, async (request) => ({ data: await ctx.records.show(asOwner(request.user), exportsDef(), request.params.id) }));

  app.get<{ Params: { id: number } }>('/api/exports/:id/download', { schema: { params: idParam }, ...ownExports }, async (request, reply) => {
    const record = await ctx.records.show(asOwner(request.user), exportsDef(), request.params.id);
    if (record.status !== 'complete') throw new HttpError(409, record.status === 'failed' ? `This export failed: ${record.message ?? 'unknown error'}.` : 'This export is not ready yet.');
    const row = await ctx.db.selectFrom('exports').select(['storage_path', 'file_name']).where('id', '=', record.id).executeTakeFirstOrThrow();
    const size = await stat(row.storage_path).then((s) => s.size).catch(() => null);
    if (size === null) throw notFound('The export file is no longer there; export the list again.');
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-length', String(size));
    reply.header('content-disposition', `attachment; filename="${row.file_name ?? `export-${record.id}.csv`}"`);
    return reply.send(createReadStream(row.storage_path));
  });

  return service;
}
