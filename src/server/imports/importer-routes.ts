import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { InputLimitError } from '../config/input-limits.js';
import { ValidationError } from '../http/errors.js';
import { parseBody } from '../http/parse-body.js';
import { idParam, socketOf } from '../records/routes.js';
import { cleanHeaders } from './csv-reader.js';
import { type ImporterService, importerFile } from './importer-service.js';
import { receiveCsvUpload } from './uploads.js';

/**
 * Importer routes beyond the generic ones: the target catalogue, an importer exported as a file and imported from
 * one, reordering, and column suggestions from a sample file (POST /api/importer-columns/import).
 */
export function registerImporterRoutes(app: FastifyInstance, ctx: AppContext, importers: ImporterService) {
  app.get<{ Querystring: { record_type?: string } }>(
    '/api/importers/targets',
    { config: { permission: { anyOf: ['importer:read', 'import:create'] } } },
    async (request) => importers.targets(request.user!, request.query.record_type),
  );

  /** An importer as a file (JSON) another installation can import. */
  app.get<{ Params: { id: number } }>(
    '/api/importers/:id/export',
    { schema: { params: idParam }, config: { permission: { resource: 'importers', action: 'read' } } },
    async (request, reply) => {
      const { file, fileName } = await importers.exportFile(request.user, request.params.id);
      reply.header('content-type', 'application/json; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${fileName}"`);
      return reply.send(JSON.stringify(file, null, 2));
    },
  );

  /** Creates an importer from an exported file: JSON body, or multipart with the file as `file`. */
  app.post(
    '/api/importers/import',
    { config: { permission: { resource: 'importers', action: 'create' } } },
    async (request, reply) => {
      let body: unknown = request.body;
      if (request.isMultipart()) {
        // An importer file is a JSON body sent as a file: the body's limit (BODY_LIMIT_BYTES) is its limit.
        const { limits } = ctx.config;
        const part = await request.file({ limits: { fileSize: limits.bodyBytes } });
        if (!part) throw new ValidationError({ file: ['Choose the importer file (.json) to import.'] });
        let text: string;
        try {
          text = (await part.toBuffer()).toString('utf8');
        } catch (error) {
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw new InputLimitError('bodyBytes', limits, { field: 'file' });
          throw error;
        }
        try {
          body = JSON.parse(text);
        } catch {
          throw new ValidationError({
            file: ['The file is not an importer file (JSON) exported from this application.'],
          });
        }
      }
      const record = await importers.createFromFile(
        request.user,
        parseBody(importerFile.passthrough(), body),
        socketOf(request),
      );
      return reply.status(201).send({ data: record, message: 'Importer imported successfully.' });
    },
  );

  /** Moves an importer to `position` (0-based) in the list; the others shift. */
  app.post<{ Params: { id: number } }>(
    '/api/importers/:id/reorder',
    { schema: { params: idParam }, config: { permission: { resource: 'importers', action: 'update' } } },
    async (request) => {
      importers.assertMayEdit(request.user);
      const { position } = parseBody(z.object({ position: z.coerce.number().int().min(0).max(100_000) }), request.body);
      return {
        data: await importers.reorder(request.user!, request.params.id, position, socketOf(request)),
        message: 'Importers reordered successfully.',
      };
    },
  );

  /**
   * Columns for an importer from a sample file's header (multipart `file` + `importer_id`) or a list of headers
   * (JSON `{importer_id, headers}`): each header not yet mapped gets a column with the suggested target.
   */
  app.post(
    '/api/importer-columns/import',
    { config: { permission: { resource: 'importers', action: 'update' }, heavy: true } },
    async (request, reply) => {
      importers.assertMayEdit(request.user);
      let headers: string[] = [];
      let importerId: number;
      if (request.isMultipart()) {
        const folder = await mkdtemp(path.join(os.tmpdir(), 'om-columns-'));
        try {
          const upload = await receiveCsvUpload(request, ctx, folder, { maxFiles: 1 });
          importerId = Number(upload.fields.importer_id);
          const file = upload.files[0];
          if (!file) throw new ValidationError({ file: ['Choose a sample CSV file.'] });
          // The header, as the upload's worker read it while the file arrived.
          headers = cleanHeaders(file.head?.find((r) => r.index === -1)?.cells ?? []);
        } finally {
          await rm(folder, { recursive: true, force: true });
        }
      } else {
        const { columns } = ctx.config.limits;
        const body = parseBody(
          z.object({
            importer_id: z.coerce.number().int().min(1),
            headers: z
              .array(z.string().max(200))
              .max(columns, `There are more than ${columns} headers; the most a file may have is ${columns} columns.`),
          }),
          request.body,
        );
        importerId = body.importer_id;
        headers = cleanHeaders(body.headers);
      }
      const { columns, added } = await importers.addColumnsFromHeaders(
        request.user!,
        importerId!,
        headers,
        socketOf(request),
      );
      return reply.status(201).send({
        data: columns,
        added,
        message: `${added} column${added === 1 ? '' : 's'} added from the file's header.`,
      });
    },
  );
}
