import { sql, type Kysely, type Transaction } from 'kysely';
import type { AppContext } from '../app-context.js';
import { loadAuthUser } from '../auth/load-user.js';
import { analyzeChangedTables } from '../db/analyze.js';
import type { AuthUser } from '../auth/auth-user.js';
import { roleChannels, userChannel } from '../records/model-events.js';
import type { BatchRow } from '../records/batch-writer.js';
import { batchFields, undoBatch, type FieldsCache } from '../records/batch-writer.js';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';
import { JobInterrupted, PermanentJobError, SimulatedCrash, type JobContext } from '../jobs/worker.js';
export { SimulatedCrash };
import { normalise } from '../../common/import-values.js';
import { cleanHeaders, isBlankRecord, readCsv, type CsvEncoding } from './csv-reader.js';
import { createMapper, keyFieldOf, type ImporterConfig, type MappedRow } from './mapper.js';
import { importerProblems } from './importer-problems.js';
import { definitionFor, pivotField } from './record-types.js';
import { contactKey, contractorKey, RelatedResolver, type Resolved } from './related.js';

export const IMPORT_JOB = 'import';
export const IMPORT_UNDO_JOB = 'import-undo';

export interface StoredFile {
  name: string;
  path: string;
  size: number;
  encoding: CsvEncoding;
  lines: number;
}

export interface Checkpoint {
  file: number;
  row: number;
}

interface Failure {
  file_name: string;
  line: number;
  reason: string;
  data: Record<string, string> | null;
}

interface Counts {
  created: number;
  updated: number;
  skipped: number;
  failed: number;
}

export interface ProcessorOptions {
  /** Rows per transaction (each chunk's writes and the checkpoint commit together). */
  chunkSize?: number;
  /** Test hook: called after each committed chunk (throw `SimulatedCrash` to stop as a dying process would). */
  afterChunk?: (chunk: number, importId: number) => void | Promise<void>;
}


const MAX_STORED_FAILURES = 50_000;

/**
 * Runs an import (DESIGN.md 8): streams each file, maps rows with the importer, and writes them chunk by chunk
 * through the data service's batch path. Each chunk's writes, its failed rows and the import's checkpoint commit
 * in one transaction, so a restart resumes after the last committed chunk without duplicating or losing rows.
 * An all-or-nothing importer writes the whole import in one transaction and keeps nothing if any row fails.
 */
export class ImportProcessor {
  constructor(
    private readonly ctx: AppContext,
    private readonly options: ProcessorOptions = {},
  ) {}

  /**
   * Rows per transaction. On the embedded database a transaction holds its one connection, so every other
   * request waits for the chunk in hand: smaller chunks there keep the app responsive during a big import.
   */
  get chunkSize() {
    return this.options.chunkSize ?? (Number(process.env.IMPORT_CHUNK_ROWS) || (this.ctx.database.kind === 'pglite' ? 1_000 : 2_000));
  }

  async run(importId: number, job?: JobContext) {
    const { db } = this.ctx;
    const record = await db.selectFrom('imports').selectAll().where('id', '=', importId).executeTakeFirst();
    if (!record || record.deleted_at) throw new PermanentJobError(`Import ${importId} no longer exists.`);
    if (record.status === 'complete' || record.status === 'failed') return;
    const user = record.user_id ? await loadAuthUser(db, record.user_id) : null;
    if (!user) return this.fail(importId, 'The person who started this import no longer has an account.');
    const importer = record.importer as ImporterConfig | null;
    if (!importer) return this.fail(importId, 'The importer of this import was not saved with it.');
    const def = definitionFor(this.ctx.resources, importer.record_type);
    const files = record.files as StoredFile[];
    // A field the importer fills was deleted since the upload: fail, saying which, rather than drop the column.
    const problems = importerProblems(importer, await this.ctx.records.fields(def));
    if (problems.length) return this.fail(importId, `The importer needs attention: ${problems.join(' ')}`, user.id);

    await db.updateTable('imports').set({ status: 'processing', started_at: record.started_at ?? new Date(), updated_at: new Date() }).where('id', '=', importId).execute();
    await this.progress(importId, user.id, 'ImportProcessing');

    try {
      // The fields of every type the import writes, read once for the run (as the mapper's are).
      const fieldsCache: FieldsCache = new Map();
      if (importer.all_or_nothing) await this.runAllOrNothing(importId, user, def, importer, files, fieldsCache, job);
      else await this.runChunked(importId, user, def, importer, files, record.checkpoint as Checkpoint, fieldsCache, job);
    } catch (error) {
      if (error instanceof JobInterrupted || error instanceof SimulatedCrash) throw error;
      const message = error instanceof Error ? error.message : String(error);
      await this.fail(importId, `The import stopped: ${message}`, user.id);
      throw new PermanentJobError(message);
    }
  }

