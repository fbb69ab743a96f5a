import { sql, type Transaction } from 'kysely';
import { can, canOnEntity } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { storedJson } from '../db/dynamic-tables.js';
import type { DB } from '../db/schema.generated.js';
import type { JobEventName } from '../events/app-events.js';
import { writeCsv } from '../exports/csv.js';
import { forbidden, HttpError, ValidationError } from '../http/errors.js';
import { enqueueJob } from '../jobs/queue.js';
import type { ResourceDefinition } from '../records/resource.js';
import { cleanHeaders, readCsv } from './csv-reader.js';
import { openImportFile, type StoredFile } from './import-files.js';
import { importerProblems } from './importer-problems.js';
import type { ImporterConfig } from './mapper.js';
import { definitionFor } from './record-types.js';
import type { KeptFile } from './upload-retention.js';

export const IMPORT_JOB = 'import';
export const IMPORT_UNDO_JOB = 'import-undo';

/** Where a running import is: the file, and the next data record of it. */
export interface Checkpoint {
  file: number;
  row: number;
}

export interface ImportFailure {
  file_name: string;
  line: number;
  reason: string;
  data: Record<string, string> | null;
}

export interface ImportCounts {
  created: number;
  updated: number;
  skipped: number;
  failed: number;
}

/** Failed rows kept per import (the report lists these; the count goes on). */
export const MAX_STORED_FAILURES = 50_000;

/** May the person import records of this type (import:create, and create or update on the type)? */
export const mayImport = (user: AuthUser, type: string) =>
  can(user, 'import:create') && (canOnEntity(user, type, 'create') || canOnEntity(user, type, 'update'));

/**
 * The `imports` rows (SPEC section 7): started by a person through the data service (the row, its revision and the
 * job in one transaction, then the `created` event), moved along by the import job (status, counts, checkpoint,
 * failed rows) with its progress events, undone on request; and what an import wrote and refused, for its pages.
 */
export class ImportService {
  constructor(
    private readonly ctx: AppContext,
    private readonly wake: () => void,
  ) {}

  private get def(): ResourceDefinition {
    return this.ctx.resources.get('imports')!;
  }

  // ---- a person starts, reads and undoes imports ----------------------------------------------------------

  /** Creates the import of uploaded files and queues its job; the job worker is woken. Returns the import as presented. */
  async start(user: AuthUser, importer: ImporterConfig, files: StoredFile[], name: string, socketId?: string) {
    if (!mayImport(user, importer.record_type))
      throw forbidden(`You do not have permission to import ${importer.record_type} records.`);
    // A field the importer fills was deleted since it was made: refuse, saying which, rather than drop the column.
    const problems = importerProblems(
      importer,
      await this.ctx.records.fields(definitionFor(this.ctx.resources, importer.record_type)),
    );
    if (problems.length)
      throw new ValidationError(
        { importer_id: problems },
        `The importer “${importer.name}” needs attention: ${problems[0]}`,
      );
    const estimate = files.reduce((sum, f) => sum + Math.max(0, f.lines - 1), 0);
    const record = await this.ctx.records.createSystem(
      user,
      this.def,
      {
        importer_id: importer.id,
        record_type: importer.record_type,
        user_id: user.id,
        name,
        status: 'pending',
        files: JSON.stringify(files),
        importer: JSON.stringify(importer),
        total_rows: estimate,
      },
      {
        revision: { name: [null, name] },
        within: (trx, row) => enqueueJob(trx, IMPORT_JOB, { import_id: row.id }, { startedBy: user.id }),
        socketId,
      },
    );
    this.wake();
    return record;
  }

