import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { InputLimitError } from '../config/input-limits.js';
import { answer, filePart, idParams, multipart, noQuery, record, recordAnswer, rowWith } from '../http/contracts.js';
import { ValidationError } from '../http/errors.js';
import { parseBody } from '../http/parse-body.js';
import { socketOf } from '../records/routes.js';
import { cleanHeaders } from './csv-reader.js';
import { type ImporterService, importerFile } from './importer-service.js';
import { receiveCsvUpload } from './uploads.js';

/** An importer file, as text (JSON). */
/** A list of headers; held to the columns a file may have (INPUT_MAX_COLUMNS) when it is read. */
const columnsBody = z.object({
  importer_id: z.coerce.number().int().min(1),
  headers: z.array(z.string().max(200)),
});

/** An importer's column: the header it reads and the target it fills (importers/mapper.ts ImporterConfig). */
const importerColumn = rowWith({ header: z.string() });

/** The target catalogue by record type, the rule operators and actions (ImporterService.targets). */
const targetsAnswer = z.object({
  /** By record type: its name, targets, key targets and fields. */
  data: z.record(z.string(), z.unknown()),
  operators: z.array(z.object({ id: z.string(), name: z.string() })),
  actions: z.array(z.object({ id: z.string(), name: z.string() })),
});

/**
 * Importer routes beyond the generic ones: the target catalogue, an importer exported as a file and imported from
 * one, reordering, and column suggestions from a sample file (POST /api/importer-columns/import).
 */
export function registerImporterRoutes(fastify: FastifyInstance, ctx: AppContext, importers: ImporterService) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/importers/targets',
    {
      schema: { querystring: z.object({ record_type: z.string().optional() }), response: { 200: targetsAnswer } },
      config: { permission: { anyOf: ['importer:read', 'import:create'] } },
    },
    async (request) => importers.targets(request.user!, request.query.record_type),
  );

  /** An importer as a file (JSON) another installation can import. */
  app.get(
    '/api/importers/:id/export',
    {
      schema: {
        params: idParams,
        querystring: noQuery,
        response: {
          200: {
            description: 'The importer file.',
            content: { 'application/json': { schema: importerFile.passthrough() } },
          },
        },
      },
      config: { permission: { resource: 'importers', action: 'read' } },
    },
    async (request, reply) => {
      const { file, fileName } = await importers.exportFile(request.user, request.params.id);
      reply.header('content-type', 'application/json; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${fileName}"`);
      // Indented: the file is for people to read and keep as well as to import.
      return reply.serializer((payload) => JSON.stringify(payload, null, 2)).send(file);
    },
  );

  /** Creates an importer from an exported file: JSON body, or multipart with the file as `file`. */
  app.post(
    '/api/importers/import',
    {
      schema: {
        body: {
          content: {
            'application/json': { schema: importerFile.passthrough() },
            ...multipart({ file: filePart.describe('An importer file (.json) exported from this application.') })
              .content,
          },
        },
        response: { 201: recordAnswer },
      },
      config: { permission: { resource: 'importers', action: 'create' } },
    },
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
  app.post(
    '/api/importers/:id/reorder',
    {
      schema: {
        params: idParams,
        body: z.object({ position: z.coerce.number().int().min(0).max(100_000) }),
        response: { 200: answer(z.array(record)) },
      },
      config: { permission: { resource: 'importers', action: 'update' } },
    },
    async (request) => {
      importers.assertMayEdit(request.user);
      const { position } = request.body;
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
    {
      schema: {
        body: {
          content: {
            'application/json': { schema: columnsBody },
            ...multipart({ file: filePart.describe('A sample CSV file.'), importer_id: z.string() }).content,
          },
        },
        response: { 201: z.object({ data: z.array(importerColumn), added: z.number().int(), message: z.string() }) },
      },
      config: { permission: { resource: 'importers', action: 'update' }, heavy: true },
    },
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
        const body = request.body as z.infer<typeof columnsBody>;
        // The limit as it is now (the settings' input limits, docs/settings.md).
        const { columns } = ctx.config.limits;
        if (body.headers.length > columns)
          throw new ValidationError({
            headers: [`There are more than ${columns} headers; the most a file may have is ${columns} columns.`],
          });
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
