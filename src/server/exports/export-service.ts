import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { loadAuthUser } from '../auth/load-user.js';
import { customFields, storedJson } from '../db/dynamic-tables.js';
import { temporaryFolder } from '../files/file-store.js';
import { forbidden, HttpError, notFound, ValidationError } from '../http/errors.js';
import { enqueueJob } from '../jobs/queue.js';
import { type JobContext, jobCutOff, PermanentJobError } from '../jobs/worker.js';
import { displayName } from '../records/fields.js';
import type { ResourceDefinition } from '../records/resource.js';
import { CSV_BOM, csvLines } from './csv.js';
import { type DisplayColumn, displayRows, headerRow, sheetCell, sheetCells, shownValue } from './display-columns.js';
import { writeXlsx, XLSX_TYPE } from './xlsx.js';

export const EXPORT_JOB = 'export';
/** Above this many rows a download becomes a background export (DESIGN.md 8). */
export const BACKGROUND_THRESHOLD = 50_000;
const PAGE = 1_000;
/**
 * The rows of an XLSX export read at once. A page's records and cells live while exceljs writes it, long enough to be
 * promoted to the old generation; with pages of 500 the server's peak is about 6 MB lower than with 1,000, for one
 * more page's statements (its count, its names) per 1,000 rows (docs/benchmarks.md, "XLSX exports"). A CSV export,
 * cheaper per row, keeps pages of 1,000.
 */
const XLSX_PAGE = 500;
const IGNORED_PARAMS = new Set([
  'resource',
  'columns',
  'page',
  'per_page',
  'perPage',
  'background',
  'file_name',
  'format',
  'ids',
  'cursor',
]);
/** `columns=all`: every field of the record type, whatever the view shows. */
const ALL_FIELDS = 'all';
/** The file formats an export is written in (`format=`; csv when absent). */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** An export's format, told by its file's name (the `exports` row keeps the name, not the format). */
export const formatOf = (name: string): ExportFormat => (name.toLowerCase().endsWith('.xlsx') ? 'xlsx' : 'csv');

export interface ExportRequest {
  resource: string;
  /** The list parameters of GET /api/{resource}: filter, sort, order, search... */
  params: Record<string, unknown>;
  /**
   * Columns in order (field names); empty: the columns of the saved view (`view=`) when there is one, else every
   * field of the record type, custom fields included; ['all']: every field, view or not.
   */
  columns: string[];
  /** csv when absent. */
  format?: ExportFormat;
  /** Write the record's id and, beside each column shown by name or label, its raw key (`ids=1`). */
  ids?: boolean;
}

const truthy = (value: unknown) => ['1', 'true', 'yes'].includes(String(value ?? '').toLowerCase());

export function parseExportQuery(raw: Record<string, unknown>): ExportRequest {
  const resource = String(raw.resource ?? '').trim();
  if (!resource) throw new ValidationError({ resource: ['Name the list to export (resource=sites).'] });
  // A format the server does not write is refused, never answered with another one.
  const format = raw.format === undefined ? 'csv' : String(raw.format);
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw new ValidationError({
      format: [`The format "${String(raw.format)}" is not offered: use ${EXPORT_FORMATS.join(', ')}.`],
    });
  const columnsRaw = raw.columns ?? raw['columns[]'];
  const columns = (Array.isArray(columnsRaw) ? columnsRaw.map(String) : String(columnsRaw ?? '').split(','))
    .map((c) => c.trim())
    .filter(Boolean)
    .slice(0, 300);
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (!IGNORED_PARAMS.has(key)) params[key] = value;
  return { resource, params, columns, format: format as ExportFormat, ids: truthy(raw.ids) };
}

const fileName = (resource: string, format: ExportFormat = 'csv') =>
  `${resource.replace(/[^\w-]+/g, '-')}-${new Date().toISOString().slice(0, 10)}.${format}`;

/**
 * CSV exports of lists (SPEC section 7): a list streamed with the same filters, sort and permissions as
 * GET /api/{resource} (the data service's `list`, page by page, so memory stays flat; header row: the field labels;
 * cells escaped against formula injection), or written in the background by the export job into a file offered for
 * download. The service owns the `exports` rows: created through the data service, moved along by the job, which
 * tells the person when the file is ready (`ExportComplete`).
 */
export class ExportService {
  constructor(
    private readonly ctx: AppContext,
    private readonly wake: () => void,
  ) {}

