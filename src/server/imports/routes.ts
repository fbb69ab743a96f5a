import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { can, canOnEntity } from '../../common/permissions.js';
import { IMPORT_RECORD_TYPES, KEY_TARGETS, suggestTargets, targetsFor, type ImportRecordType } from '../../common/import-targets.js';
import { RULE_OPERATORS, OPERATOR_LABELS } from '../../common/import-rules.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { forbidden, HttpError, ValidationError } from '../http/errors.js';
import { parseBody } from '../http/parse-body.js';
import { idParam, socketOf } from '../records/routes.js';
import { createBatchValidator, reasonOf } from '../records/batch-writer.js';
import { writeCsv } from '../exports/csv.js';
import { enqueueJob } from '../jobs/queue.js';
import { cleanHeaders, isBlankRecord, readCsv } from './csv-reader.js';
import { createMapper, keyFieldOf, type ImporterConfig } from './mapper.js';
import { IMPORT_JOB, IMPORT_UNDO_JOB, type StoredFile } from './processor.js';
import { withSetValues } from '../records/form-logic-outcome.js';
import { importerProblems } from './importer-problems.js';
import { definitionFor } from './record-types.js';
import { receiveCsvUpload, removeFiles } from './uploads.js';

const PREVIEW_ROWS = 20;

/** An importer with its columns and rules, as the job and the preview use it (a snapshot is kept with each import). */
export async function loadImporter(db: Kysely<any>, id: number): Promise<ImporterConfig | null> {
  const row = await db.selectFrom('importers').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!row) return null;
  const [columns, rules] = await Promise.all([
    db.selectFrom('importer_columns').select(['header', 'target']).where('importer_id', '=', id).orderBy('position').orderBy('id').execute(),
    db.selectFrom('importer_rules').select(['source', 'operator', 'value', 'action', 'action_value']).where('importer_id', '=', id).orderBy('position').orderBy('id').execute(),
  ]);
  return {
    id: row.id,
    name: row.name,
    record_type: row.record_type,
    key_target: row.key_target,
    create_related: row.create_related,
    all_or_nothing: row.all_or_nothing,
    protected_fields: row.protected_fields ?? [],
    defaults: row.defaults ?? {},
    columns: columns as ImporterConfig['columns'],
    rules: rules as ImporterConfig['rules'],
  };
}

function mayImport(user: AuthUser, type: string) {
  return can(user, 'import:create') && (canOnEntity(user, type, 'create') || canOnEntity(user, type, 'update'));
}

const importerFile = z.object({
  name: z.string().trim().min(1).max(120),
  description: z.string().max(2_000).nullish(),
  record_type: z.enum(IMPORT_RECORD_TYPES),
  key_target: z.string().max(120).nullish(),
  create_related: z.boolean().optional(),
  all_or_nothing: z.boolean().optional(),
  protected_fields: z.array(z.string()).optional(),
  defaults: z.record(z.string(), z.any()).optional(),
  columns: z.array(z.object({ header: z.string(), target: z.string() })).optional(),
  rules: z.array(z.any()).optional(),
});

/**
 * Import routes beyond the generic ones (SPEC section 7): uploads (POST /api/imports, multipart files[]),
 * preview, error report download, undo, failed rows; importers' export/import as a file and reorder; column
 * suggestions from a sample file (POST /api/importer-columns/import); the target catalogue.
 */
