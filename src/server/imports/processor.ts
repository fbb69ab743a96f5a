import { performance } from 'node:perf_hooks';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { loadAuthUser } from '../auth/load-user.js';
import type { InputLimits } from '../config/config.js';
import { LimitExceeded, toInputLimitError } from '../config/input-limits.js';
import { storedJson } from '../db/dynamic-tables.js';
import { vacuumAfterLargeWrite } from '../db/embedded-maintenance.js';
import { type JobContext, JobInterrupted, jobCutOff, PermanentJobError } from '../jobs/worker.js';
import { type FieldsCache, undoBatch } from '../records/batch-writer.js';
import type { FieldSpec, ResourceDefinition } from '../records/resource.js';
import { phase, takePhases } from '../records/write-phases.js';
import { type FileChunk, type RawRow, unchangedRows, writeChunk } from './chunk-writer.js';
import { type CsvRecord, cleanHeaders, isBlankRecord, readCsvBatches } from './csv-reader.js';
import { deferIndexes, endIndexDeferral, estimatedRows, shouldDeferIndexes } from './deferred-indexes.js';
import { openImportFile, type StoredFile } from './import-files.js';
import {
  type Checkpoint,
  type ImportCounts as Counts,
  type ImportFailure as Failure,
  type ImportService,
  MAX_STORED_FAILURES,
} from './import-service.js';
import { importerProblems } from './importer-problems.js';
import { createMapper, type ImporterConfig, keyFieldOf, type Mapper } from './mapper.js';
import { definitionFor } from './record-types.js';
import { RowHashes } from './row-hashes.js';
import { Statistics } from './table-statistics.js';

export interface ProcessorOptions {
  /** Rows per transaction (each chunk's writes and the checkpoint commit together). */
  chunkSize?: number;
  /** Rows to write from which an import leaves the table's sort and search indexes out (deferred-indexes.ts; tests lower it). */
  deferIndexesFrom?: number;
  /** Test hook: called after each committed chunk (throw `SimulatedCrash` to stop as a dying process would). */
  afterChunk?: (chunk: number, importId: number) => void | Promise<void>;
}

/**
 * Runs an import (DESIGN.md 8): streams each file, maps rows with the importer, and writes them chunk by chunk
 * through the data service's batch path. Each chunk's writes, its failed rows and the import's checkpoint commit
 * in one transaction, so a restart resumes after the last committed chunk without duplicating or losing rows.
 * An all-or-nothing importer writes the whole import in one transaction and keeps nothing if any row fails.
 */
export class ImportProcessor {
  constructor(
    private readonly ctx: AppContext,
    private readonly imports: ImportService,
    private readonly options: ProcessorOptions = {},
  ) {}

  /**
   * Rows per transaction. On the embedded database a transaction holds its one connection, so every other
   * request waits for the chunk in hand: smaller chunks there keep the app responsive during a big import.
   */
  get chunkSize() {
    return (
      this.options.chunkSize ??
      (Number(process.env.IMPORT_CHUNK_ROWS) || (this.ctx.database.kind === 'pglite' ? 1_000 : 2_000))
    );
  }

