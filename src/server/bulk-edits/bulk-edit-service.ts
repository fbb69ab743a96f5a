import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { loadAuthUser } from '../auth/load-user.js';
import type { JobEventName } from '../events/app-events.js';
import { HttpError, notFound, ValidationError } from '../http/errors.js';
import { enqueueJob } from '../jobs/queue.js';
import { type JobContext, JobInterrupted, PermanentJobError } from '../jobs/worker.js';
import { reasonOf, undoBatch } from '../records/batch-writer.js';
import { humanise } from '../records/fields.js';
import { namesOf } from '../records/representation.js';
import type { ResourceDefinition } from '../records/resource.js';
import { changesOf } from '../records/revisions.js';
import { checkReferences } from '../records/storage.js';
import { validateInput } from '../records/validate.js';
import { checkSlug } from '../schemas/schema-backed.js';

export const BULK_EDIT_JOB = 'bulk-edit';
export const BULK_EDIT_UNDO_JOB = 'bulk-edit-undo';

/** The most records one bulk edit may change (a filter matching more is refused with 422: narrow it). */
export const MAX_BULK_EDIT = 100_000;
/** Records written between two progress reports (each record is its own transaction). */
const CHUNK = 50;
/** Refused records listed with a bulk edit (the count goes on). */
const LISTED_REFUSALS = 200;

const SYSTEM_FIELDS = new Set(['id', 'created_at', 'updated_at', 'deleted_at']);

export const startBody = z
  .object({
    resource: z.string().min(1).max(80),
    field: z.string().min(1).max(100),
    value: z.unknown(),
    /** The records chosen; or `query` for every record a list query finds. */
    ids: z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(MAX_BULK_EDIT).optional(),
    query: z
      .object({ filter: z.record(z.string(), z.unknown()).optional(), search: z.string().max(200).optional() })
      .strict()
      .optional(),
  })
  .strict()
  .refine((body) => Boolean(body.ids) !== Boolean(body.query), {
    message: 'Send either the ids of the records to change or the list query that finds them.',
    path: ['ids'],
  });

type BulkEditRow = Record<string, any>;
type Outcome = 'changed' | 'unchanged' | 'refused';

/**
 * Bulk edits (docs/records.md "Bulk edit"): one field of many records set to one value. Asked by a person (checked
 * and validated here, 422/403), run by a background job that writes each record through the data service (its own
 * transaction, permission, validation, form logic, one revision each, all of one batch), reporting progress to
 * that person; a record refused is reported with the reason and left as it was. Undone as a whole as an import is
 * (records/batch-writer.ts undoBatch), except that a record someone changed since is left as they made it.
 */
export class BulkEditService {
  constructor(
    private readonly ctx: AppContext,
    private readonly wake: () => void,
  ) {}

  private resource(name: string): ResourceDefinition {
    const def = this.ctx.resources.get(name);
    if (!def) throw new ValidationError({ resource: [`There is no list called “${name}”.`] });
    return def;
  }