  private async runChunked(importId: number, user: AuthUser, def: ResourceDefinition, importer: ImporterConfig, files: StoredFile[], checkpoint: Checkpoint, fieldsCache: FieldsCache, job?: JobContext) {
    const { db } = this.ctx;
    const fields = await this.ctx.records.fields(def);
    let chunkNumber = 0;
    const statistics = new Statistics(def.table);
    for (let fileIndex = checkpoint.file; fileIndex < files.length; fileIndex++) {
      const file = files[fileIndex];
      const startRow = fileIndex === checkpoint.file ? checkpoint.row : 0;
      for await (const chunk of this.chunks(file, importer, fields, startRow)) {
        if (job?.stopping) throw new JobInterrupted();
        const created = await db.transaction().execute(async (trx) => {
          const { counts, failures } = await this.writeChunk(trx, importId, user, def, importer, file, chunk.rows, fieldsCache);
          await this.saveProgress(trx, importId, counts, failures, { file: fileIndex, row: chunk.nextRow }, chunk.records);
          return counts.created;
        });
        chunkNumber++;
        await statistics.grown(db, created);
        await job?.heartbeat({ import_id: importId, file: fileIndex, row: chunk.nextRow });
        await this.progress(importId, user.id, 'ImportProcessing');
        await this.options.afterChunk?.(chunkNumber, importId);
      }
      if (fileIndex + 1 < files.length) {
        await db.updateTable('imports').set({ checkpoint: JSON.stringify({ file: fileIndex + 1, row: 0 }) }).where('id', '=', importId).execute();
      }
    }
    await this.complete(importId, user.id, def);
  }

  private async runAllOrNothing(importId: number, user: AuthUser, def: ResourceDefinition, importer: ImporterConfig, files: StoredFile[], fieldsCache: FieldsCache, job?: JobContext) {
    const { db } = this.ctx;
    const failures: Failure[] = [];
    const totals: Counts = { created: 0, updated: 0, skipped: 0, failed: 0 };
    let records = 0;
    const fields = await this.ctx.records.fields(def);
    const rollback = new Error('rollback');
    try {
      await db.transaction().execute(async (trx) => {
        const statistics = new Statistics(def.table);
        for (const file of files) {
          for await (const chunk of this.chunks(file, importer, fields, 0)) {
            if (job?.stopping) throw new JobInterrupted();
            const result = await this.writeChunk(trx, importId, user, def, importer, file, chunk.rows, fieldsCache);
            await statistics.grown(trx, result.counts.created);
            for (const key of Object.keys(totals) as Array<keyof Counts>) totals[key] += result.counts[key];
            records += chunk.records;
            if (failures.length < MAX_STORED_FAILURES) failures.push(...result.failures.slice(0, MAX_STORED_FAILURES - failures.length));
            // No heartbeat here: on the embedded database the transaction holds the one connection.
          }
        }
        if (totals.failed > 0) throw rollback;
        await this.saveProgress(trx, importId, totals, [], { file: files.length, row: 0 }, records);
      });
    } catch (error) {
      if (error !== rollback) throw error;
      await db.transaction().execute(async (trx) => {
        await this.saveProgress(trx, importId, { created: 0, updated: 0, skipped: 0, failed: totals.failed }, failures, { file: 0, row: 0 }, records);
      });
      await this.fail(importId, `${totals.failed} row${totals.failed === 1 ? '' : 's'} could not be imported, so nothing was imported (this importer applies all rows or none). Fix the rows listed and import the file again.`, user.id);
      return;
    }
    await this.complete(importId, user.id, def);
  }