  async run(importId: number, job?: JobContext) {
    const record = await this.imports.row(importId);
    if (!record || record.deleted_at) throw new PermanentJobError(`Import ${importId} no longer exists.`);
    if (record.status === 'complete' || record.status === 'failed') return;
    // A failed import ends its deferral of indexes, should it have one (a resumed import that fails now).
    const fail = async (message: string, userId?: number) => {
      await this.imports.fail(importId, message, userId);
      await endIndexDeferral(this.ctx, importId, null);
    };
    const user = record.user_id ? await loadAuthUser(this.ctx.db, record.user_id) : null;
    if (!user) return fail('The person who started this import no longer has an account.');
    const importer = storedJson<ImporterConfig | null>(record.importer);
    if (!importer) return fail('The importer of this import was not saved with it.');
    const def = definitionFor(this.ctx.resources, importer.record_type);
    const files = storedJson<StoredFile[]>(record.files);
    // A field the importer fills was deleted since the upload: fail, saying which, rather than drop the column.
    const problems = importerProblems(importer, await this.ctx.records.fields(def));
    if (problems.length) return fail(`The importer needs attention: ${problems.join(' ')}`, user.id);

    await this.imports.markProcessing(importId, record.started_at);
    await this.imports.progress(importId, user.id, 'ImportProcessing');

    try {
      // The fields of every type the import writes, read once for the run (as the mapper's are).
      const fieldsCache: FieldsCache = new Map();
      const hashes = await RowHashes.forRun(
        this.ctx.db,
        def,
        importer,
        keyFieldOf(importer),
        await this.ctx.records.fields(def),
      );
      if (importer.all_or_nothing)
        await this.runAllOrNothing(importId, user, def, importer, files, fieldsCache, hashes, job);
      else
        await this.runChunked(
          importId,
          user,
          def,
          importer,
          files,
          storedJson<Checkpoint>(record.checkpoint),
          fieldsCache,
          hashes,
          job,
        );
    } catch (error) {
      if (jobCutOff(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      await fail(`The import stopped: ${message}`, user.id);
      throw new PermanentJobError(message);
    }
  }

  private async runChunked(
    importId: number,
    user: AuthUser,
    def: ResourceDefinition,
    importer: ImporterConfig,
    files: StoredFile[],
    checkpoint: Checkpoint,
    fieldsCache: FieldsCache,
    hashes: RowHashes | null,
    job?: JobContext,
  ) {
    const { db } = this.ctx;
    const fields = await this.ctx.records.fields(def);
    let chunkNumber = 0;
    let deferDecided = false;
    const statistics = new Statistics(def.table);
    // Chunks the file brings again unchanged, counted but not yet saved (see below).
    let unsaved = null as { skipped: number; records: number; checkpoint: Checkpoint; since: number } | null;
    const saveUnsaved = async () => {
      if (!unsaved) return;
      const { skipped, records, checkpoint: next } = unsaved;
      unsaved = null;
      await phase('progress', async () => {
        await db.transaction().execute(async (trx) => {
          await job?.holdClaim(trx);
          await this.imports.saveProgress(
            trx,
            importId,
            { created: 0, updated: 0, skipped, failed: 0 },
            [],
            next,
            records,
          );
        });
        await job?.heartbeat({ import_id: importId, file: next.file, row: next.row });
        await this.imports.progress(importId, user.id, 'ImportProcessing');
      });
    };
    for (let fileIndex = checkpoint.file; fileIndex < files.length; fileIndex++) {
      const file = files[fileIndex];
      const startRow = fileIndex === checkpoint.file ? checkpoint.row : 0;
      const chunks = this.chunks(file, importer, fields, startRow);
      for (;;) {
        const next = await phase('parse', () => chunks.next());
        if (next.done) break;
        const chunk = next.value;
        if (job?.stopping) throw new JobInterrupted();
        chunkNumber++;
        // Which rows the file brings again unchanged, found before the chunk's transaction (skipping a row writes
        // nothing, so a record edited meanwhile is as if edited after the import). A chunk of nothing else needs no
        // transaction: its count and checkpoint are saved with the next chunk written, or once a second. Should the
        // process stop before, a restart reads those rows again and sets them aside again.
        const found = await phase('chunk', () => unchangedRows(db, chunk, hashes));
        if (found.unchanged.size === chunk.rows.length) {
          unsaved = {
            skipped: (unsaved?.skipped ?? 0) + found.unchanged.size,
            records: (unsaved?.records ?? 0) + chunk.records,
            checkpoint: { file: fileIndex, row: chunk.nextRow },
            since: unsaved?.since ?? performance.now(),
          };
          if (performance.now() - unsaved.since >= 1_000) await saveUnsaved();
          await this.options.afterChunk?.(chunkNumber, importId);
          continue;
        }
        if (!deferDecided) {
          deferDecided = true;
          await phase('indexes', () =>
            this.deferIndexesIfLarge(importId, def, files, fileIndex, chunk, found.unchanged.size),
          );
        }
        const before = unsaved;
        unsaved = null;
        const created = await phase('transaction', () =>
          db.transaction().execute(async (trx) => {
            await job?.holdClaim(trx);
            // 'chunk': the chunk's own work outside the named phases (hashing, building the statements); what is left of
            // 'transaction' is beginning, claiming and committing it.
            const { counts, failures } = await phase('chunk', () =>
              writeChunk(
                this.ctx.records,
                this.ctx.resources,
                trx,
                importId,
                user,
                def,
                importer,
                file,
                chunk,
                fieldsCache,
                hashes,
                found,
              ),
            );
            counts.skipped += before?.skipped ?? 0;
            await phase('progress', () =>
              this.imports.saveProgress(
                trx,
                importId,
                counts,
                failures,
                { file: fileIndex, row: chunk.nextRow },
                chunk.records + (before?.records ?? 0),
              ),
            );
            return counts.created;
          }),
        );
        // Stopping (a drain): the chunk is committed with its checkpoint; another process goes on from it at once.
        if (job?.stopping) throw new JobInterrupted();
        await phase('progress', async () => {
          await statistics.grown(db, created);
          await job?.heartbeat({ import_id: importId, file: fileIndex, row: chunk.nextRow });
          await this.imports.progress(importId, user.id, 'ImportProcessing');
        });
        await this.options.afterChunk?.(chunkNumber, importId);
      }
      await saveUnsaved();
      if (fileIndex + 1 < files.length) await this.imports.saveCheckpoint(importId, { file: fileIndex + 1, row: 0 });
    }
    await this.complete(importId, user, def);
    const phases = takePhases();
    if (phases) console.warn(`write phases of import ${importId}: ${phases}`);
  }

  private async runAllOrNothing(
    importId: number,
    user: AuthUser,
    def: ResourceDefinition,
    importer: ImporterConfig,
    files: StoredFile[],
    fieldsCache: FieldsCache,
    hashes: RowHashes | null,
    job?: JobContext,
  ) {
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
            const result = await writeChunk(
              this.ctx.records,
              this.ctx.resources,
              trx,
              importId,
              user,
              def,
              importer,
              file,
              chunk,
              fieldsCache,
              hashes,
            );
            await statistics.grown(trx, result.counts.created);
            for (const key of Object.keys(totals) as Array<keyof Counts>) totals[key] += result.counts[key];
            records += chunk.records;
            if (failures.length < MAX_STORED_FAILURES)
              failures.push(...result.failures.slice(0, MAX_STORED_FAILURES - failures.length));
            // No heartbeat here: on the embedded database the transaction holds the one connection.
          }
        }
        if (totals.failed > 0) throw rollback;
        await this.imports.saveProgress(trx, importId, totals, [], { file: files.length, row: 0 }, records);
      });
    } catch (error) {
      if (error !== rollback) throw error;
      await db.transaction().execute(async (trx) => {
        await this.imports.saveProgress(
          trx,
          importId,
          { created: 0, updated: 0, skipped: 0, failed: totals.failed },
          failures,
          { file: 0, row: 0 },
          records,
        );
      });
      await this.imports.fail(
        importId,
        `${totals.failed} row${totals.failed === 1 ? '' : 's'} could not be imported, so nothing was imported (this importer applies all rows or none). Fix the rows listed and import the file again.`,
        user.id,
      );
      return;
    }
    await this.complete(importId, user, def);
  }

  /**
   * At the first chunk with rows to write: leaves the table's sort and search indexes out if the rows the files bring
   * from here on, at this chunk's share of rows to write (the rest unchanged), are many for the table.
   */
  private async deferIndexesIfLarge(
    importId: number,
    def: ResourceDefinition,
    files: StoredFile[],
    fileIndex: number,
    chunk: FileChunk,
    unchanged: number,
  ) {
    const ahead =
      files.slice(fileIndex).reduce((sum, file) => sum + Math.max(0, file.lines - 1), 0) -
      (chunk.nextRow - chunk.records);
    const rows = (ahead * (chunk.rows.length - unchanged)) / Math.max(1, chunk.records);
    if (
      shouldDeferIndexes(
        rows,
        await estimatedRows(this.ctx.db, def.table),
        this.options.deferIndexesFrom ?? this.ctx.config.importDeferIndexesRows,
      )
    )
      await deferIndexes(this.ctx, importId, def.table);
  }

  /**
   * The import's rows are written: the indexes it left out are made again (if no other import still leaves them out),
   * and the embedded database vacuums the rows, before the import says it is complete.
   */
  private async complete(importId: number, user: AuthUser, def: ResourceDefinition) {
    await phase('indexes', () => endIndexDeferral(this.ctx, importId, def.table));
    await phase('vacuum', () => vacuumAfterLargeWrite(this.ctx.database));
    await this.imports.complete(importId, user, def);
  }

  /**
   * A file's data records in chunks, from data record `startRow` on, with the mapper for its headers; `nextRow` is the
   * checkpoint after the chunk. The rows are mapped in the chunk's transaction (chunk-writer.ts rowsToWrite), where
   * rows imported before unchanged are set aside without being mapped.
   */
  private async *chunks(
    file: StoredFile,
    importer: ImporterConfig,
    fields: Record<string, FieldSpec>,
    startRow: number,
  ): AsyncGenerator<FileChunk> {
    let mapper: Mapper | null = null;
    let headers: string[] = [];
    let rows: RawRow[] = [];
    let records = 0;
    let nextRow = startRow;
    const { limits } = this.ctx.config;
    const source = await openImportFile(this.ctx.files, file);
    const batches = readCsvBatches(source, file.encoding, { limits });
    for await (const batch of withLimitsInWords(batches, limits, file.name)) {
      for (const record of batch) {
        if (record.index === -1) {
          headers = cleanHeaders(record.cells);
          mapper = createMapper(importer, headers, fields);
          continue;
        }
        if (record.index < startRow) continue;
        nextRow = record.index + 1;
        records++;
        if (!isBlankRecord(record.cells)) rows.push({ cells: record.cells, line: record.line, index: record.index });
        if (records >= this.chunkSize) {
          yield { mapper: mapper!, headers, rows, nextRow, records };
          rows = [];
          records = 0;
        }
      }
    }
    if (records > 0 || rows.length) yield { mapper: mapper!, headers, rows, nextRow, records };
  }

  /** Undo (a job): records the import created are deleted, values it changed put back, newest first. */
  async undo(importId: number, job?: JobContext) {
    const { db } = this.ctx;
    const record = await this.imports.row(importId);
    if (!record) throw new PermanentJobError(`Import ${importId} no longer exists.`);
    const user = record.undo_user_id
      ? await loadAuthUser(db, record.undo_user_id)
      : record.user_id
        ? await loadAuthUser(db, record.user_id)
        : null;
    if (!user) throw new PermanentJobError('No one to undo the import as.');
    await this.imports.markUndoing(importId);
    let lastId: number | null = null;
    const touched = new Set<string>();
    for (;;) {
      if (job?.stopping) throw new JobInterrupted();
      const entries = await this.imports.undoEntries(importId, lastId, 2_000);
      if (!entries.length) break;
      await db.transaction().execute(async (trx) => {
        await job?.holdClaim(trx);
        const byType = new Map<string, typeof entries>();
        for (const entry of entries) {
          if (!byType.has(entry.record_type)) byType.set(entry.record_type, []);
          byType.get(entry.record_type)!.push(entry);
        }
        for (const [type, list] of byType) {
          touched.add(type);
          await undoBatch(
            this.ctx.records,
            trx,
            user,
            definitionFor(this.ctx.resources, type),
            list as Array<{ record_id: number; created: boolean; before: Record<string, unknown> | null }>,
            `import-undo:${importId}`,
          );
        }
      });
      lastId = Number(entries[entries.length - 1].id);
      await job?.heartbeat({ import_id: importId, undo_before: lastId });
    }
    await this.imports.markUndone(importId, user, touched);
  }
}

/** The batches of `batches`, a file over an input limit failing with the limit in words (the import's message). */
async function* withLimitsInWords(batches: AsyncGenerator<CsvRecord[]>, limits: InputLimits, fileName: string) {
  try {
    yield* batches;
  } catch (error) {
    if (error instanceof LimitExceeded) throw toInputLimitError(error, limits, { subject: `"${fileName}"` });
    throw error;
  }
}