  /** Checks the request, takes the records it names, and queues the job (202). Returns the bulk edit as presented. */
  async start(user: AuthUser, body: z.infer<typeof startBody>) {
    const def = this.resource(body.resource);
    this.ctx.records.authorize(user, def, 'update');
    const fields = await this.ctx.records.fields(def);
    const spec = fields[body.field];
    const readOnly = new Set([...(def.readOnly ?? []), ...(def.hidden ?? [])]);
    if (
      !spec ||
      SYSTEM_FIELDS.has(body.field) ||
      readOnly.has(body.field) ||
      spec.readOnly ||
      spec.storage === 'virtual'
    ) {
      throw new ValidationError({
        field: [`“${body.field}” is not a field of ${def.name.replace(/-/g, ' ')} that can be changed in bulk.`],
      });
    }
    // What holds for every record is checked now (422); what depends on the record is each record's refusal.
    try {
      const { values } = validateInput({ [body.field]: body.value ?? null }, fields, { mode: 'update' });
      await checkReferences(this.ctx.db, values, fields);
      const allowed = spec.slugOf ? await checkSlug(this.ctx.db, spec.slugOf, values[body.field]) : null;
      if (allowed)
        throw new ValidationError({
          value: [`The ${spec.label ?? humanise(body.field)} must be one of: ${allowed.join(', ')}.`],
        });
    } catch (error) {
      if (error instanceof ValidationError) throw new ValidationError({ value: Object.values(error.errors).flat() });
      throw error;
    }
    const ids = body.ids
      ? [...new Set(body.ids)]
      : await this.ctx.records.matchingIds(
          user,
          def,
          { filter: body.query!.filter ?? {}, search: body.query!.search },
          MAX_BULK_EDIT + 1,
        );
    if (ids.length === 0) throw new ValidationError({ ids: ['No records match: choose at least one.'] });
    if (ids.length > MAX_BULK_EDIT)
      throw new ValidationError({
        query: [
          `More than ${MAX_BULK_EDIT.toLocaleString('en')} records match; narrow the filter and change them in parts.`,
        ],
      });
    const row = await this.ctx.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('bulk_edits')
        .values({
          user_id: user.id,
          resource: def.name,
          record_type: def.type,
          field: body.field,
          value: JSON.stringify(body.value ?? null),
          record_ids: JSON.stringify(ids),
          total: ids.length,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await enqueueJob(trx, BULK_EDIT_JOB, { bulk_edit_id: inserted.id }, { startedBy: user.id });
      return inserted;
    });
    this.wake();
    return this.present(row);
  }

  /** A bulk edit of the person's own, with the records refused (up to LISTED_REFUSALS) and why. */
  async show(user: AuthUser, id: number) {
    const row = await this.own(user, id);
    const refused = await this.ctx.db
      .selectFrom('bulk_edit_records')
      .select(['record_id', 'reason'])
      .where('bulk_edit_id', '=', id)
      .where('outcome', '=', 'refused')
      .orderBy('id')
      .limit(LISTED_REFUSALS)
      .execute();
    const def = this.ctx.resources.get(row.resource);
    const names = def
      ? await namesOf(
          this.ctx.records,
          this.ctx.db,
          def,
          user,
          refused.map((r) => Number(r.record_id)),
        )
      : new Map<number, string>();
    return {
      ...this.present(row),
      refusals: refused.map((r) => ({
        id: r.record_id,
        name: names.get(Number(r.record_id)) ?? `#${r.record_id}`,
        reason: r.reason,
      })),
    };
  }

