import { PassThrough, Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  answer,
  csvFile,
  idParams,
  listQuery,
  messageAnswer,
  noQuery,
  queryValue,
  record,
  recordAnswer,
  recordPage,
  storedFile,
} from '../http/contracts.js';
import { socketOf } from '../records/routes.js';
import { BACKGROUND_THRESHOLD, type ExportService, formatOf, parseExportQuery } from './export-service.js';
import { XLSX_TYPE } from './xlsx.js';

/** An export's file: CSV, or an .xlsx workbook (`format=xlsx`). */
const exportFile = {
  description: 'The export: a CSV file, or an Excel workbook with format=xlsx.',
  content: { ...csvFile.content, [XLSX_TYPE]: storedFile.content['application/octet-stream'] },
};

const startBody = z.object({
  resource: z.string().min(1).max(80),
  params: z.record(z.string(), z.any()).default({}),
  columns: z.array(z.string().max(100)).max(300).default([]),
  format: z.enum(['csv', 'xlsx']).default('csv'),
  ids: z.boolean().default(false).describe('Write ids and raw keys beside the names.'),
});

/** The list to export: its resource, columns and the list's own query (filters, sort, search) beside them. */
const downloadQuery = listQuery.extend({
  resource: z.string().optional().describe('The list to export (sites, contacts...).'),
  columns: queryValue.optional().describe('The fields to export, in order (a,b,c or columns[]=).'),
  background: z.string().optional().describe('1: always as a background export (a file to download when done).'),
  format: z.string().optional().describe('csv (the default) or xlsx: an Excel workbook.'),
  ids: z.string().optional().describe("1: write the id and each name's raw key beside it."),
});

/**
 * CSV exports of any list (SPEC section 7 `exports`): GET /api/exports/download streams the list with its filters,
 * sort and columns; big lists (or `background=1`) become a background export with a download when done. A person's
 * exports are listed and shown here (the generic routes would ask for export:read).
 */
export function registerExportRoutes(fastify: FastifyInstance, exports: ExportService) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // A person's own exports: those who may export see the ones they made.
  const ownExports = { permission: { anyOf: [{ resource: 'exports', action: 'read' }, 'export:create'] } } as const;
  app.get(
    '/api/exports/download',
    {
      schema: { querystring: downloadQuery, response: { 200: exportFile, 202: answer(record) } },
      config: { permission: 'export:create', heavy: true },
    },
    async (request, reply) => {
      const user = request.user!;
      exports.assertMayExport(user);
      const query = parseExportQuery(request.query);
      const { def, total } = await exports.check(user, query);
      const background = request.query.background === '1' || total > BACKGROUND_THRESHOLD;
      if (background) {
        const record = await exports.start(user, query);
        return reply.status(202).send({
          data: record,
          message: `The export of ${total.toLocaleString('en')} rows has started; it will be ready to download shortly.`,
        });
      }
      reply.header('content-disposition', `attachment; filename="${exports.fileName(query.resource, query.format)}"`);
      reply.header('x-total-count', String(total));
      if (query.format === 'xlsx') {
        reply.header('content-type', XLSX_TYPE);
        const out = new PassThrough();
        exports.writeXlsx(user, def, query, out).catch((error) => out.destroy(error));
        return reply.send(out);
      }
      reply.header('content-type', 'text/csv; charset=utf-8');
      return reply.send(Readable.from(exports.stream(user, def, query)));
    },
  );

  app.post(
    '/api/exports',
    {
      schema: { body: startBody, response: { 201: recordAnswer } },
      config: { permission: 'export:create', heavy: true },
    },
    async (request, reply) => {
      const user = request.user!;
      exports.assertMayExport(user);
      await exports.check(user, request.body);
      const record = await exports.start(user, request.body, socketOf(request));
      return reply.status(201).send({ data: record, message: 'The export has started.' });
    },
  );

  app.get(
    '/api/exports',
    { schema: { querystring: listQuery, response: { 200: recordPage } }, config: ownExports },
    async (request) => exports.list(request.user, request.query),
  );
  app.get(
    '/api/exports/:id',
    { schema: { params: idParams, querystring: noQuery, response: { 200: recordAnswer } }, config: ownExports },
    async (request) => ({ data: await exports.show(request.user, request.params.id) }),
  );

  app.get(
    '/api/exports/:id/download',
    {
      schema: { params: idParams, querystring: noQuery, response: { 200: exportFile, 409: messageAnswer } },
      config: ownExports,
    },
    async (request, reply) => {
      const file = await exports.file(request.user, request.params.id);
      reply.header('content-type', formatOf(file.name) === 'xlsx' ? XLSX_TYPE : 'text/csv; charset=utf-8');
      reply.header('content-length', String(file.size));
      reply.header('content-disposition', `attachment; filename="${file.name}"`);
      return reply.send(file.stream);
    },
  );
}