  private get def(): ResourceDefinition {
    return this.ctx.resources.get('exports')!;
  }

  /** A person who may export reads their own exports (rows are always filtered to their own: ownerColumn). */
  readerOf(user: AuthUser | null): AuthUser | null {
    if (!user) return user;
    if (!can(user, 'export:create') || can(user, 'export:read')) return user;
    return { ...user, permissions: [...user.permissions, 'export:read'] };
  }

  assertMayExport(user: AuthUser) {
    if (!can(user, 'export:create')) throw forbidden('You do not have permission to export lists.');
  }

  /** Checks what was asked (the list, its columns, its filters, the person's right to read it); returns the row count. */
  async check(user: AuthUser, request: ExportRequest): Promise<{ def: ResourceDefinition; total: number }> {
    const def = this.definition(request.resource);
    await this.columnsOf(user, def, request); // unknown columns: 422 before anything is sent
    const total = await this.count(user, def, request.params); // also checks read permission and the filters
    return { def, total };
  }

  /** Queues a background export (its row and job in one transaction) and wakes the worker; returns the export as its owner reads it. */
  async start(user: AuthUser, request: ExportRequest, socketId?: string) {
    const record = await this.ctx.records.createSystem(
      user,
      this.def,
      {
        user_id: user.id,
        resource: request.resource,
        // Whether ids are written travels with the list's parameters (the job takes it out again: jobRequest).
        params: JSON.stringify(request.ids ? { ...request.params, ids: '1' } : request.params),
        columns: JSON.stringify(request.columns),
        status: 'pending',
        file_name: fileName(request.resource, request.format),
      },
      { within: (trx, row) => enqueueJob(trx, EXPORT_JOB, { export_id: row.id }, { startedBy: user.id }), socketId },
    );
    this.wake();
    return record;
  }

  /** The person's own exports (GET /api/exports). */
  list(user: AuthUser | null, query: Record<string, unknown>) {
    return this.ctx.records.list(this.readerOf(user), this.def, query);
  }

  show(user: AuthUser | null, id: number) {
    return this.ctx.records.show(this.readerOf(user), this.def, id);
  }

  /** The file of a finished export: where it is, its size and the name to save it under. */
  async file(user: AuthUser | null, id: number) {
    const record = await this.ctx.records.show(this.readerOf(user), this.def, id);
    if (record.status !== 'complete')
      throw new HttpError(
        409,
        record.status === 'failed'
          ? `This export failed: ${record.message ?? 'unknown error'}.`
          : 'This export is not ready yet.',
      );
    const row = await this.ctx.db
      .selectFrom('exports')
      .select(['storage_path', 'file_name'])
      .where('id', '=', record.id)
      .executeTakeFirstOrThrow();
    const stored = await this.readStored(row.storage_path as string | null);
    if (!stored) throw notFound('The export file is no longer there; export the list again.');
    return { ...stored, name: (row.file_name as string | null) ?? `export-${record.id}.csv` };
  }

  /** An export's file: a key in the file store, or (exports finished before files had keys) a path on this machine. */
  private async readStored(storagePath: string | null) {
    if (!storagePath) return null;
    if (!path.isAbsolute(storagePath)) return this.ctx.files.read(storagePath);
    const size = await stat(storagePath)
      .then((s) => s.size)
      .catch(() => null);
    return size === null ? null : { stream: createReadStream(storagePath), size };
  }

  /** The file name a download of this list gets today. */
  fileName(resource: string, format?: ExportFormat) {
    return fileName(resource, format);
  }

  definition(name: string): ResourceDefinition {
    const def = this.ctx.resources.get(name);
    if (!def) throw new ValidationError({ resource: [`There is no list named "${name}".`] });
    return def;
  }

  /**
   * The columns an export writes, in order: those asked for, else the saved view's (a field the view names that is
   * gone or hidden from the person is left out, as the view leaves it out), else every field.
   */
  private async wantedColumns(user: AuthUser | null, request: ExportRequest): Promise<string[] | 'all'> {
    if (request.columns.length === 1 && request.columns[0] === ALL_FIELDS) return 'all';
    if (request.columns.length) return request.columns;
    const viewId = Number(request.params.view);
    const views = this.ctx.records.targetOf({ table: 'views' });
    if (!Number.isInteger(viewId) || viewId < 1 || !views) return 'all';
    const view = await this.ctx.records.show(user, views, viewId);
    const shown = ((view.columns as Array<{ field: string }> | null) ?? []).map((column) => column.field);
    return shown.length ? shown : 'all';
  }