  /** Queues the undo of a finished bulk edit (202): every record it changed gets its value back. */
  async requestUndo(user: AuthUser, id: number) {
    const row = await this.own(user, id);
    this.ctx.records.authorize(user, this.resource(row.resource), 'update');
    if (row.status === 'pending' || row.status === 'processing')
      throw new HttpError(409, 'This bulk edit is still running; wait for it to finish before undoing it.');
    if (row.undo_status === 'pending' || row.undo_status === 'processing')
      throw new HttpError(409, 'This bulk edit is already being undone.');
    if (row.undone_at) throw new HttpError(409, 'This bulk edit has already been undone.');
    const updated = await this.ctx.db.transaction().execute(async (trx) => {
      const next = await trx
        .updateTable('bulk_edits')
        .set({ undo_status: 'pending', updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await enqueueJob(trx, BULK_EDIT_UNDO_JOB, { bulk_edit_id: id }, { startedBy: user.id });
      return next;
    });
    this.wake();
    return this.present(updated);
  }

  private async own(user: AuthUser, id: number): Promise<BulkEditRow> {
    const row = await this.ctx.db
      .selectFrom('bulk_edits')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!row) throw notFound(`No bulk edit of yours has the id ${id}.`);
    return row;
  }

  present(row: BulkEditRow): BulkEditRow & { progress: number } {
    const { record_ids: _ids, ...rest } = row;
    const running = row.undo_status === 'pending' || row.undo_status === 'processing';
    return {
      ...rest,
      progress: row.total
        ? Math.min(
            100,
            Math.round(
              ((running ? row.restored_count + row.kept_count : row.processed) /
                (running ? Math.max(1, row.changed_count) : row.total)) *
                100,
            ),
          )
        : 100,
    };
  }

  // ---- the jobs -------------------------------------------------------------------------------------------

  /** The bulk edit job: each record not yet done (a restarted job resumes), a chunk at a time, then the figures. */
  async run(id: number, job?: JobContext) {
    const { db } = this.ctx;
    const row = await db.selectFrom('bulk_edits').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new PermanentJobError(`Bulk edit ${id} no longer exists.`);
    if (row.status === 'complete' || row.status === 'failed') return;
    const user = await loadAuthUser(db, row.user_id);
    const def = this.ctx.resources.get(row.resource);
    if (!user || !def) {
      await this.finish(
        id,
        row.user_id,
        'failed',
        !user ? 'The person who asked for this bulk edit no longer has an account.' : 'This list no longer exists.',
      );
      return;
    }
    const done = new Set(
      (await db.selectFrom('bulk_edit_records').select('record_id').where('bulk_edit_id', '=', id).execute()).map((r) =>
        Number(r.record_id),
      ),
    );
    const todo = (row.record_ids as number[]).filter((recordId) => !done.has(recordId));
    await this.recount(id, { status: 'processing' });
    await this.progress(id, user.id, 'BulkEditProcessing');
    for (let start = 0; start < todo.length; start += CHUNK) {
      if (job?.stopping) throw new JobInterrupted();
      for (const recordId of todo.slice(start, start + CHUNK))
        await this.editOne(id, user, def, recordId, row.field, row.value);
      await this.recount(id);
      await job?.heartbeat({ bulk_edit_id: id });
      await this.progress(id, user.id, 'BulkEditProcessing');
    }
    const finished = await this.finish(id, user.id, 'complete');
    if (finished.changed_count > 0) this.ctx.records.announce(def, 'imported', { bulk_edit_id: id }, { user });
  }

  /** One record through the data service; its outcome is written in the same transaction, a refusal on its own. */
  private async editOne(
    id: number,
    user: AuthUser,
    def: ResourceDefinition,
    recordId: number,
    field: string,
    value: unknown,
  ) {
    const record = (trx: any, outcome: Outcome, extra: Record<string, unknown> = {}) =>
      trx
        .insertInto('bulk_edit_records')
        .values({ bulk_edit_id: id, record_id: recordId, outcome, ...extra })
        .execute();
    try {
      await this.ctx.records.update(
        user,
        def,
        recordId,
        { [field]: value },
        {
          batchId: `bulk-edit:${id}`,
          silent: true,
          within: async (trx, changes, logic) => {
            if (logic.hidden.has(field) && !(field in logic.setValues))
              throw new ValidationError({
                [field]: ['The form hides this field for this record, so it was not changed.'],
              });
            const keys = Object.keys(changes);
            if (!keys.length) return record(trx, 'unchanged');
            const before = Object.fromEntries(keys.map((key) => [key, changes[key][0]]));
            const after = Object.fromEntries(keys.map((key) => [key, changes[key][1]]));
            return record(trx, 'changed', { before: JSON.stringify(before), after: JSON.stringify(after) });
          },
        },
      );
    } catch (error) {
      // A refusal (permission, validation, a record gone) is the person's to read; anything else fails the job.
      if (!(error instanceof HttpError)) throw error;
      await record(this.ctx.db, 'refused', { reason: reasonOf(error).slice(0, 1_000) });
    }
  }

  /** The undo job: what the bulk edit changed goes back, a chunk at a time, as an import's undo does. */
  async undo(id: number, job?: JobContext) {
    const { db } = this.ctx;
    const row = await db.selectFrom('bulk_edits').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new PermanentJobError(`Bulk edit ${id} no longer exists.`);
    const user = await loadAuthUser(db, row.user_id);
    const def = this.ctx.resources.get(row.resource);
    if (!user || !def) throw new PermanentJobError('The person or the list of this bulk edit no longer exists.');
    await db
      .updateTable('bulk_edits')
      .set({ undo_status: 'processing', restored_count: 0, kept_count: 0, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    await this.progress(id, user.id, 'BulkEditProcessing');
    const fields = await this.ctx.records.fields(def);
    let after = 0;
    for (;;) {
      if (job?.stopping) throw new JobInterrupted();
      const entries = await db
        .selectFrom('bulk_edit_records')
        .selectAll()
        .where('bulk_edit_id', '=', id)
        .where('outcome', '=', 'changed')
        .where('id', '>', after)
        .orderBy('id')
        .limit(500)
        .execute();
      if (!entries.length) break;
      after = Number(entries[entries.length - 1].id);
      await db.transaction().execute(async (trx) => {
        const current = await (await this.ctx.records.visibleRows(trx, def, null, 'with'))
          .selectAll('t')
          .where(
            't.id',
            'in',
            entries.map((e) => e.record_id),
          )
          .forUpdate()
          .execute();
        const presented = new Map(
          (await this.ctx.records.present(def, current, fields, trx)).map((r) => [Number(r.id), r]),
        );
        // A record changed again since (its value is no longer what the bulk edit wrote) keeps that later change.
        const intact = entries.filter((e) => {
          const now = presented.get(Number(e.record_id));
          return now && Object.keys(changesOf(now, e.after as Record<string, unknown>)).length === 0;
        });
        if (intact.length)
          await undoBatch(
            this.ctx.records,
            trx,
            user,
            def,
            intact.map((e) => ({
              record_id: Number(e.record_id),
              created: false,
              before: e.before as Record<string, unknown>,
            })),
            `bulk-edit-undo:${id}`,
          );
        await trx
          .updateTable('bulk_edits')
          .set({
            restored_count: sql`restored_count + ${intact.length}`,
            kept_count: sql`kept_count + ${entries.length - intact.length}`,
            updated_at: new Date(),
          })
          .where('id', '=', id)
          .execute();
      });
      await job?.heartbeat({ bulk_edit_id: id, undo_after: after });
      await this.progress(id, user.id, 'BulkEditProcessing');
    }
    await db
      .updateTable('bulk_edits')
      .set({ undo_status: 'complete', undone_at: new Date(), updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    await this.progress(id, user.id, 'BulkEditComplete');
    this.ctx.records.announce(def, 'imported', { bulk_edit_id: id }, { user });
  }

  /** The figures from the outcomes written so far (a resumed job counts what its predecessor did too). */
  private async recount(id: number, extra: Record<string, unknown> = {}) {
    const counts = await this.ctx.db
      .selectFrom('bulk_edit_records')
      .select(['outcome', sql<number>`count(*)::int`.as('n')])
      .where('bulk_edit_id', '=', id)
      .groupBy('outcome')
      .execute();
    const of = (outcome: Outcome) => Number(counts.find((c) => c.outcome === outcome)?.n ?? 0);
    const changed = of('changed');
    const unchanged = of('unchanged');
    const refused = of('refused');
    await this.ctx.db
      .updateTable('bulk_edits')
      .set({
        changed_count: changed,
        unchanged_count: unchanged,
        refused_count: refused,
        processed: changed + unchanged + refused,
        updated_at: new Date(),
        ...extra,
      })
      .where('id', '=', id)
      .execute();
  }

  /** The job stopped on every attempt (JobWorker): the bulk edit is failed with the reason; what it changed stays, and can be undone. */
  async giveUp(id: number, reason: string) {
    const row = await this.ctx.db.selectFrom('bulk_edits').select('user_id').where('id', '=', id).executeTakeFirst();
    if (row) await this.finish(id, row.user_id, 'failed', `The bulk edit stopped: ${reason}`);
  }

  private async finish(id: number, userId: number, status: 'complete' | 'failed', message: string | null = null) {
    await this.recount(id, { status, message, finished_at: new Date() });
    await this.progress(id, userId, 'BulkEditComplete');
    return (await this.ctx.db
      .selectFrom('bulk_edits')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()) as BulkEditRow;
  }

  /** BulkEditProcessing / BulkEditComplete for the person, with the bulk edit's figures. */
  private async progress(
    id: number,
    userId: number,
    event: Extract<JobEventName, 'BulkEditProcessing' | 'BulkEditComplete'>,
  ) {
    const row = await this.ctx.db.selectFrom('bulk_edits').selectAll().where('id', '=', id).executeTakeFirst();
    if (row) this.ctx.events.emit({ event, type: 'bulk-edit', id, record: this.present(row), userId });
  }
}
