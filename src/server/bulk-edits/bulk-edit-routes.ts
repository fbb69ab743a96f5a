import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answer, idParams, messageAnswer, noBody, noQuery, rowWith } from '../http/contracts.js';
import { type BulkEditService, startBody } from './bulk-edit-service.js';

/** A bulk edit as presented: its row (resource, field, value, counts, status) and its progress. */
const bulkEdit = rowWith({ id: z.number().int(), status: z.string(), progress: z.number() });
/** With the records refused (the first 200) and why. */
const bulkEditShown = rowWith({
  id: z.number().int(),
  status: z.string(),
  progress: z.number(),
  refusals: z.array(z.object({ id: z.number().int(), name: z.string(), reason: z.string().nullable() })),
});

/**
 * Bulk edits of any record list (docs/api.md): start one (202, the job runs in the background), follow it, undo it.
 * Any signed-in person may ask; the service checks update permission on the list named in the body, and only the
 * person who made a bulk edit sees or undoes it.
 */
export function registerBulkEditRoutes(fastify: FastifyInstance, bulkEdits: BulkEditService) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const own = { permission: 'signed-in' } as const;
  const heavy = { permission: 'signed-in', heavy: true } as const;

  app.post(
    '/api/bulk-edits',
    { schema: { body: startBody, response: { 202: answer(bulkEdit) } }, config: heavy },
    async (request, reply) => {
      const data = await bulkEdits.start(request.user!, request.body);
      return reply
        .status(202)
        .send({ data, message: `Changing ${data.total.toLocaleString('en')} record${data.total === 1 ? '' : 's'}.` });
    },
  );

  app.get(
    '/api/bulk-edits/:id',
    {
      schema: {
        params: idParams,
        querystring: noQuery,
        response: { 200: answer(bulkEditShown) },
      },
      config: own,
    },
    async (request) => ({ data: await bulkEdits.show(request.user!, request.params.id) }),
  );

  app.post(
    '/api/bulk-edits/:id/undo',
    {
      schema: { params: idParams, body: noBody, response: { 202: answer(bulkEdit), 409: messageAnswer } },
      config: heavy,
    },
    async (request, reply) => {
      const data = await bulkEdits.requestUndo(request.user!, request.params.id);
      return reply
        .status(202)
        .send({ data, message: 'Undoing the bulk edit: every record it changed gets its value back.' });
    },
  );
}
