import { sql, type Transaction } from 'kysely';
import { can } from '../../common/permissions.js';
import { keepHolders } from '../access/holders.js';
import type { AuthUser } from '../auth/auth-user.js';
import { dynamicTables } from '../db/dynamic-tables.js';
import { countMarketShareOnce } from '../db/market-share-once.js';
import type { DB } from '../db/schema.generated.js';
import { forbidden, HttpError, ValidationError } from '../http/errors.js';
import { readCachingTransaction } from './batch-reads.js';
import { humanise, isBlank } from './fields.js';
import { emptyHidden, withSetValues } from './form-logic-outcome.js';
import type { RecordService } from './record-service.js';
import { groupBy, insertRecordset, tableColumnTypes, updateRecordset, writePivotsBulk } from './recordset.js';
import type { FieldSpec, ResourceDefinition, WriteContext } from './resource.js';
import { changesOf, type Revision } from './revisions.js';
import { checkReferences, splitByStorage } from './storage.js';
import { UniqueValues } from './unique-values.js';
import { validateInput } from './validate.js';
import { phase } from './write-phases.js';

/**
 * The batch write path of the data service (DESIGN.md 3) for imports: the same permission rules, validation,
 * form-logic hook, beforeWrite/afterWrite hooks and revisions as a record saved by hand, but one query per
 * kind of write for a whole chunk of rows instead of one transaction per row. Runs inside the caller's
 * transaction, so the caller commits a chunk and its checkpoint together.
 */

export interface BatchRow {
  /** The record as it would be sent to POST /api/{resource}: field name → value; absent keys are left alone. */
  values: Record<string, unknown>;
}

export interface BatchOptions {
  importId: number;
  /** The field that matches a row to an existing record (`external_id`); null: every row is new. */
  keyField: string | null;
  /** Fields not overwritten once a person has edited them (a revision without import_id touched them). */
  protectedFields?: readonly string[];
  /** May rows that match nothing create a record (default true)? */
  create?: boolean;
  /** May rows that match a record update it (default true)? */
  update?: boolean;
  /** Values a new record gets when the row leaves them empty (never applied to updates). */
  createDefaults?: Record<string, unknown>;
  /** Record what the import created and changed (import_records) so it can be undone (default true). */
  recordUndo?: boolean;
  /** Where the fields of the types written are kept between batches (see batchFields). */
  fieldsCache?: FieldsCache;
}

export type BatchOutcomeKind = 'created' | 'updated' | 'skipped' | 'failed';

export interface BatchOutcome {
  outcome: BatchOutcomeKind;
  id?: number;
  reason?: string;
}

interface Pending {
  index: number;
  values: Record<string, any>;
  existing?: Record<string, any>;
  changes?: Record<string, [unknown, unknown]>;
  ctx: WriteContext & { action: 'create' | 'update' };
}

const INSERT_SLICE = 1_000;

/** The batch's validator: the same `validateInput` as a record saved by hand (field schemas are built once, in fields.ts). */
export function createBatchValidator(fields: Record<string, FieldSpec>, readOnly: readonly string[] = []) {
  return (body: Record<string, unknown>, options: Omit<Parameters<typeof validateInput>[2], 'readOnly'>) =>
    validateInput(body, fields, { ...options, readOnly: [...readOnly] });
}