  /** Queues the undo of a finished import (202): what it created is removed and what it changed put back. */
  async requestUndo(user: AuthUser, id: number) {
    const record = await this.ctx.records.show(user, this.def, id);
    if (
      !mayImport(user, record.record_type) ||
      !(can(user, 'import:delete') || can(user, 'import:update') || record.user_id === user.id)
    ) {
      throw forbidden('You do not have permission to undo this import.');
    }
    if (record.status === 'pending' || record.status === 'processing')
      throw new HttpError(409, 'This import is still running; wait for it to finish before undoing it.');
    if (record.undo_status === 'pending' || record.undo_status === 'processing')
      throw new HttpError(409, 'This import is already being undone.');
    if (record.undone_at) throw new HttpError(409, 'This import has already been undone.');
    await this.ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('imports')
        .set({ undo_status: 'pending', undo_user_id: user.id, updated_at: new Date() })
        .where('id', '=', record.id)
        .execute();
      await enqueueJob(trx, IMPORT_UNDO_JOB, { import_id: record.id }, { startedBy: user.id });
    });
    this.wake();
    return this.ctx.records.show(user, this.def, record.id);
  }

  /** The failed rows of an import the person may read, a page at a time. */
  async failures(user: AuthUser | null, id: number, page: number, perPage: number) {
    const record = await this.ctx.records.show(user, this.def, id);
    const base = this.ctx.db.selectFrom('import_failures').where('import_id', '=', record.id);
    const total = Number((await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst())?.n ?? 0);
    const rows = await base
      .select(['id', 'file_name', 'line', 'reason', 'data'])
      .orderBy('id')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return {
      data: rows.map((r) => ({
        id: r.id,
        file_name: r.file_name,
        line: r.line,
        reason: r.reason,
        cells: (r.data as any)?.cells ?? [],
      })),
      meta: {
        current_page: page,
        per_page: perPage,
        total,
        last_page: Math.max(1, Math.ceil(total / perPage)),
        from: rows.length ? (page - 1) * perPage + 1 : null,
        to: rows.length ? (page - 1) * perPage + rows.length : null,
      },
    };
  }

  /** What the import wrote: records created or updated, in order, with a readable name; only those the person may read. */
  async writtenRecords(user: AuthUser, id: number, page: number, perPage: number) {
    const { db, records } = this.ctx;
    const record = await records.show(user, this.def, id);
    const def = definitionFor(this.ctx.resources, record.record_type);
    const base = db
      .selectFrom('import_records')
      .where('import_id', '=', record.id)
      .where('record_type', '=', record.record_type);
    const total = Number((await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst())?.n ?? 0);
    const entries = await base
      .select(['record_id', 'created'])
      .orderBy('id')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    const ids = entries.map((e) => e.record_id);
    const rows =
      ids.length && canOnEntity(user, def.permission ?? def.type, 'read')
        ? await (await records.visibleRows(db, def, user, 'with')).selectAll('t').where('t.id', 'in', ids).execute()
        : [];
    const byId = new Map(rows.map((r: any) => [r.id, r]));
    const label = (r: any) => r.name ?? ([r.first_name, r.last_name].filter(Boolean).join(' ') || `#${r.id}`);
    return {
      data: entries
        .filter((e) => byId.has(e.record_id))
        .map((e) => {
          const r: any = byId.get(e.record_id);
          return {
            id: e.record_id,
            type: record.record_type,
            resource: def.name,
            created: e.created,
            name: label(r),
            deleted: Boolean(r.deleted_at),
          };
        }),
      meta: { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) },
    };
  }

  /** The error report: File, Line, Reason, then each failed row's original cells under the first file's headers. */
  async errorReport(user: AuthUser | null, id: number): Promise<{ fileName: string; csv: string }> {
    const { db } = this.ctx;
    const record = await this.ctx.records.show(user, this.def, id);
    const failures = await db
      .selectFrom('import_failures')
      .select(['file_name', 'line', 'reason', 'data'])
      .where('import_id', '=', record.id)
      .orderBy('id')
      .execute();
    const stored = await db.selectFrom('imports').select('files').where('id', '=', record.id).executeTakeFirst();
    const files = storedJson<StoredFile[] | null>(stored?.files) ?? [];
    const headers = new Map<string, string[]>();
    for (const file of files) {
      try {
        for await (const r of readCsv(await openImportFile(this.ctx.files, file), file.encoding, { maxRecords: 0 })) {
          if (r.index === -1) headers.set(file.name, cleanHeaders(r.cells));
          break;
        }
      } catch {
        /* the file is gone: report without the original cells' names */
      }
    }
    const width = Math.max(
      0,
      ...[...headers.values()].map((h) => h.length),
      ...failures.map((f) => ((f.data as any)?.cells ?? []).length),
    );
    const first = [...headers.values()][0] ?? [];
    const head = ['File', 'Line', 'Reason', ...Array.from({ length: width }, (_, i) => first[i] ?? `Column ${i + 1}`)];
    const body = failures.map((f) => [f.file_name, f.line, f.reason, ...(((f.data as any)?.cells ?? []) as string[])]);
    const safeName = String(record.name)
      .replace(/[^\w.-]+/g, '_')
      .replace(/\.csv$/i, '');
    return { fileName: `${safeName}-errors.csv`, csv: writeCsv([head, ...body]) };
  }

  // ---- the import job moves its row along -------------------------------------------------------------------

  async row(id: number) {
    return this.ctx.db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async markProcessing(id: number, startedAt: Date | null) {
    await this.ctx.db
      .updateTable('imports')
      .set({ status: 'processing', started_at: startedAt ?? new Date(), updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  /** In the chunk's transaction: its counts, its failed rows (up to MAX_STORED_FAILURES in all) and the new checkpoint. */
  async saveProgress(
    trx: Transaction<DB>,
    id: number,
    counts: ImportCounts,
    failures: ImportFailure[],
    checkpoint: Checkpoint,
    records: number,
  ) {
    if (failures.length) {
      const stored = await trx
        .selectFrom('import_failures')
        .select(sql<number>`count(*)`.as('n'))
        .where('import_id', '=', id)
        .executeTakeFirst();
      const room = Math.max(0, MAX_STORED_FAILURES - Number(stored?.n ?? 0));
      const kept = [...failures]
        .sort((a, b) => a.line - b.line)
        .slice(0, room)
        .map((f) => ({ ...f, import_id: id }));
      if (kept.length) {
        await sql`insert into import_failures (import_id, file_name, line, reason, data)
          select import_id, file_name, line, reason, data from json_to_recordset(${JSON.stringify(kept)}::json)
          as x(import_id integer, file_name text, line integer, reason text, data jsonb)`.execute(trx);
      }
    }
    await trx
      .updateTable('imports')
      .set({
        created_count: sql`created_count + ${counts.created}`,
        updated_count: sql`updated_count + ${counts.updated}`,
        skipped_count: sql`skipped_count + ${counts.skipped}`,
        failed_count: sql`failed_count + ${counts.failed}`,
        processed_rows: sql`processed_rows + ${records}`,
        checkpoint: JSON.stringify(checkpoint),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
  }

  async saveCheckpoint(id: number, checkpoint: Checkpoint) {
    await this.ctx.db
      .updateTable('imports')
      .set({ checkpoint: JSON.stringify(checkpoint) })
      .where('id', '=', id)
      .execute();
  }

  /**
   * The import is done: `complete`, ImportComplete to its person, and one `imported` event for its record type
   * (lists of that type reload) rather than one event per record.
   */
  async complete(id: number, user: AuthUser, def: ResourceDefinition) {
    const row = await this.ctx.db
      .updateTable('imports')
      .set({
        status: 'complete',
        finished_at: new Date(),
        updated_at: new Date(),
        total_rows: sql`processed_rows`,
        message: null,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.progress(id, user.id, 'ImportComplete');
    if (row.created_count + row.updated_count > 0)
      this.ctx.records.announce(def, 'imported', { import_id: id }, { user });
  }

  async fail(id: number, message: string, userId?: number) {
    await this.ctx.db
      .updateTable('imports')
      .set({ status: 'failed', message, finished_at: new Date(), updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    if (userId) await this.progress(id, userId, 'ImportComplete');
  }

  /** ImportProcessing / ImportComplete for the person, with the import's figures. */
  async progress(id: number, userId: number, event: Extract<JobEventName, 'ImportProcessing' | 'ImportComplete'>) {
    const row = await this.row(id);
    if (!row) return;
    this.ctx.events.emit({ event, type: 'import', id, record: presentImport(row), userId });
  }

  /** What the import wrote, newest first, a chunk before `before` (an `import_records` id) at a time: what undo puts back. */
  async undoEntries(id: number, before: number | null, limit: number) {
    let query = this.ctx.db
      .selectFrom('import_records')
      .selectAll()
      .where('import_id', '=', id)
      .orderBy('id', 'desc')
      .limit(limit);
    if (before !== null) query = query.where('id', '<', before);
    return query.execute();
  }

  async markUndoing(id: number) {
    await this.ctx.db.updateTable('imports').set({ undo_status: 'processing' }).where('id', '=', id).execute();
  }

  /** Undone: ImportComplete for the person, and an `imported` event for each record type it touched. */
  async markUndone(id: number, user: AuthUser, types: Iterable<string>) {
    await this.ctx.db
      .updateTable('imports')
      .set({ undo_status: 'complete', undone_at: new Date(), updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    await this.progress(id, user.id, 'ImportComplete');
    for (const type of types)
      this.ctx.records.announce(definitionFor(this.ctx.resources, type), 'imported', { import_id: id }, { user });
  }
}

/** An `imports` row as the API and realtime events present it. */
export function presentImport(row: Record<string, any>) {
  const { importer, checkpoint, custom, files, ...rest } = row;
  return {
    ...rest,
    importer_name: importer?.name ?? null,
    // `kept`: false once the file itself is removed (UPLOAD_RETENTION_DAYS); what the import did stays.
    files:
      (files as KeptFile[] | null)?.map((f) => ({
        name: f.name,
        size: f.size,
        encoding: f.encoding,
        kept: !f.removed_at,
      })) ?? [],
    progress: row.total_rows
      ? Math.min(100, Math.round((row.processed_rows / row.total_rows) * 100))
      : row.status === 'complete'
        ? 100
        : 0,
  };
}