  /** Which columns to write and their header labels: none the person's role hides (they are not there for them). */
  async columnsOf(user: AuthUser | null, def: ResourceDefinition, request: ExportRequest) {
    const fields = await this.ctx.records.fields(def);
    const hidden = new Set([...(def.hidden ?? []), ...(await this.ctx.records.access.mask(user, def)).hidden]);
    const all = [
      ...(request.ids ? ['id'] : []),
      ...Object.keys(fields).filter((f) => !hidden.has(f) && f !== 'password'),
      'created_at',
      'updated_at',
    ];
    const wanted = await this.wantedColumns(user, request);
    const fromView = wanted !== 'all' && !request.columns.length;
    const columns = wanted === 'all' ? all : fromView ? wanted.filter((c) => c === 'id' || all.includes(c)) : wanted;
    const unknown = columns.filter((c) => !all.includes(c) && (hidden.has(c) || !(def.readOnly ?? []).includes(c)));
    if (unknown.length)
      throw new ValidationError({
        columns: [`Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`],
      });
    const capitalised = columns.map((c) => displayName(c, fields[c]));
    // Two columns under one header (a custom field named as a built-in one) could not be told apart, nor imported back.
    const count = (label: string) => capitalised.filter((l) => l.toLowerCase() === label.toLowerCase()).length;
    return {
      columns,
      labels: capitalised.map((label, i) => (count(label) > 1 ? `${label} (${columns[i]})` : label)),
      fields,
    };
  }

  /** The columns as the list shows them; with ids, each key column followed by its raw key (headed by the field name). */
  async displayColumns(
    user: AuthUser | null,
    def: ResourceDefinition,
    request: ExportRequest,
  ): Promise<DisplayColumn[]> {
    const { columns, labels, fields } = await this.columnsOf(user, def, request);
    const deps = { records: this.ctx.records, db: this.ctx.db, resources: this.ctx.resources, user };
    const taken = new Set(labels.map((label) => label.toLowerCase()));
    return columns.map((column, index) => {
      const display = shownValue(fields[column], deps);
      if (!display) return { column, label: labels[index]!, cell: sheetCell(column, fields[column]) };
      const keyHeader =
        !display.key || !request.ids ? undefined : taken.has(column.toLowerCase()) ? `${column} (key)` : column;
      return { column, label: labels[index]!, shown: display.shown, keyHeader };
    });
  }

  async count(user: AuthUser | null, def: ResourceDefinition, params: Record<string, unknown>) {
    const result = await this.ctx.records.list(user, def, { ...params, page: 1, per_page: 1 });
    return result.meta.total;
  }

  /** Yields the rows of the export: the header, then one batch per page of the list (`perPage` rows). */
  async *rows(
    user: AuthUser | null,
    def: ResourceDefinition,
    request: ExportRequest,
    known?: DisplayColumn[],
    perPage = PAGE,
  ): AsyncGenerator<unknown[][]> {
    const columns = known ?? (await this.displayColumns(user, def, request));
    yield [headerRow(columns)];
    // Each page is sought from where the one before ended (its `next_cursor`), not counted to by its offset: the
    // 100th page costs what the first does, and the database never sorts what it already passed.
    let cursor: string | undefined;
    for (let page = 1; ; page++) {
      const { rows, lastPage, next } = await this.page(user, def, columns, {
        ...request.params,
        page,
        per_page: perPage,
        ...(cursor ? { cursor } : {}),
      });
      if (!rows.length) break;
      yield rows;
      if (page >= lastPage) break;
      cursor = next;
    }
  }

  /**
   * A page of the export as its cells. The records are read without the names of their links put on each (a relation
   * column names its links itself: display-columns.ts), and are not held while the page is written: only its cells are.
   */
  private async page(
    user: AuthUser | null,
    def: ResourceDefinition,
    columns: DisplayColumn[],
    query: Record<string, unknown>,
  ) {
    const { data, meta } = await this.ctx.records.list(user, def, query, { linkNames: false });
    return {
      rows: data.length ? await displayRows(columns, data) : [],
      lastPage: meta.last_page,
      next: meta.next_cursor,
    };
  }