export function registerImportRoutes(app: FastifyInstance, ctx: AppContext, options: { wake: () => void }) {
  const { db, records, resources } = ctx;
  const importers = () => resources.get('importers')!;
  const imports = () => resources.get('imports')!;
  const uploadFolder = path.join(ctx.config.dataDir, 'files', 'imports');

  // ---- imports ---------------------------------------------------------------------------------------------

  app.post('/api/imports', async (request, reply) => {
    const user = request.user!;
    if (!can(user, 'import:create')) throw forbidden('You do not have permission to import files.');
    const upload = await receiveCsvUpload(request, uploadFolder, ctx.config.limits.uploadBytes);
    try {
      if (!upload.files.length) throw new ValidationError({ files: ['Choose at least one CSV file to import.'] });
      const importerId = Number(upload.fields.importer_id);
      if (!Number.isInteger(importerId) || importerId < 1) throw new ValidationError({ importer_id: ['Choose the importer that reads these files.'] });
      const importer = await loadImporter(db, importerId);
      if (!importer) throw new ValidationError({ importer_id: ['The selected importer does not exist.'] });
      if (!mayImport(user, importer.record_type)) throw forbidden(`You do not have permission to import ${importer.record_type} records.`);
      const problems = importerProblems(importer, await records.fields(definitionFor(resources, importer.record_type)));
      if (problems.length) throw new ValidationError({ importer_id: problems }, `The importer “${importer.name}” needs attention: ${problems[0]}`);
      const files: StoredFile[] = upload.files;
      const name = (upload.fields.name ?? '').trim().slice(0, 200) || (files.length === 1 ? files[0].name : `${files[0].name} and ${files.length - 1} more`);
      const estimate = files.reduce((sum, f) => sum + Math.max(0, f.lines - 1), 0);
      const created = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('imports')
          .values({
            importer_id: importer.id,
            record_type: importer.record_type,
            user_id: user.id,
            name,
            status: 'pending',
            files: JSON.stringify(files),
            importer: JSON.stringify(importer),
            total_rows: estimate,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.insertInto('revisions').values({ revisionable_type: 'import', revisionable_id: row.id, action: 'created', user_id: user.impersonator?.id ?? user.id, changes: JSON.stringify({ name: [null, name] }) }).execute();
        await enqueueJob(trx, IMPORT_JOB, { import_id: row.id });
        return row;
      });
      options.wake();
      const record = await records.show(user, imports(), created.id);
      await records.announce(imports(), record, ['ModelCreated', 'ModelSaved'], socketOf(request));
      return reply.status(201).send({ data: record, message: 'Your import has started.' });
    } catch (error) {
      await removeFiles(upload.files);
      throw error;
    }
  });

  /** The first rows of a file as the importer would map them, with the errors they would produce. Nothing is written. */
  app.post('/api/imports/preview', async (request) => {
    const user = request.user!;
    if (!can(user, 'import:create') && !can(user, 'importer:update') && !can(user, 'importer:create')) throw forbidden('You do not have permission to import files.');
    const folder = await mkdtemp(path.join(os.tmpdir(), 'om-preview-'));
    try {
      const upload = await receiveCsvUpload(request, folder, ctx.config.limits.uploadBytes, { maxFiles: 1 });
      const file = upload.files[0];
      if (!file) throw new ValidationError({ files: ['Choose a CSV file to preview.'] });
      let importer: ImporterConfig | null = null;
      if (upload.fields.importer) {
        const parsed = importerFile.safeParse(JSON.parse(upload.fields.importer));
        if (!parsed.success) throw new ValidationError({ importer: ['The importer sent for preview is not valid.'] });
        importer = { id: 0, key_target: null, create_related: true, all_or_nothing: false, protected_fields: [], defaults: {}, columns: [], rules: [], ...parsed.data, description: undefined } as unknown as ImporterConfig;
      } else if (upload.fields.importer_id) {
        importer = await loadImporter(db, Number(upload.fields.importer_id));
      }
      const type: ImportRecordType = importer?.record_type ?? ((upload.fields.record_type as ImportRecordType) || 'site');
      const def = definitionFor(resources, type);
      const fields = await records.fields(def);
      const custom = Object.entries(fields).filter(([, spec]) => spec.storage === 'custom').map(([key, spec]) => ({ key, label: spec.label ?? key }));
      let headers: string[] = [];
      const rows: any[] = [];
      let mapper: ReturnType<typeof createMapper> | null = null;
      const validate = createBatchValidator(fields, def.readOnly ?? []);
      for await (const record of readCsv(file.path, file.encoding, { maxRecords: PREVIEW_ROWS * 3 })) {
        if (record.index === -1) {
          headers = cleanHeaders(record.cells);
          if (importer) mapper = createMapper(importer, headers, fields);
          continue;
        }
        if (isBlankRecord(record.cells)) continue;
        if (rows.length >= PREVIEW_ROWS) break;
        if (!mapper) {
          rows.push({ line: record.line, cells: record.cells });
          continue;
        }
        const mapped = mapper.map(record.cells, record.line, record.index);
        const errors = [...mapped.errors];
        // As a new record: the importer's defaults fill empty values (as the import job does).
        const candidate: Record<string, unknown> = { ...mapped.values };
        for (const [field, fallback] of Object.entries({ ...(type === 'site' ? { type: 'pending' } : type === 'contractor' ? { type: 'none' } : {}), ...(importer?.defaults ?? {}) })) {
          if ((candidate[field] === undefined || candidate[field] === '') && field in fields) candidate[field] = fallback;
        }
        try {
          const logic = await records.formLogic(def, candidate);
          validate(withSetValues(candidate, logic, fields, def.readOnly), { mode: 'create', hidden: logic.hidden });
        } catch (error) {
          errors.push(reasonOf(error));
        }
        rows.push({
          line: record.line,
          cells: record.cells,
          values: mapped.values,
          related: {
            trades: mapped.trades,
            status: mapped.status ?? null,
            union: mapped.union ?? null,
            classification: mapped.classification ?? null,
            craft: mapped.craft ?? null,
            contractor: mapped.contractor ?? null,
            contacts: mapped.contacts,
          },
          errors,
        });
      }
      return {
        data: {
          file: { name: file.name, size: file.size, encoding: file.encoding, lines: file.lines },
          headers,
          suggestions: suggestTargets(headers, type, custom),
          missing_columns: mapper?.missing ?? [],
          key_field: importer ? keyFieldOf(importer) : null,
          rows,
        },
      };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  const reportRoute = async (request: FastifyRequest<{ Params: { id: number } }>, reply: FastifyReply) => {
    const record = await records.show(request.user, imports(), request.params.id);
    const failures = await db.selectFrom('import_failures').select(['file_name', 'line', 'reason', 'data']).where('import_id', '=', record.id).orderBy('id').execute();
    const files = ((await db.selectFrom('imports').select('files').where('id', '=', record.id).executeTakeFirst())?.files ?? []) as StoredFile[];
    // The header of each file, so the report can show the original cells under their names.
    const headers = new Map<string, string[]>();
    for (const file of files) {
      try {
        for await (const r of readCsv(file.path, file.encoding, { maxRecords: 0 })) {
          if (r.index === -1) headers.set(file.name, cleanHeaders(r.cells));
          break;
        }
      } catch {
        /* the file is gone: report without the original cells' names */
      }
    }
    const width = Math.max(0, ...[...headers.values()].map((h) => h.length), ...failures.map((f) => ((f.data as any)?.cells ?? []).length));
    const first = [...headers.values()][0] ?? [];
    const head = ['File', 'Line', 'Reason', ...Array.from({ length: width }, (_, i) => first[i] ?? `Column ${i + 1}`)];
    const body = failures.map((f) => [f.file_name, f.line, f.reason, ...(((f.data as any)?.cells ?? []) as string[])]);
    const safeName = String(record.name).replace(/[^\w.-]+/g, '_').replace(/\.csv$/i, '');
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${safeName}-errors.csv"`);
    return reply.send(writeCsv([head, ...body]));
  };
  app.post<{ Params: { id: number } }>('/api/imports/:id/download', { schema: { params: idParam } }, reportRoute);
  app.get<{ Params: { id: number } }>('/api/imports/:id/download', { schema: { params: idParam } }, reportRoute);

  app.get<{ Params: { id: number }; Querystring: { page?: string; per_page?: string } }>('/api/imports/:id/failures', { schema: { params: idParam } }, async (request) => {
    const record = await records.show(request.user, imports(), request.params.id);
    const perPage = Math.min(200, Math.max(1, Number(request.query.per_page ?? 50) || 50));
    const page = Math.max(1, Number(request.query.page ?? 1) || 1);
    const base = db.selectFrom('import_failures').where('import_id', '=', record.id);
    const total = Number((await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await base.select(['id', 'file_name', 'line', 'reason', 'data']).orderBy('id').limit(perPage).offset((page - 1) * perPage).execute();
    return {
      data: rows.map((r) => ({ id: r.id, file_name: r.file_name, line: r.line, reason: r.reason, cells: (r.data as any)?.cells ?? [] })),
      meta: { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)), from: rows.length ? (page - 1) * perPage + 1 : null, to: rows.length ? (page - 1) * perPage + rows.length : null },
    };
  });

  /** What the import wrote: records created or updated, newest first, with their names (for links on the show page). */
  app.get<{ Params: { id: number }; Querystring: { page?: string; per_page?: string } }>('/api/imports/:id/records', { schema: { params: idParam } }, async (request) => {
    const user = request.user!;
    const record = await records.show(user, imports(), request.params.id);
    const def = definitionFor(resources, record.record_type);
    const perPage = Math.min(100, Math.max(1, Number(request.query.per_page ?? 25) || 25));
    const page = Math.max(1, Number(request.query.page ?? 1) || 1);
    const base = db.selectFrom('import_records').where('import_id', '=', record.id).where('record_type', '=', record.record_type);
    const total = Number((await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst())?.n ?? 0);
    const entries = await base.select(['record_id', 'created']).orderBy('id').limit(perPage).offset((page - 1) * perPage).execute();
    const ids = entries.map((e) => e.record_id);
    // Only records the person may read (category permissions included), with a readable label.
    const rows = ids.length && canOnEntity(user, def.permission ?? def.type, 'read')
      ? await records.visibleRows(db, def, user, 'with').selectAll('t').where('t.id', 'in', ids).execute()
      : [];
    const byId = new Map(rows.map((r: any) => [r.id, r]));
    const label = (r: any) => r.name ?? ([r.first_name, r.last_name].filter(Boolean).join(' ') || `#${r.id}`);
    return {
      data: entries.filter((e) => byId.has(e.record_id)).map((e) => {
        const r: any = byId.get(e.record_id);
        return { id: e.record_id, type: record.record_type, resource: def.name, created: e.created, name: label(r), deleted: Boolean(r.deleted_at) };
      }),
      meta: { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) },
    };
  });

  app.post<{ Params: { id: number } }>('/api/imports/:id/undo', { schema: { params: idParam } }, async (request, reply) => {
    const user = request.user!;
    const record = await records.show(user, imports(), request.params.id);
    if (!mayImport(user, record.record_type) || !(can(user, 'import:delete') || can(user, 'import:update') || record.user_id === user.id)) {
      throw forbidden('You do not have permission to undo this import.');
    }
    if (record.status === 'pending' || record.status === 'processing') throw new HttpError(409, 'This import is still running; wait for it to finish before undoing it.');
    if (record.undo_status === 'pending' || record.undo_status === 'processing') throw new HttpError(409, 'This import is already being undone.');
    if (record.undone_at) throw new HttpError(409, 'This import has already been undone.');
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('imports').set({ undo_status: 'pending', undo_user_id: user.id, updated_at: new Date() }).where('id', '=', record.id).execute();
      await enqueueJob(trx, IMPORT_UNDO_JOB, { import_id: record.id });
    });
    options.wake();
    const updated = await records.show(user, imports(), record.id);
    return reply.status(202).send({ data: updated, message: 'Undoing the import: what it created is being removed and what it changed put back.' });
  });

  // ---- importers -----------------------------------------------------------------------------------------

  app.get<{ Querystring: { record_type?: string } }>('/api/importers/targets', async (request) => {
    const user = request.user!;
    if (!can(user, 'importer:read') && !can(user, 'import:create')) throw forbidden('You do not have permission to read importers.');
    const types = request.query.record_type ? [request.query.record_type] : [...IMPORT_RECORD_TYPES];
    const data: Record<string, unknown> = {};
    for (const type of types) {
      if (!IMPORT_RECORD_TYPES.includes(type as ImportRecordType)) throw new ValidationError({ record_type: [`The record type must be one of: ${IMPORT_RECORD_TYPES.join(', ')}.`] });
      const fields = await records.fields(definitionFor(resources, type));
      const custom = Object.entries(fields).filter(([, spec]) => spec.storage === 'custom').map(([key, spec]) => ({ key, label: spec.label ?? key }));
      data[type] = {
        targets: targetsFor(type as ImportRecordType, custom).map(({ synonyms, ...target }) => target),
        keys: KEY_TARGETS[type as ImportRecordType],
        fields: Object.keys(fields).filter((f) => !['id'].includes(f)),
      };
    }
    return { data, operators: RULE_OPERATORS.map((op) => ({ id: op, name: OPERATOR_LABELS[op] })), actions: [{ id: 'trade-set', name: 'Set trade' }] };
  });

  /** An importer as a file (JSON) another installation can import. */
  app.get<{ Params: { id: number } }>('/api/importers/:id/export', { schema: { params: idParam } }, async (request, reply) => {
    const record = await records.show(request.user, importers(), request.params.id);
    const file = {
      format: 'organizing-map-importer',
      version: 1,
      name: record.name,
      description: record.description,
      record_type: record.record_type,
      key_target: record.key_target,
      create_related: record.create_related,
      all_or_nothing: record.all_or_nothing,
      protected_fields: record.protected_fields,
      defaults: record.defaults,
      columns: record.columns,
      rules: record.rules,
    };
    reply.header('content-type', 'application/json; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${String(record.slug ?? record.name).replace(/[^\w.-]+/g, '-').toLowerCase()}.importer.json"`);
    return reply.send(JSON.stringify(file, null, 2));
  });

  /** Creates an importer from an exported file: JSON body, or multipart with the file as `file`. */
  app.post('/api/importers/import', async (request, reply) => {
    let body: unknown = request.body;
    if (request.isMultipart()) {
      const part = await request.file({ limits: { fileSize: 1_048_576 } });
      if (!part) throw new ValidationError({ file: ['Choose the importer file (.json) to import.'] });
      const text = (await part.toBuffer()).toString('utf8');
      try {
        body = JSON.parse(text);
      } catch {
        throw new ValidationError({ file: ['The file is not an importer file (JSON) exported from this application.'] });
      }
    }
    const parsed = parseBody(importerFile.passthrough(), body);
    const { record } = await records.create(request.user, importers(), {
      name: parsed.name,
      description: parsed.description ?? null,
      record_type: parsed.record_type,
      key_target: parsed.key_target ?? null,
      create_related: parsed.create_related ?? true,
      all_or_nothing: parsed.all_or_nothing ?? false,
      protected_fields: parsed.protected_fields ?? [],
      defaults: parsed.defaults ?? {},
      columns: parsed.columns ?? [],
      rules: parsed.rules ?? [],
    }, { socketId: socketOf(request) });
    return reply.status(201).send({ data: record, message: 'Importer imported successfully.' });
  });

  /** Moves an importer to `position` (0-based) in the list; the others shift. */
  app.post<{ Params: { id: number } }>('/api/importers/:id/reorder', { schema: { params: idParam } }, async (request) => {
    const user = request.user!;
    const { position } = parseBody(z.object({ position: z.coerce.number().int().min(0).max(100_000) }), request.body);
    const def = importers();
    await records.show(user, def, request.params.id);
    const ordered = await db.selectFrom('importers').select(['id', 'position']).where('deleted_at', 'is', null).orderBy('position').orderBy('id').execute();
    const ids = ordered.map((r) => r.id).filter((id) => id !== request.params.id);
    ids.splice(Math.min(position, ids.length), 0, request.params.id);
    for (let i = 0; i < ids.length; i++) {
      const current = ordered.find((r) => r.id === ids[i]);
      if (current && current.position !== i) await records.update(user, def, ids[i], { position: i }, { socketId: socketOf(request) });
    }
    return { data: await records.list(user, def, { per_page: -1 }).then((r) => r.data), message: 'Importers reordered successfully.' };
  });

  /**
   * Columns for an importer from a sample file's header (multipart `file` + `importer_id`) or a list of headers
   * (JSON `{importer_id, headers}`): each header not yet mapped gets a column with the suggested target.
   */
  app.post('/api/importer-columns/import', async (request, reply) => {
    const user = request.user!;
    let headers: string[] = [];
    let importerId: number;
    if (request.isMultipart()) {
      const folder = await mkdtemp(path.join(os.tmpdir(), 'om-columns-'));
      try {
        const upload = await receiveCsvUpload(request, folder, ctx.config.limits.uploadBytes, { maxFiles: 1 });
        importerId = Number(upload.fields.importer_id);
        const file = upload.files[0];
        if (!file) throw new ValidationError({ file: ['Choose a sample CSV file.'] });
        for await (const r of readCsv(file.path, file.encoding, { maxRecords: 0 })) {
          if (r.index === -1) headers = cleanHeaders(r.cells);
          break;
        }
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    } else {
      const body = parseBody(z.object({ importer_id: z.coerce.number().int().min(1), headers: z.array(z.string().max(200)).max(500) }), request.body);
      importerId = body.importer_id;
      headers = cleanHeaders(body.headers);
    }
    const importer = await loadImporter(db, importerId!);
    if (!importer) throw new ValidationError({ importer_id: ['The selected importer does not exist.'] });
    const def = importers();
    await records.show(user, def, importer.id);
    const fields = await records.fields(definitionFor(resources, importer.record_type));
    const custom = Object.entries(fields).filter(([, spec]) => spec.storage === 'custom').map(([key, spec]) => ({ key, label: spec.label ?? key }));
    const known = new Set(importer.columns.map((c) => c.header.toLowerCase()));
    const taken = new Set(importer.columns.map((c) => c.target).filter(Boolean));
    const suggestions = suggestTargets(headers, importer.record_type, custom);
    const added = headers
      .map((header, i) => ({ header, target: taken.has(suggestions[i]) ? '' : suggestions[i] }))
      .filter((c) => !known.has(c.header.toLowerCase()));
    if (added.length) await records.update(user, def, importer.id, { columns: [...importer.columns, ...added] }, { socketId: socketOf(request) });
    const updated = await records.show(user, def, importer.id);
    return reply.status(201).send({ data: updated.columns, added: added.length, message: `${added.length} column${added.length === 1 ? '' : 's'} added from the file's header.` });
  });
}

