import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ImportRecordType } from '../../common/import-targets.js';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import { temporaryFolder } from '../files/file-store.js';
import {
  answer,
  csvFile,
  filePart,
  idParams,
  messageAnswer,
  multipart,
  noBody,
  noQuery,
  recordAnswer,
  rowWith,
} from '../http/contracts.js';
import { forbidden, ValidationError } from '../http/errors.js';
import { socketOf } from '../records/routes.js';
import { keepImportFiles, removeImportFiles, type StoredFile } from './import-files.js';
import type { ImportService } from './import-service.js';
import { type ImporterService, importerFile } from './importer-service.js';
import type { ImporterConfig } from './mapper.js';
import { previewFile } from './preview.js';
import { PREVIEW_RECORDS, receiveCsvUpload, removeFiles } from './uploads.js';

const page = (value: unknown) => Math.max(1, Number(value ?? 1) || 1);
const perPage = (value: unknown, fallback: number, max: number) =>
  Math.min(max, Math.max(1, Number(value ?? fallback) || fallback));

/** A page of an import's rows (out of range values are brought into range). */
const pageQuery = z.object({ page: z.string().optional(), per_page: z.string().optional() });
const rowsPage = z.object({ data: z.array(rowWith({})), meta: rowWith({ total: z.number().int() }) });

/** The files of an import (`files[]`), the importer that reads them, and the import's name. */
const importUpload = multipart({
  'files[]': z.array(filePart).describe('The CSV or .xlsx files (files or files[]).'),
  importer_id: z.string(),
  name: z.string().optional(),
  sheet: z
    .string()
    .optional()
    .describe(
      'Of an .xlsx workbook: the sheet to read, by name or position from 1 (sent before the file); the first when absent.',
    ),
});

/** A file to preview with a saved importer (`importer_id`) or one not saved yet (`importer`, JSON). */
const previewUpload = multipart({
  file: filePart,
  importer_id: z.string().optional(),
  importer: z.string().optional().describe('An importer (JSON) not saved yet.'),
  record_type: z.string().optional(),
  sheet: z
    .string()
    .optional()
    .describe(
      'Of an .xlsx workbook: the sheet to read, by name or position from 1 (sent before the file); the first when absent.',
    ),
});

/**
 * Import routes beyond the generic ones (SPEC section 7): uploads (POST /api/imports, multipart files[]), preview,
 * the error report, failed rows, what an import wrote, undo.
 */