  /** Yields CSV text: BOM + header, then one chunk per page of rows. */
  async *stream(user: AuthUser | null, def: ResourceDefinition, request: ExportRequest): AsyncGenerator<string> {
    let first = true;
    for await (const rows of this.rows(user, def, request)) {
      yield (first ? CSV_BOM : '') + csvLines(rows);
      first = false;
    }
  }

  /** Writes the export as an .xlsx workbook to `out` (exports/xlsx.ts); returns the data rows written. */
  async writeXlsx(
    user: AuthUser | null,
    def: ResourceDefinition,
    request: ExportRequest,
    out: Writable,
    progress?: (rows: number) => Promise<unknown>,
  ) {
    const columns = await this.displayColumns(user, def, request);
    return writeXlsx(this.rows(user, def, request, columns, XLSX_PAGE), out, {
      sheetName: request.resource,
      cells: sheetCells(columns),
      timeZone: this.ctx.config.timeZone,
      progress,
    });
  }

  /** The job stopped on every attempt (JobWorker): the export is failed with the reason. */
  async giveUp(exportId: number, reason: string) {
    await this.ctx.db
      .updateTable('exports')
      .set({
        status: 'failed',
        message: `The export stopped: ${reason}`,
        finished_at: new Date(),
        updated_at: new Date(),
      })
      .where('id', '=', exportId)
      .execute();
  }

  /** The export job: writes the CSV to the file store (exports/export-<id>.csv) and marks the export complete. */
  async run(exportId: number, job?: JobContext) {
    const { db } = this.ctx;
    const row = await db.selectFrom('exports').selectAll().where('id', '=', exportId).executeTakeFirst();
    if (!row) throw new PermanentJobError(`Export ${exportId} no longer exists.`);
    const user = row.user_id ? await loadAuthUser(db, row.user_id) : null;
    if (!user) throw new PermanentJobError('The person who asked for this export no longer has an account.');
    await db
      .updateTable('exports')
      .set({ status: 'processing', updated_at: new Date() })
      .where('id', '=', exportId)
      .execute();
    // Written here first, then moved into the file store whole (a bucket takes a file of known length).
    const folder = temporaryFolder(this.ctx.config);
    await mkdir(folder, { recursive: true });
    const format = formatOf(row.file_name ?? '');
    const key = `exports/export-${exportId}.${format}`;
    const temporary = path.join(folder, `export-${exportId}.${format}.part`);
    try {
      const def = this.definition(row.resource);
      const { ids, ...params } = customFields(row.params);
      const request = {
        resource: row.resource,
        params,
        columns: storedJson<string[] | null>(row.columns) ?? [],
        format,
        ids: truthy(ids),
      };
      const out = createWriteStream(temporary);
      let lines = -1;
      if (format === 'xlsx') {
        lines = await this.writeXlsx(user, def, request, out, (rows) =>
          job ? job.heartbeat({ export_id: exportId, rows }) : Promise.resolve(),
        );
      } else {
        for await (const text of this.stream(user, def, request)) {
          lines += text.split('\r\n').length - 1;
          if (!out.write(text)) await once(out, 'drain');
          await job?.heartbeat({ export_id: exportId, rows: lines });
        }
        out.end();
      }
      if (!out.writableFinished) await once(out, 'finish');
      await this.ctx.files.putFile(key, temporary, format === 'xlsx' ? XLSX_TYPE : 'text/csv');
      await db
        .updateTable('exports')
        .set({
          status: 'complete',
          storage_path: key,
          row_count: Math.max(0, lines),
          finished_at: new Date(),
          updated_at: new Date(),
        })
        .where('id', '=', exportId)
        .execute();
    } catch (error) {
      await rm(temporary, { force: true });
      if (jobCutOff(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      await db
        .updateTable('exports')
        .set({ status: 'failed', message, finished_at: new Date(), updated_at: new Date() })
        .where('id', '=', exportId)
        .execute();
      throw new PermanentJobError(message);
    } finally {
      const current = await db.selectFrom('exports').selectAll().where('id', '=', exportId).executeTakeFirst();
      if (current) {
        const [record] = await this.ctx.records.present(this.def, [current]);
        this.ctx.events.emit({ event: 'ExportComplete', type: 'export', id: exportId, record, userId: user.id });
      }
    }
  }
}
