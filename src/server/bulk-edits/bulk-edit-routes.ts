import type { FastifyInstance } from 'fastify';
import { idParam } from '../records/routes.js';
import type { BulkEditService } from './bulk-edit-service.js';

/**
 * Bulk edits of any record list (docs/api.md): start one (202, the job runs in the background), follow it, undo it.
 * Any signed-in person may ask; the service checks update permission on the list named in the body, and only the
 * person who made a bulk edit sees or undoes it.
 */
export function registerBulkEditRoutes(app: FastifyInstance, bulkEdits: BulkEditService) {
  const own = { config: { permission: 'signed-in' } } as const;
  const heavy = { config: { permission: 'signed-in', heavy: true } } as const;

  app.post('/api/bulk-edits', heavy, async (request, reply) => {
    const data = await bulkEdits.start(request.user!, request.body);
    return reply
      .status(202)
      .send({ data, message: `Changing ${data.total.toLocaleString('en')} record${data.total === 1 ? '' : 's'}.` });
  });

  app.get<{ Params: { id: number } }>(
    '/api/bulk-edits/:id',
    { schema: { params: idParam }, ...own },
    async (request) => ({ data: await bulkEdits.show(request.user!, request.params.id) }),
  );

  app.post<{ Params: { id: number } }>(
    '/api/bulk-edits/:id/undo',
    { schema: { params: idParam }, ...heavy },
    async (request, reply) => {
      const data = await bulkEdits.requestUndo(request.user!, request.params.id);
      return reply
        .status(202)
        .send({ data, message: 'Undoing the bulk edit: every record it changed gets its value back.' });
    },
  );
}