export function registerImportRoutes(
  fastify: FastifyInstance,
  ctx: AppContext,
  imports: ImportService,
  importers: ImporterService,
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/imports',
    {
      schema: { body: importUpload, response: { 201: recordAnswer } },
      config: { permission: 'import:create', heavy: true },
    },
    async (request, reply) => {
      const user = request.user!;
      if (!can(user, 'import:create')) throw forbidden('You do not have permission to import files.');
      const upload = await receiveCsvUpload(request, ctx, temporaryFolder(ctx.config));
      let kept: StoredFile[] = [];
      try {
        if (!upload.files.length) throw new ValidationError({ files: ['Choose at least one CSV file to import.'] });
        const importerId = Number(upload.fields.importer_id);
        if (!Number.isInteger(importerId) || importerId < 1)
          throw new ValidationError({ importer_id: ['Choose the importer that reads these files.'] });
        const importer = await importers.config(importerId);
        if (!importer) throw new ValidationError({ importer_id: ['The selected importer does not exist.'] });
        const files = (kept = await keepImportFiles(ctx.files, upload.files));
        const name =
          (upload.fields.name ?? '').trim().slice(0, 200) ||
          (files.length === 1 ? files[0].name : `${files[0].name} and ${files.length - 1} more`);
        const record = await imports.start(user, importer, files, name, socketOf(request));
        return reply.status(201).send({ data: record, message: 'Your import has started.' });
      } catch (error) {
        await removeFiles(upload.files);
        await removeImportFiles(ctx.files, kept);
        throw error;
      }
    },
  );

  /** The first rows of a file as the importer would map them, with the errors they would produce. Nothing is written. */
  app.post(
    '/api/imports/preview',
    {
      schema: {
        body: previewUpload,
        response: {
          200: answer(
            rowWith({
              headers: z.array(z.string()),
              sheets: z.array(z.string()).optional().describe("An .xlsx workbook's sheets, in the file's order."),
              sheet: z.string().optional().describe('The sheet previewed.'),
            }),
          ),
        },
      },
      config: { permission: { anyOf: ['import:create', 'importer:update', 'importer:create'] }, heavy: true },
    },
    async (request) => {
      const user = request.user!;
      if (!can(user, 'import:create') && !can(user, 'importer:update') && !can(user, 'importer:create'))
        throw forbidden('You do not have permission to import files.');
      const folder = await mkdtemp(path.join(os.tmpdir(), 'om-preview-'));
      try {
        const upload = await receiveCsvUpload(request, ctx, folder, { maxFiles: 1, headRecords: PREVIEW_RECORDS });
        const file = upload.files[0];
        if (!file) throw new ValidationError({ files: ['Choose a CSV file to preview.'] });
        let importer: ImporterConfig | null = null;
        if (upload.fields.importer) {
          const parsed = importerFile.safeParse(JSON.parse(upload.fields.importer));
          if (!parsed.success) throw new ValidationError({ importer: ['The importer sent for preview is not valid.'] });
          importer = {
            id: 0,
            key_target: null,
            create_related: true,
            all_or_nothing: false,
            protected_fields: [],
            defaults: {},
            columns: [],
            rules: [],
            ...parsed.data,
            description: undefined,
          } as unknown as ImporterConfig;
        } else if (upload.fields.importer_id) {
          importer = await importers.config(Number(upload.fields.importer_id));
        }
        const preview = await previewFile(
          ctx,
          file,
          importer,
          (upload.fields.record_type as ImportRecordType) || 'site',
        );
        const workbook = file.workbook ? { sheets: file.workbook.sheets, sheet: file.workbook.sheet ?? undefined } : {};
        return { data: { ...preview, ...workbook } };
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  );

  // The error report: the failed rows as CSV, with their reasons.
  for (const method of ['GET', 'POST'] as const)
    app.route({
      method,
      url: '/api/imports/:id/download',
      schema: {
        params: idParams,
        ...(method === 'POST' ? { body: noBody } : { querystring: noQuery }),
        response: { 200: csvFile },
      },
      config: { permission: { resource: 'imports', action: 'read' } },
      handler: async (request, reply) => {
        const { fileName, csv } = await imports.errorReport(request.user, request.params.id);
        reply.header('content-type', 'text/csv; charset=utf-8');
        reply.header('content-disposition', `attachment; filename="${fileName}"`);
        return reply.send(csv);
      },
    });

  app.get(
    '/api/imports/:id/failures',
    {
      schema: { params: idParams, querystring: pageQuery, response: { 200: rowsPage } },
      config: { permission: { resource: 'imports', action: 'read' } },
    },
    async (request) =>
      imports.failures(
        request.user,
        request.params.id,
        page(request.query.page),
        perPage(request.query.per_page, 50, 200),
      ),
  );

  /** What the import wrote: records created or updated, with their names (for links on the show page). */
  app.get(
    '/api/imports/:id/records',
    {
      schema: { params: idParams, querystring: pageQuery, response: { 200: rowsPage } },
      config: { permission: { resource: 'imports', action: 'read' } },
    },
    async (request) =>
      imports.writtenRecords(
        request.user!,
        request.params.id,
        page(request.query.page),
        perPage(request.query.per_page, 25, 100),
      ),
  );

  app.post(
    '/api/imports/:id/undo',
    {
      schema: { params: idParams, body: noBody, response: { 202: recordAnswer, 409: messageAnswer } },
      config: { permission: { resource: 'imports', action: 'read' }, heavy: true },
    },
    async (request, reply) => {
      const updated = await imports.requestUndo(request.user!, request.params.id);
      return reply.status(202).send({
        data: updated,
        message: 'Undoing the import: what it created is being removed and what it changed put back.',
      });
    },
  );
}