  /** Mapped rows of a file in chunks, from data record `startRow` on; `nextRow` is the checkpoint after the chunk. */
  private async *chunks(file: StoredFile, importer: ImporterConfig, fields: Record<string, FieldSpec>, startRow: number) {
    let mapper: ReturnType<typeof createMapper> | null = null;
    let rows: MappedRow[] = [];
    let records = 0;
    let nextRow = startRow;
    for await (const record of readCsv(file.path, file.encoding)) {
      if (record.index === -1) {
        mapper = createMapper(importer, cleanHeaders(record.cells), fields);
        continue;
      }
      if (record.index < startRow) continue;
      nextRow = record.index + 1;
      records++;
      if (!isBlankRecord(record.cells)) {
        const mapped = mapper!.map(record.cells, record.line, record.index);
        (mapped as MappedRow & { raw?: string[] }).raw = record.cells;
        rows.push(mapped);
      }
      if (records >= this.chunkSize) {
        yield { rows, nextRow, records };
        rows = [];
        records = 0;
      }
    }
    if (records > 0 || rows.length) yield { rows, nextRow, records };
  }

  /** Related records, then the records themselves, then links: all in the chunk's transaction. */
  private async writeChunk(trx: Transaction<any>, importId: number, user: AuthUser, def: ResourceDefinition, importer: ImporterConfig, file: StoredFile, rows: MappedRow[], fieldsCache: FieldsCache) {
    const counts: Counts = { created: 0, updated: 0, skipped: 0, failed: 0 };
    const failures: Failure[] = [];
    const failRow = (row: MappedRow, reason: string) => {
      counts.failed++;
      failures.push({ file_name: file.name, line: row.line, reason, data: rawOf(row) });
    };
    const live: MappedRow[] = [];
    for (const row of rows) {
      if (row.blank) continue;
      if (row.errors.length) failRow(row, row.errors.join(' '));
      else live.push(row);
    }

    const related = new RelatedResolver(this.ctx.records, this.ctx.resources, trx, user, importId, importer.create_related, fieldsCache);
    const fields = await batchFields(this.ctx.records, def, trx, fieldsCache);
    const type = importer.record_type;
    const tradeField = type === 'site' ? pivotField(fields, 'site_trades') : type === 'contractor' ? pivotField(fields, 'contractor_trades') : null;
    const collect = (pick: (row: MappedRow) => string | string[] | undefined) => live.flatMap((row) => [pick(row) ?? []].flat());
    const trades = await related.byName('trade', collect((row) => (tradeField ? row.trades : row.craft)));
    const statuses = fields.site_status_id ? await related.byName('site-status', collect((row) => row.status)) : new Map<string, Resolved>();
    const unions = fields.union_id ? await related.byName('union', collect((row) => row.union)) : new Map<string, Resolved>();
    const classifications = fields.classification_id ? await related.byName('classification', collect((row) => row.classification)) : new Map<string, Resolved>();
    const contractors = type !== 'contractor' ? await related.contractors(live.flatMap((row) => (row.contractor ? [row.contractor] : [])), type === 'site' ? 'general' : 'none') : new Map<string, Resolved>();
    const contacts = type !== 'member' ? await related.contacts(live.flatMap((row) => row.contacts)) : new Map<string, Resolved>();

    // Site types by slug or by name ('New Projects' → new-project).
    const siteTypes = type === 'site' && fields.type ? await trx.selectFrom('site_types').select(['slug', 'name']).where('deleted_at', 'is', null).execute() : [];
    const typeBySlug = new Map<string, string>();
    for (const t of siteTypes) {
      if (!t.slug) continue;
      typeBySlug.set(t.slug, t.slug);
      typeBySlug.set(slugOf(t.name), t.slug);
    }

    const batch: Array<{ row: MappedRow; values: Record<string, unknown> }> = [];
    for (const row of live) {
      const values = { ...row.values };
      if (typeof values.type === 'string' && typeBySlug.size) values.type = typeBySlug.get(values.type) ?? typeBySlug.get(slugOf(values.type)) ?? values.type;
      const problems: string[] = [];
      const use = (found: Resolved | undefined, assign: (id: number) => void) => {
        if (!found) return;
        if ('error' in found) problems.push(found.error);
        else assign(found.id);
      };
      if (tradeField && row.trades.length) {
        const ids: number[] = [];
        for (const name of row.trades) use(trades.get(name.toLowerCase()), (id) => ids.push(id));
        values[tradeField] = ids;
      }
      if (type === 'member' && row.craft && fields.trade_id) use(trades.get(row.craft.toLowerCase()), (id) => (values.trade_id = id));
      if (row.status) use(statuses.get(row.status.toLowerCase()), (id) => (values.site_status_id = id));
      if (row.union) use(unions.get(row.union.toLowerCase()), (id) => (values.union_id = id));
      if (row.classification) use(classifications.get(row.classification.toLowerCase()), (id) => (values.classification_id = id));
      if (row.contractor) {
        const field = type === 'site' ? 'general_contractor_id' : 'contractor_id';
        use(contractors.get(contractorKey(row.contractor)), (id) => {
          if (fields[field]) values[field] = id;
          (row as MappedRow & { contractorId?: number }).contractorId = id;
        });
      }
      for (const contact of row.contacts) use(contacts.get(contactKey(contact)), () => {});
      if (problems.length) failRow(row, problems.join(' '));
      else batch.push({ row, values });
    }

    const keyField = keyFieldOf(importer);
    const outcomes = await this.ctx.records.importBatch(trx, user, def, batch.map((b): BatchRow => ({ values: b.values })), {
      importId,
      fieldsCache,
      keyField: keyField && keyField in fields ? keyField : null,
      protectedFields: importer.protected_fields,
      // Defaults fill what a new record's row left empty; a new site with no type is 'pending'.
      createDefaults: { ...(type === 'site' ? { type: 'pending' } : type === 'contractor' ? { type: 'none' } : {}), ...importer.defaults },
    });

    const siteContacts: Array<{ site_id: number; contact_id: number; is_site_contact: boolean }> = [];
    const siteContractors: Array<{ site_id: number; contractor_id: number }> = [];
    const contractorContacts: Array<{ contractor_id: number; contact_id: number }> = [];
    outcomes.forEach((outcome, i) => {
      const { row } = batch[i];
      if (outcome.outcome === 'failed') return failRow(row, outcome.reason ?? 'The row could not be saved.');
      counts[outcome.outcome]++;
      if (!outcome.id) return;
      for (const contact of row.contacts) {
        const found = contacts.get(contactKey(contact));
        if (!found || !('id' in found)) continue;
        if (type === 'site') siteContacts.push({ site_id: outcome.id, contact_id: found.id, is_site_contact: row.isSiteContact });
        if (type === 'contractor') contractorContacts.push({ contractor_id: outcome.id, contact_id: found.id });
      }
      const contractorId = (row as MappedRow & { contractorId?: number }).contractorId;
      if (type === 'site' && contractorId) siteContractors.push({ site_id: outcome.id, contractor_id: contractorId });
    });
    await linkRows(trx, siteContacts, siteContractors, contractorContacts);
    return { counts, failures };
  }