/** A person-readable reason from a validation or HTTP error ("Bid date: ..."). */
export function reasonOf(error: unknown): string {
  if (error instanceof ValidationError) return Object.values(error.errors).flat().join(' ') || error.message;
  if (error instanceof HttpError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export async function importBatch(
  service: RecordService,
  trx: Transaction<DB>,
  user: AuthUser,
  def: ResourceDefinition,
  rows: readonly BatchRow[],
  options: BatchOptions,
): Promise<BatchOutcome[]> {
  return countMarketShareOnce(trx, () => writeBatch(service, trx, user, def, rows, options));
}

async function writeBatch(
  service: RecordService,
  trx: Transaction<DB>,
  user: AuthUser,
  def: ResourceDefinition,
  rows: readonly BatchRow[],
  options: BatchOptions,
): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = rows.map(() => ({ outcome: 'skipped' }));
  if (rows.length === 0) return outcomes;
  const entity = def.permission ?? def.type;
  // Permission once for the batch (prefix mode where categories exist), then per row for its category.
  const mayCreate = can(user, `${entity}:create`, Boolean(def.categoryColumn));
  const mayUpdate = can(user, `${entity}:update`, Boolean(def.categoryColumn));

  const fields = await batchFields(service, def, trx, options.fieldsCache);
  const validate = createBatchValidator(fields, def.readOnly ?? []);
  const { keyField } = options;
  const keySpec = keyField ? fields[keyField] : undefined;
  if (keyField && !keySpec) throw new HttpError(422, `The key field "${keyField}" is not a field of ${def.name}.`);
  const keyFolded = isKeyFolded(keyField, keySpec);
  const keyOf = keyReader(keyField, keySpec);

  // Rows repeating a key already seen in this batch wait for a second pass, where they update the record
  // the first one wrote (so a file listing a site twice ends with one site).
  const seen = new Set<string>();
  const firstPass: number[] = [];
  const repeats: number[] = [];
  rows.forEach((row, index) => {
    const key = keyOf(row.values);
    if (key !== null && seen.has(key)) repeats.push(index);
    else {
      if (key !== null) seen.add(key);
      firstPass.push(index);
    }
  });

  // ---- existing records by key: one query -------------------------------------------------------------
  const existingByKey = new Map<string, Record<string, any>>();
  const keys = [...seen];
  if (keyField && keys.length) {
    const column = keySpec!.storage === 'custom' ? sql`(t.custom ->> ${sql.lit(keyField)})` : sql.ref(`t.${keyField}`);
    const compared = keyFolded ? sql`lower(${column})` : column;
    let query = dynamicTables(trx)
      .selectFrom(`${def.table} as t`)
      .selectAll('t')
      .where(sql<boolean>`${compared} = any(${keys}::text[])`);
    if (def.softDelete) query = query.where('t.deleted_at', 'is', null);
    if (def.scope) query = query.where(`t.${def.scope.column}`, '=', def.scope.value);
    const found = await phase('existing', () => query.orderBy('t.id').execute());
    const presented = found.length ? await phase('existing', () => service.present(def, found, fields, trx)) : [];
    presented.forEach((record) => {
      const key = keyOf(record);
      if (key !== null && !existingByKey.has(key)) existingByKey.set(key, record);
    });
  }

  // ---- which of them the person may change (their rule for updates: their turf, their own...): one query --------
  const access = service.access;
  const updatable = await access.admitted(
    trx,
    def,
    user,
    [...existingByKey.values()].map((record) => record.id),
    'update',
  );

  // ---- fields a person edited since, which the import must not overwrite: one query ----------------------
  const edited = new Map<number, Set<string>>();
  const protectedFields = (options.protectedFields ?? []).filter((f) => f in fields);
  if (protectedFields.length && existingByKey.size) {
    const ids = [...existingByKey.values()].map((r) => r.id);
    const result = await phase('protected fields', () =>
      sql<{ id: number; key: string }>`
      select distinct r.revisionable_id as id, k.key
      from revisions r cross join lateral jsonb_object_keys(r.changes) as k(key)
      where r.revisionable_type = ${def.type} and r.revisionable_id = any(${ids}::int[]) and r.import_id is null
        and r.action in ('created', 'updated') and k.key = any(${protectedFields}::text[])`.execute(trx),
    );
    for (const row of result.rows) {
      if (!edited.has(row.id)) edited.set(row.id, new Set());
      edited.get(row.id)!.add(row.key);
    }
  }

  // ---- validate and prepare each row: the same checks as a record saved by hand -------------------------
  const reads = readCachingTransaction(trx);
  const pivotFields = Object.keys(fields).filter((field) => typeof fields[field].storage === 'object');
  const creates: Pending[] = [];
  const updates: Pending[] = [];
  const unique = UniqueValues.any(fields) ? new UniqueValues(service, trx, def, fields, user) : null;
  await phase('prepare', async () => {
    for (const index of firstPass) {
      const body = { ...rows[index].values };
      // Pivot ids as the record presents them (unique, ascending), so an unchanged list is not a change.
      for (const field of pivotFields) {
        if (Array.isArray(body[field]))
          body[field] = [...new Set((body[field] as unknown[]).map(Number))].sort((a, b) => a - b);
      }
      const key = keyOf(body);
      const existing = key !== null ? existingByKey.get(key) : undefined;
      try {
        if (existing && options.update === false) {
          // Match only (related records by name): the existing record is used as it is.
          outcomes[index] = { outcome: 'skipped', id: existing.id, reason: 'Matched an existing record.' };
          continue;
        }
        if (existing) {
          if (!mayUpdate)
            throw forbidden(
              `A ${def.singular.toLowerCase()} with this ${humanise(keyField!)} exists and you may not update it.`,
            );
          if (def.categoryColumn && !access.may(user, def, 'update', existing[def.categoryColumn])) {
            throw forbidden(
              `You do not have permission to update this ${def.singular.toLowerCase()} (${existing[def.categoryColumn]}).`,
            );
          }
          // A record out of the person's reach (their rule for changing it: their turf, their own...) stays as it is.
          if (!updatable.has(existing.id)) throw forbidden(await access.refusal(user, def, 'update', trx));
          for (const field of edited.get(existing.id) ?? []) delete body[field];
          const logic = await service.formLogic(def, { ...existing, ...body }, reads);
          const { values } = validate(withSetValues(body, logic, fields, def.readOnly), {
            mode: 'update',
            hidden: logic.hidden,
            existing,
            setByLogic: new Set(Object.keys(logic.setValues)),
          });
          if (
            def.categoryColumn &&
            def.categoryColumn in values &&
            !access.may(user, def, 'update', values[def.categoryColumn])
          ) {
            throw forbidden(
              `You do not have permission to make a ${def.singular.toLowerCase()} ${values[def.categoryColumn]}.`,
            );
          }
          await access.checkFieldRules(user, def, values, existing);
          const ctx: Pending['ctx'] = {
            user,
            trx: reads,
            records: service,
            action: 'update',
            existing,
            importId: options.importId,
          };
          await checkReferences(trx, values, fields, knownReferences(trx));
          const prepared = emptyHidden(
            (await def.hooks?.beforeWrite?.(values, ctx)) ?? values,
            logic,
            fields,
            existing,
            def.readOnly,
          );
          ctx.values = prepared;
          await unique?.check(prepared, existing.id, `row ${index + 1} of this batch`);
          const changes = changesOf(existing, prepared);
          if (Object.keys(changes).length === 0) {
            outcomes[index] = { outcome: 'skipped', id: existing.id, reason: 'No changes.' };
            continue;
          }
          updates.push({ index, values: prepared, existing, changes, ctx });
        } else {
          if (options.create === false)
            throw new HttpError(
              422,
              `No ${def.singular.toLowerCase()} "${keyField ? String(body[keyField] ?? '') : ''}" exists, and this importer does not create them.`,
            );
          if (!mayCreate)
            throw forbidden(`No ${def.singular.toLowerCase()} matches this row and you may not create one.`);
          for (const [field, fallback] of Object.entries(options.createDefaults ?? {})) {
            if (field in fields && isBlank(body[field]) && !isBlank(fallback)) body[field] = fallback;
          }
          const category = def.categoryColumn ? ((body as any)[def.categoryColumn] ?? null) : undefined;
          if (def.categoryColumn && category !== null && !access.may(user, def, 'create', category as string)) {
            throw forbidden(
              `You do not have permission to create a ${def.singular.toLowerCase()} of type ${String(category)}.`,
            );
          }
          const logic = await service.formLogic(def, body, reads);
          const { values } = validate(withSetValues(body, logic, fields, def.readOnly), {
            mode: 'create',
            hidden: logic.hidden,
            setByLogic: new Set(Object.keys(logic.setValues)),
          });
          await access.checkFieldRules(user, def, values);
          const ctx: Pending['ctx'] = {
            user,
            trx: reads,
            records: service,
            action: 'create',
            importId: options.importId,
          };
          await checkReferences(trx, values, fields, knownReferences(trx));
          const prepared = emptyHidden(
            (await def.hooks?.beforeWrite?.(values, ctx)) ?? values,
            logic,
            fields,
            undefined,
            def.readOnly,
          );
          ctx.values = prepared;
          await unique?.check(prepared, undefined, `row ${index + 1} of this batch`);
          creates.push({ index, values: prepared, ctx });
        }
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        outcomes[index] = { outcome: 'failed', reason: reasonOf(error) };
      }
    }
  });

  const types = await tableColumnTypes(trx, def.table);
  // Whole rows back from the database only for a row-by-row afterWrite hook; otherwise ids are enough.
  const wholeRows = Boolean(def.hooks?.afterWrite && !def.hooks.afterWriteMany);
  const revisions: Revision[] = [];
  const undo: Array<Record<string, unknown>> = [];
  const now = new Date().toISOString();

  // ---- creates: one multi-row insert per set of columns ---------------------------------------------------
  const createSplits = new Map(creates.map((p) => [p, split(p.values, fields)]));
  const createGroups = groupBy(creates, (p) => signature(createSplits.get(p)!.columns, def));
  for (const group of createGroups.values()) {
    for (let start = 0; start < group.length; start += INSERT_SLICE) {
      const slice = group.slice(start, start + INSERT_SLICE);
      const splits = slice.map((p) => createSplits.get(p)!);
      const scope = def.scope ? { [def.scope.column]: def.scope.value } : {};
      const records = splits.map((s) => ({
        ...s.columns,
        ...scope,
        ...(def.customFields ? { custom: s.custom } : {}),
        created_at: now,
        updated_at: now,
        ...(types.has('import_id') ? { import_id: options.importId } : {}),
      }));
      const columns = Object.keys(records[0]);
      const inserted = await phase('insert', () => insertRecordset(trx, def.table, columns, types, records, wholeRows));
      for (let i = 0; i < slice.length; i++) {
        const pending = slice[i];
        const row = inserted[i];
        outcomes[pending.index] = { outcome: 'created', id: row.id };
        revisions.push({
          type: def.type,
          id: row.id,
          action: 'imported',
          changes: changesOf({}, pending.values),
          importId: options.importId,
          event: 'created',
        });
        undo.push({
          import_id: options.importId,
          record_type: def.type,
          record_id: row.id,
          created: true,
          before: null,
        });
      }
      await phase('pivots', () =>
        writePivotsBulk(
          trx,
          slice.map((_p, i) => ({ id: inserted[i].id, pivots: splits[i].pivots })),
          fields,
          false,
        ),
      );
      await phase('after write', () =>
        afterWrites(
          def,
          trx,
          slice.map((p, i) => ({
            record: wholeRows ? inserted[i] : { ...p.values, id: inserted[i].id },
            ctx: { ...p.ctx, trx },
          })),
        ),
      );
    }
  }

  // ---- updates: one UPDATE ... FROM json_to_recordset per set of changed columns ---------------------------
  const updateGroups = groupBy(updates, (p) => {
    const { columns, custom } = split(pick(p.values, Object.keys(p.changes!)), fields);
    return signature(columns, def) + (Object.keys(custom).length ? '|custom' : '');
  });
  for (const group of updateGroups.values()) {
    for (let start = 0; start < group.length; start += INSERT_SLICE) {
      const slice = group.slice(start, start + INSERT_SLICE);
      const splits = slice.map((p) => split(pick(p.values, Object.keys(p.changes!)), fields));
      const columns = Object.keys(splits[0].columns);
      const withCustom = splits.some((s) => Object.keys(s.custom).length > 0);
      const records = slice.map((p, i) => ({
        id: p.existing!.id,
        ...splits[i].columns,
        ...(withCustom ? { custom: splits[i].custom } : {}),
      }));
      const updated = await phase('update', () =>
        updateRecordset(trx, def.table, columns, withCustom, types, records, wholeRows),
      );
      const byId = new Map(updated.map((row) => [row.id, row]));
      for (let i = 0; i < slice.length; i++) {
        const pending = slice[i];
        const id = pending.existing!.id;
        outcomes[pending.index] = { outcome: 'updated', id };
        revisions.push({
          type: def.type,
          id,
          action: 'imported',
          changes: pending.changes!,
          importId: options.importId,
          event: 'updated',
        });
        const before: Record<string, unknown> = {};
        for (const [field, [old]] of Object.entries(pending.changes!)) before[field] = old;
        undo.push({ import_id: options.importId, record_type: def.type, record_id: id, created: false, before });
      }
      await phase('pivots', () =>
        writePivotsBulk(
          trx,
          slice.map((p, i) => ({ id: p.existing!.id, pivots: splits[i].pivots })),
          fields,
          true,
        ),
      );
      await phase('after write', () =>
        afterWrites(
          def,
          trx,
          slice.map((p) => ({
            record: wholeRows ? (byId.get(p.existing!.id) ?? p.existing!) : { ...p.existing!, ...p.values },
            ctx: { ...p.ctx, trx },
          })),
        ),
      );
    }
  }

  // ---- what was written must land inside the person's reach (a site created outside their turf, not their own) ----
  // Whose the written rows are, for the check to read (and again for those it takes back; the rest with the revisions).
  await phase('holders', () => keepHolders(service, trx, revisions));
  const landed = await phase('reach', () => refuseOutside(service, trx, user, def, creates, updates, outcomes));
  if (landed.size)
    await keepHolders(
      service,
      trx,
      revisions.filter((revision) => landed.has(revision.id)),
    );
  const kept = revisions.filter((revision) => !landed.has(revision.id));
  undo.splice(0, undo.length, ...undo.filter((entry) => !landed.has(entry.record_id as number)));
  await phase('revisions', () => service.recordWrites(trx, user, kept));
  if (undo.length && (options.recordUndo ?? true)) {
    await phase('undo entries', () =>
      sql`insert into import_records (import_id, record_type, record_id, created, before)
      select import_id, record_type, record_id, created, before
      from json_to_recordset(${JSON.stringify(undo)}::json) as x(import_id integer, record_type text, record_id integer, created boolean, before jsonb)`.execute(
        trx,
      ),
    );
  }

  // ---- second pass: rows repeating a key update what the first pass wrote -----------------------------------
  if (repeats.length) {
    const again = await importBatch(
      service,
      trx,
      user,
      def,
      repeats.map((i) => rows[i]),
      options,
    );
    repeats.forEach((index, i) => {
      outcomes[index] = again[i];
    });
  }
  return outcomes;
}

/**
 * The rows of a batch that would leave a record outside the person's reach (access/policy.ts: their rule for reading
 * what they create, for changing what they update): a created one is taken out again and its row fails with the rule's
 * words; an update moving a record out fails the whole batch (the transaction is undone), naming the rows. Returns the
 * ids taken out.
 */
async function refuseOutside(
  service: RecordService,
  trx: Transaction<DB>,
  user: AuthUser,
  def: ResourceDefinition,
  creates: Pending[],
  updates: Pending[],
  outcomes: BatchOutcome[],
): Promise<Set<number>> {
  const removed = new Set<number>();
  const idOf = (pending: Pending) => outcomes[pending.index].id!;
  const created = creates.filter((p) => outcomes[p.index].outcome === 'created');
  const admitted = await service.access.admitted(trx, def, user, created.map(idOf), 'read');
  const outside = created.filter((p) => !admitted.has(idOf(p)));
  if (outside.length) {
    const words = (await service.access.refusal(user, def, 'read', trx)).replace(' is ', ' would be ');
    for (const pending of outside) {
      removed.add(idOf(pending));
      outcomes[pending.index] = { outcome: 'failed', reason: words };
    }
    await dynamicTables(trx)
      .deleteFrom(def.table)
      .where('id', 'in', [...removed])
      .execute();
  }
  const updated = updates.filter((p) => outcomes[p.index].outcome === 'updated');
  const stays = await service.access.admitted(trx, def, user, updated.map(idOf), 'update');
  const moved = updated.filter((p) => !stays.has(idOf(p)));
  if (moved.length)
    throw new HttpError(
      422,
      `Rows ${moved.map((p) => p.index + 1).join(', ')} would move records out of your reach: ${await service.access.refusal(user, def, 'update', trx)}`,
    );
  return removed;
}

/**
 * Puts back what an import did, for one chunk of its `import_records` (newest first): records it created are
 * deleted (soft where the type supports it), fields it changed get their old values back, with the type's
 * afterWrite work for them as for any update (a site moved back is placed in its regions again). Revisions are
 * written (deleted / updated) without import_id, as the person undoing is acting by hand, all of one batch
 * (`batchId`: the activity feed shows the undo as one entry).
 */
export async function undoBatch(
  service: RecordService,
  trx: Transaction<DB>,
  user: AuthUser,
  def: ResourceDefinition,
  entries: ReadonlyArray<{ record_id: number; created: boolean; before: Record<string, unknown> | null }>,
  batchId: string | null = null,
) {
  await countMarketShareOnce(trx, () => undoEntries(service, trx, user, def, entries, batchId));
}

async function undoEntries(
  service: RecordService,
  trx: Transaction<DB>,
  user: AuthUser,
  def: ResourceDefinition,
  entries: ReadonlyArray<{ record_id: number; created: boolean; before: Record<string, unknown> | null }>,
  batchId: string | null,
) {
  const fields = await batchFields(service, def, trx);
  const types = await tableColumnTypes(trx, def.table);
  const revisions: Revision[] = [];
  const created = [...new Set(entries.filter((e) => e.created).map((e) => e.record_id))];
  if (created.length) {
    let removed: Array<{ id: number }>;
    if (def.softDelete) {
      removed = await dynamicTables(trx)
        .updateTable(def.table)
        .set({ deleted_at: new Date(), updated_at: new Date() })
        .where('id', 'in', created)
        .where('deleted_at', 'is', null)
        .returning('id')
        .$castTo<{ id: number }>()
        .execute();
    } else {
      removed = await dynamicTables(trx)
        .deleteFrom(def.table)
        .where('id', 'in', created)
        .returning('id')
        .$castTo<{ id: number }>()
        .execute();
    }
    for (const row of removed) revisions.push({ type: def.type, id: row.id, action: 'deleted', changes: {}, batchId });
  }
  const changed = entries.filter((e) => !e.created && e.before && !created.includes(e.record_id));
  if (changed.length) {
    const ids = [...new Set(changed.map((e) => e.record_id))];
    const current = await dynamicTables(trx).selectFrom(def.table).selectAll().where('id', 'in', ids).execute();
    const presented = new Map((await service.present(def, current, fields, trx)).map((r) => [r.id, r]));
    const pending = changed
      .filter((e) => presented.has(e.record_id))
      .map((e) => ({
        id: e.record_id,
        values: pick(
          e.before!,
          Object.keys(e.before!).filter((k) => k in fields),
        ),
        existing: presented.get(e.record_id)!,
      }));
    const wholeRows = Boolean(def.hooks?.afterWrite && !def.hooks.afterWriteMany);
    const groups = groupBy(
      pending,
      (p) => signature(split(p.values, fields).columns, def) + '|' + Object.keys(split(p.values, fields).custom).length,
    );
    for (const group of groups.values()) {
      const splits = group.map((p) => split(p.values, fields));
      const columns = Object.keys(splits[0].columns);
      const withCustom = splits.some((s) => Object.keys(s.custom).length > 0);
      const updated = await updateRecordset(
        trx,
        def.table,
        columns,
        withCustom,
        types,
        group.map((p, i) => ({ id: p.id, ...splits[i].columns, ...(withCustom ? { custom: splits[i].custom } : {}) })),
        wholeRows,
      );
      await writePivotsBulk(
        trx,
        group.map((p, i) => ({ id: p.id, pivots: splits[i].pivots })),
        fields,
        true,
      );
      const byId = new Map(updated.map((row) => [row.id, row]));
      await afterWrites(
        def,
        trx,
        group.map((p) => ({
          record: wholeRows ? (byId.get(p.id) ?? p.existing) : { ...p.existing, ...p.values },
          ctx: { user, trx, records: service, action: 'update' as const, existing: p.existing, values: p.values },
        })),
      );
      for (const p of group)
        revisions.push({
          type: def.type,
          id: p.id,
          action: 'updated',
          changes: changesOf(p.existing, p.values),
          batchId,
        });
    }
  }
  await service.recordWrites(trx, user, revisions);
  return { deleted: created.length, restored: changed.length };
}

/** A row of `RecordService.writeBulk`: column values as stored (JSON values as objects); with an `id` it updates that record. */
export interface BulkRow {
  id?: number;
  values: Record<string, unknown>;
  /** What its `imported` revision says changed. */
  changes: Record<string, unknown>;
}

/**
 * The bulk statements of `RecordService.writeBulk`: creates in multi-row inserts and updates in `UPDATE ... FROM
 * json_to_recordset`, grouped by the columns they write, 1,000 rows a statement. Returns the ids in the rows' order.
 */
export async function bulkWrite(
  trx: Transaction<DB>,
  def: ResourceDefinition,
  rows: readonly BulkRow[],
): Promise<number[]> {
  const ids: number[] = new Array(rows.length);
  const types = await tableColumnTypes(trx, def.table);
  const now = new Date().toISOString();
  const indexed = rows.map((row, index) => ({ row, index }));
  const creates = groupBy(
    indexed.filter((r) => r.row.id === undefined),
    (r) => Object.keys(r.row.values).sort().join(','),
  );
  for (const group of creates.values()) {
    for (let start = 0; start < group.length; start += INSERT_SLICE) {
      const slice = group.slice(start, start + INSERT_SLICE);
      const records = slice.map((r) => ({ ...r.row.values, created_at: now, updated_at: now }));
      const inserted = await insertRecordset(trx, def.table, Object.keys(records[0]), types, records, false);
      slice.forEach((r, i) => (ids[r.index] = inserted[i].id));
    }
  }
  const updates = groupBy(
    indexed.filter((r) => r.row.id !== undefined),
    (r) => Object.keys(r.row.values).sort().join(','),
  );
  for (const group of updates.values()) {
    const columns = Object.keys(group[0].row.values);
    for (let start = 0; start < group.length; start += INSERT_SLICE) {
      const slice = group.slice(start, start + INSERT_SLICE);
      await updateRecordset(
        trx,
        def.table,
        columns,
        false,
        types,
        slice.map((r) => ({ ...r.row.values, id: r.row.id })),
      );
      for (const r of slice) ids[r.index] = r.row.id!;
    }
  }
  return ids;
}

// ---- helpers ------------------------------------------------------------------------------------------------

/** E-mail and name keys match whatever their case. */
const isKeyFolded = (keyField: string | null, keySpec: FieldSpec | undefined) =>
  keySpec ? keySpec.kind === 'email' || keyField === 'name' : false;

/** A row's key as the batch matches it to a record (trimmed; lower-cased where isKeyFolded); null when it has none. */
export function keyReader(keyField: string | null, keySpec: FieldSpec | undefined) {
  const folded = isKeyFolded(keyField, keySpec);
  return (values: Record<string, unknown>): string | null => {
    if (!keyField) return null;
    const raw = values[keyField];
    if (isBlank(raw)) return null;
    const text = String(raw).trim();
    return folded ? text.toLowerCase() : text;
  };
}

/** The type's afterWrite work for a slice of rows: its batch form when it has one, else row by row. */
async function afterWrites(
  def: ResourceDefinition,
  trx: Transaction<DB>,
  writes: Array<{ record: Record<string, any>; ctx: Pending['ctx'] }>,
) {
  if (def.hooks?.afterWriteMany) await def.hooks.afterWriteMany(writes, trx);
  else if (def.hooks?.afterWrite) for (const { record, ctx } of writes) await def.hooks.afterWrite(record, ctx);
}

/**
 * The fields of a type (custom fields included) for the batch path: read once per `cache` (an import passes one for
 * its whole run, as its mapper also uses the fields it read at the start), else once per transaction, rather than
 * by every batch and related-record lookup.
 */
export async function batchFields(
  service: RecordService,
  def: ResourceDefinition,
  trx: Transaction<DB>,
  cache?: FieldsCache,
) {
  let byType = cache ?? fieldsByTransaction.get(trx);
  if (!byType) fieldsByTransaction.set(trx, (byType = new Map()));
  let fields = byType.get(def.type);
  if (!fields) byType.set(def.type, (fields = service.fields(def, trx)));
  return fields;
}
export type FieldsCache = Map<string, Promise<Record<string, FieldSpec>>>;
const fieldsByTransaction = new WeakMap<object, FieldsCache>();

/** Within one transaction (one chunk), a reference found once need not be looked up again. */
const referenceCache = new WeakMap<object, Set<string>>();
function knownReferences(trx: Transaction<DB>) {
  let known = referenceCache.get(trx);
  if (!known) referenceCache.set(trx, (known = new Set()));
  return known;
}

/** The batch's split: JSON kinds stay objects (rows go in as one json_to_recordset parameter), dates as ISO text. */
const split = (values: Record<string, any>, fields: Record<string, FieldSpec>) =>
  splitByStorage(values, fields, (value) => (value instanceof Date ? value.toISOString() : value));

function signature(columns: Record<string, unknown>, _def: ResourceDefinition) {
  return Object.keys(columns).sort().join(',');
}

function pick(values: Record<string, any>, keys: readonly string[]) {
  const out: Record<string, any> = {};
  for (const key of keys) if (key in values) out[key] = values[key];
  return out;
}
