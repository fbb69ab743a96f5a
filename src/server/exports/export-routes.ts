import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseBody } from '../http/parse-body.js';
import { idParam, socketOf } from '../records/routes.js';
import { BACKGROUND_THRESHOLD, type ExportService, parseExportQuery } from './export-service.js';

const startBody = z.object({
  resource: z.string().min(1).max(80),
  params: z.record(z.string(), z.any()).default({}),
  columns: z.array(z.string().max(100)).max(300).default([]),
});

/**
 * CSV exports of any list (SPEC section 7 `exports`): GET /api/exports/download streams the list with its filters,
 * sort and columns; big lists (or `background=1`) become a background export with a download when done. A person's
 * exports are listed and shown here (the generic routes would ask for export:read).
 */
export function registerExportRoutes(app: FastifyInstance, exports: ExportService) {
  // A person's own exports: those who may export see the ones they made.
  const ownExports = {
    config: { permission: { anyOf: [{ resource: 'exports', action: 'read' }, 'export:create'] } },
  } as const;
  app.get('/api/exports/download', { config: { permission: 'export:create', heavy: true } }, async (request, reply) => {
    const user = request.user!;
    exports.assertMayExport(user);
    const query = parseExportQuery(request.query as Record<string, unknown>);
    const { def, total } = await exports.check(user, query);
    const background = (request.query as any).background === '1' || total > BACKGROUND_THRESHOLD;
    if (background) {
      const record = await exports.start(user, query);
      return reply.status(202).send({
        data: record,
        message: `The export of ${total.toLocaleString('en')} rows has started; it will be ready to download shortly.`,
      });
    }
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${exports.fileName(query.resource)}"`);
    reply.header('x-total-count', String(total));
    return reply.send(Readable.from(exports.stream(user, def, query)));
  });

  app.post('/api/exports', { config: { permission: 'export:create', heavy: true } }, async (request, reply) => {
    const user = request.user!;
    exports.assertMayExport(user);
    const body = parseBody(startBody, request.body);
    await exports.check(user, body);
    const record = await exports.start(user, body, socketOf(request));
    return reply.status(201).send({ data: record, message: 'The export has started.' });
  });

  app.get('/api/exports', ownExports, async (request) =>
    exports.list(request.user, request.query as Record<string, unknown>),
  );
  app.get<{ Params: { id: number } }>(
    '/api/exports/:id',
    { schema: { params: idParam }, ...ownExports },
    async (request) => ({ data: await exports.show(request.user, request.params.id) }),
  );

  app.get<{ Params: { id: number } }>(
    '/api/exports/:id/download',
    { schema: { params: idParam }, ...ownExports },
    async (request, reply) => {
      const file = await exports.file(request.user, request.params.id);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-length', String(file.size));
      reply.header('content-disposition', `attachment; filename="${file.name}"`);
      return reply.send(file.stream);
    },
  );
}