  private async saveProgress(trx: Transaction<any>, importId: number, counts: Counts, failures: Failure[], checkpoint: Checkpoint, records: number) {
    if (failures.length) {
      const stored = await trx.selectFrom('import_failures').select(sql<number>`count(*)`.as('n')).where('import_id', '=', importId).executeTakeFirst();
      const room = Math.max(0, MAX_STORED_FAILURES - Number(stored?.n ?? 0));
      const kept = [...failures].sort((a, b) => a.line - b.line).slice(0, room).map((f) => ({ ...f, import_id: importId }));
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
      .where('id', '=', importId)
      .execute();
  }

  private async complete(importId: number, userId: number, def: ResourceDefinition) {
    const { db } = this.ctx;
    const row = await db
      .updateTable('imports')
      .set({ status: 'complete', finished_at: new Date(), updated_at: new Date(), total_rows: sql`processed_rows`, message: null })
      .where('id', '=', importId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await this.progress(importId, userId, 'ImportComplete');
    // One "many records changed" signal per import instead of one event per row: lists of this type refresh.
    const channels = await roleChannels(db, def, {});
    if (row.created_count + row.updated_count > 0) {
      await this.ctx.realtime.publish([...channels, userChannel(userId)], 'App.Events.ModelSaved', { type: def.type, id: null, data: { import_id: importId } });
    }
  }

  private async fail(importId: number, message: string, userId?: number) {
    await this.ctx.db.updateTable('imports').set({ status: 'failed', message, finished_at: new Date(), updated_at: new Date() }).where('id', '=', importId).execute();
    if (userId) await this.progress(importId, userId, 'ImportComplete');
  }

  /** ImportProcessing / ImportComplete to the person's own channel with the import's figures. */
  async progress(importId: number, userId: number, event: 'ImportProcessing' | 'ImportComplete') {
    const row = await this.ctx.db.selectFrom('imports').selectAll().where('id', '=', importId).executeTakeFirst();
    if (!row) return;
    await this.ctx.realtime.publish([userChannel(userId)], `App.Events.${event}`, { type: 'import', id: importId, data: presentImport(row) });
  }

  /** Undo (a job): records the import created are deleted, values it changed put back, newest first. */
  async undo(importId: number, job?: JobContext) {
    const { db } = this.ctx;
    const record = await db.selectFrom('imports').selectAll().where('id', '=', importId).executeTakeFirst();
    if (!record) throw new PermanentJobError(`Import ${importId} no longer exists.`);
    const user = record.undo_user_id ? await loadAuthUser(db, record.undo_user_id) : record.user_id ? await loadAuthUser(db, record.user_id) : null;
    if (!user) throw new PermanentJobError('No one to undo the import as.');
    await db.updateTable('imports').set({ undo_status: 'processing' }).where('id', '=', importId).execute();
    let lastId: number | null = null;
    const touched = new Set<string>();
    for (;;) {
      if (job?.stopping) throw new JobInterrupted();
      let query = db.selectFrom('import_records').selectAll().where('import_id', '=', importId).orderBy('id', 'desc').limit(2_000);
      if (lastId !== null) query = query.where('id', '<', lastId);
      const entries = await query.execute();
      if (!entries.length) break;
      await db.transaction().execute(async (trx) => {
        const byType = new Map<string, typeof entries>();
        for (const entry of entries) {
          if (!byType.has(entry.record_type)) byType.set(entry.record_type, []);
          byType.get(entry.record_type)!.push(entry);
        }
        for (const [type, list] of byType) {
          touched.add(type);
          await undoBatch(this.ctx.records, trx, user, definitionFor(this.ctx.resources, type), list as Array<{ record_id: number; created: boolean; before: Record<string, unknown> | null }>);
        }
      });
      lastId = Number(entries[entries.length - 1].id);
      await job?.heartbeat({ import_id: importId, undo_before: lastId });
    }
    await db.updateTable('imports').set({ undo_status: 'complete', undone_at: new Date(), updated_at: new Date() }).where('id', '=', importId).execute();
    await this.progress(importId, user.id, 'ImportComplete');
    for (const type of touched) {
      const def = definitionFor(this.ctx.resources, type);
      await this.ctx.realtime.publish([...(await roleChannels(db, def, {})), userChannel(user.id)], 'App.Events.ModelSaved', { type, id: null, data: { import_id: importId } });
    }
  }
}

/**
 * Planner statistics refreshed while an import grows its table: each time it has added about as many records as the
 * table had at the last refresh (about log2(growth) times: 7 for 100,000 rows into an empty table, never for a file
 * that only updates), the tables whose size moved are analyzed (db/analyze.ts: the record type's, its links,
 * revisions, undo entries). The embedded database has no autovacuum and the server's own check runs once a minute:
 * until then the planner keeps the figures of the near-empty table and, for one, matches 1,000 keys against a
 * 100,000-row table by reading every row (0.2 s a chunk instead of 0.2 ms).
 */
class Statistics {
  private added = 0;
  private threshold: number | null = null;

  constructor(private readonly table: string) {}

  async grown(db: Kysely<any>, created: number) {
    this.added += created;
    if (this.added === 0) return;
    this.threshold ??= await this.rows(db);
    if (this.added < this.threshold) return;
    await analyzeChangedTables(db);
    this.added = 0;
    this.threshold = await this.rows(db);
  }

  /** The table's size as the statistics know it (at least 1,000: smaller tables are read whole anyway). */
  private async rows(db: Kysely<any>) {
    const row = await sql<{ n: number }>`select reltuples::float8 as n from pg_class where oid = ${this.table}::regclass`.execute(db);
    return Math.max(1_000, Number(row.rows[0]?.n ?? 0));
  }
}

async function linkRows(
  trx: Transaction<any>,
  siteContacts: Array<{ site_id: number; contact_id: number; is_site_contact: boolean }>,
  siteContractors: Array<{ site_id: number; contractor_id: number }>,
  contractorContacts: Array<{ contractor_id: number; contact_id: number }>,
) {
  const unique = <T>(rows: T[], key: (row: T) => string) => [...new Map(rows.map((row) => [key(row), row])).values()];
  if (siteContacts.length) {
    await sql`insert into site_contacts (site_id, contact_id, is_site_contact)
      select site_id, contact_id, is_site_contact from json_to_recordset(${JSON.stringify(unique(siteContacts, (r) => `${r.site_id}:${r.contact_id}`))}::json)
      as x(site_id integer, contact_id integer, is_site_contact boolean)
      on conflict (site_id, contact_id) do update set is_site_contact = excluded.is_site_contact`.execute(trx);
  }
  if (siteContractors.length) {
    await sql`insert into site_contractors (site_id, contractor_id)
      select distinct x.site_id, x.contractor_id from json_to_recordset(${JSON.stringify(siteContractors)}::json) as x(site_id integer, contractor_id integer)
      where not exists (select 1 from site_contractors s where s.site_id = x.site_id and s.contractor_id = x.contractor_id)`.execute(trx);
  }
  if (contractorContacts.length) {
    await sql`insert into contractor_contacts (contractor_id, contact_id)
      select contractor_id, contact_id from json_to_recordset(${JSON.stringify(unique(contractorContacts, (r) => `${r.contractor_id}:${r.contact_id}`))}::json)
      as x(contractor_id integer, contact_id integer)
      on conflict do nothing`.execute(trx);
  }
}

const slugOf = (text: string) => normalise(text).replace(/\s+/g, '-');

function rawOf(row: MappedRow): Record<string, string> | null {
  const raw = (row as MappedRow & { raw?: string[] }).raw;
  return raw ? { cells: raw.slice(0, 60).map((c) => c.slice(0, 500)) } as unknown as Record<string, string> : null;
}

/** An `imports` row as the API and realtime events present it. */
export function presentImport(row: Record<string, any>) {
  const { importer, checkpoint, custom, files, ...rest } = row;
  return {
    ...rest,
    importer_name: importer?.name ?? null,
    files: (files as StoredFile[] | null)?.map((f) => ({ name: f.name, size: f.size, encoding: f.encoding })) ?? [],
    progress: row.total_rows ? Math.min(100, Math.round((row.processed_rows / row.total_rows) * 100)) : row.status === 'complete' ? 100 : 0,
  };
}

export type { FieldSpec };
