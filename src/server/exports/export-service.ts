import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { loadAuthUser } from '../auth/load-user.js';
import { ValidationError } from '../http/errors.js';
import { humanise } from '../records/fields.js';
import type { ResourceDefinition } from '../records/resource.js';
import { userChannel } from '../records/model-events.js';
import { PermanentJobError, type JobContext } from '../jobs/worker.js';
import { CSV_BOM, csvLine } from './csv.js';

export const EXPORT_JOB = 'export';
/** Above this many rows a download becomes a background export (DESIGN.md 8). */
export const BACKGROUND_THRESHOLD = 50_000;
const PAGE = 1_000;
const IGNORED_PARAMS = new Set(['resource', 'columns', 'page', 'per_page', 'perPage', 'background', 'file_name']);

export interface ExportRequest {
  resource: string;
  /** The list parameters of GET /api/{resource}: filter, sort, order, search... */
  params: Record<string, unknown>;
  /** Columns in order (field names); empty: every field of the record type, custom fields included. */
  columns: string[];
}

export function parseExportQuery(raw: Record<string, unknown>): ExportRequest {
  const resource = String(raw.resource ?? '').trim();
  if (!resource) throw new ValidationError({ resource: ['Name the list to export (resource=sites).'] });
  const columnsRaw = raw.columns ?? raw['columns[]'];
  const columns = (Array.isArray(columnsRaw) ? columnsRaw.map(String) : String(columnsRaw ?? '').split(','))
    .map((c) => c.trim())
    .filter(Boolean)
    .slice(0, 300);
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (!IGNORED_PARAMS.has(key)) params[key] = value;
  return { resource, params, columns };
}

/**
 * Streams a list as CSV with the same filters, sort and permissions as GET /api/{resource} (the data service's
 * `list`, page by page, so memory stays flat). Header row: the field labels; cells escaped against formula injection.
 */
export class ExportService {
  constructor(private readonly ctx: AppContext) {}

  definition(name: string): ResourceDefinition {
    const def = this.ctx.resources.get(name);
    if (!def) throw new ValidationError({ resource: [`There is no list named "${name}".`] });
    return def;
  }

  /** Which columns to write and their header labels. */
  async columnsOf(def: ResourceDefinition, wanted: string[]) {
    const fields = await this.ctx.records.fields(def);
    const hidden = new Set(def.hidden ?? []);
    const all = ['id', ...Object.keys(fields).filter((f) => !hidden.has(f) && f !== 'password'), 'created_at', 'updated_at'];
    const columns = wanted.length ? wanted : all;
    const unknown = columns.filter((c) => !all.includes(c) && !(def.readOnly ?? []).includes(c));
    if (unknown.length) throw new ValidationError({ columns: [`Unknown column${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`] });
    const labels = columns.map((c) => fields[c]?.label ?? (c === 'id' ? 'ID' : humanise(c)).replace(/^\w/, (x) => x.toUpperCase()));
    const capitalised = columns.map((c, i) => (fields[c]?.label ? labels[i].replace(/^\w/, (x) => x.toUpperCase()) : labels[i]));
    // Two columns under one header (a custom field named as a built-in one) could not be told apart, nor imported back.
    const count = (label: string) => capitalised.filter((l) => l.toLowerCase() === label.toLowerCase()).length;
    return { columns, labels: capitalised.map((label, i) => (count(label) > 1 ? `${label} (${columns[i]})` : label)) };
  }

  async count(user: AuthUser | null, def: ResourceDefinition, params: Record<string, unknown>) {
    const result = await this.ctx.records.list(user, def, { ...params, page: 1, per_page: 1 });
    return result.meta.total;
  }

  /** Yields CSV text: BOM + header, then one chunk per page of rows. */
  async *stream(user: AuthUser | null, def: ResourceDefinition, request: ExportRequest): AsyncGenerator<string> {
    const { columns, labels } = await this.columnsOf(def, request.columns);
    yield CSV_BOM + csvLine(labels);
    for (let page = 1; ; page++) {
      const result = await this.ctx.records.list(user, def, { ...request.params, page, per_page: PAGE });
      if (!result.data.length) break;
      let text = '';
      for (const record of result.data) text += csvLine(columns.map((c) => record[c]));
      yield text;
      if (page >= result.meta.last_page) break;
    }
  }

  /** The export job: writes the CSV under DATA_DIR/files/exports and marks the export complete. */
  async run(exportId: number, job?: JobContext) {
    const { db } = this.ctx;
    const row = await db.selectFrom('exports').selectAll().where('id', '=', exportId).executeTakeFirst();
    if (!row) throw new PermanentJobError(`Export ${exportId} no longer exists.`);
    const user = row.user_id ? await loadAuthUser(db, row.user_id) : null;
    if (!user) throw new PermanentJobError('The person who asked for this export no longer has an account.');
    await db.updateTable('exports').set({ status: 'processing', updated_at: new Date() }).where('id', '=', exportId).execute();
    const folder = path.join(this.ctx.config.dataDir, 'files', 'exports');
    await mkdir(folder, { recursive: true });
    const final = path.join(folder, `export-${exportId}.csv`);
    const temporary = `${final}.part`;
    try {
      const def = this.definition(row.resource);
      const out = createWriteStream(temporary);
      let lines = -1;
      for await (const text of this.stream(user, def, { resource: row.resource, params: row.params ?? {}, columns: row.columns ?? [] })) {
        lines += text.split('\r\n').length - 1;
        if (!out.write(text)) await once(out, 'drain');
        await job?.heartbeat({ export_id: exportId, rows: lines });
      }
      out.end();
      await once(out, 'finish');
      await rename(temporary, final);
      await db.updateTable('exports').set({ status: 'complete', storage_path: final, row_count: Math.max(0, lines), finished_at: new Date(), updated_at: new Date() }).where('id', '=', exportId).execute();
    } catch (error) {
      await rm(temporary, { force: true });
      const message = error instanceof Error ? error.message : String(error);
      await db.updateTable('exports').set({ status: 'failed', message, finished_at: new Date(), updated_at: new Date() }).where('id', '=', exportId).execute();
      throw new PermanentJobError(message);
    } finally {
      const current = await db.selectFrom('exports').selectAll().where('id', '=', exportId).executeTakeFirst();
      if (current) {
        const { storage_path, ...data } = current;
        await this.ctx.realtime.publish([userChannel(user.id)], 'App.Events.ModelSaved', { type: 'export', id: exportId, data: { ...data, download_url: current.status === 'complete' ? `/api/exports/${exportId}/download` : null } });
      }
    }
  }
}
