import { type Kysely, sql } from 'kysely';
import { can } from '../../common/permissions.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.generated.js';
import { parseFilterTree } from '../filters/filter-tree.js';
import { pageMetaOf } from '../http/contracts.js';
import { fieldError, forbidden, HttpError, notFound } from '../http/errors.js';
import { enqueueJob } from '../jobs/queue.js';
import { changesOf } from '../records/revisions.js';
import type { WebhookDeliveries } from '../webhooks/deliveries.js';
import { newSecret } from '../webhooks/signing.js';
import { AUTOMATION_RUN_JOB, type AutomationRow, type AutomationRunner, type RunStep } from './automation-runner.js';
import {
  type Action,
  type AutomationBody,
  actionsWithPaths,
  type automationPatch,
  RECORD_TRIGGERS,
} from './automation-shapes.js';
import type { AutomationTriggers } from './automation-triggers.js';

const COLUMNS = [
  'id',
  'name',
  'description',
  'record_type',
  'trigger',
  'conditions',
  'actions',
  'enabled',
  'owner_id',
  'next_run_at',
  'created_at',
  'updated_at',
] as const;

/**
 * Automations as their administrators make and read them (docs/automations.md): `automation:*` permissions, each
 * change kept as a revision (type `automation`); the maker is the owner, whose permissions its runs act with. The
 * secret (signing its outgoing messages and checking those it receives) is shown once, when it is made.
 */
export class AutomationService {
  constructor(
    private readonly ctx: AppContext,
    private readonly runner: AutomationRunner,
    private readonly triggers: AutomationTriggers,
    private readonly deliveries: WebhookDeliveries,
    private readonly wake: () => void,
  ) {}

  private get db(): Kysely<DB> {
    return this.ctx.db;
  }

  private check(user: AuthUser, action: 'create' | 'read' | 'update' | 'delete') {
    if (!can(user, `automation:${action}`)) throw forbidden('You do not have permission to manage automations.');
  }

  async list(user: AuthUser) {
    this.check(user, 'read');
    const rows = await this.db
      .selectFrom('automations as a')
      .select(COLUMNS.map((column) => `a.${column}` as const))
      .select((eb) => [
        eb
          .selectFrom('automation_runs as r')
          .select('r.status')
          .whereRef('r.automation_id', '=', 'a.id')
          .orderBy('r.id', 'desc')
          .limit(1)
          .as('last_status'),
        eb
          .selectFrom('automation_runs as r')
          .select('r.created_at')
          .whereRef('r.automation_id', '=', 'a.id')
          .orderBy('r.id', 'desc')
          .limit(1)
          .as('last_run_at'),
      ])
      .where('a.deleted_at', 'is', null)
      .orderBy('a.id')
      .execute();
    return rows;
  }

  async show(user: AuthUser, id: number) {
    this.check(user, 'read');
    const row = await this.db
      .selectFrom('automations')
      .select(COLUMNS)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound(`No automation has the id ${id}.`);
    return row;
  }

  /** The automation as stored (secret and all), unless deleted. */
  private async stored(id: number): Promise<(AutomationRow & { secret: string }) | undefined> {
    const row = await this.db
      .selectFrom('automations')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row as unknown as (AutomationRow & { secret: string }) | undefined;
  }

  private async row(id: number): Promise<AutomationRow> {
    const row = await this.stored(id);
    if (!row) throw notFound(`No automation has the id ${id}.`);
    return row;
  }

  async create(user: AuthUser, body: AutomationBody) {
    this.check(user, 'create');
    await this.checkValues(body);
    const secret = newSecret();
    const row = await this.db.transaction().execute(async (trx) => {
      const made = await trx
        .insertInto('automations')
        .values({
          name: body.name,
          description: body.description ?? null,
          record_type: body.record_type ?? null,
          trigger: JSON.stringify(body.trigger),
          conditions: body.conditions === undefined ? null : JSON.stringify(body.conditions),
          actions: JSON.stringify(body.actions),
          enabled: body.enabled ?? true,
          owner_id: user.id,
          secret,
          next_run_at: this.triggers.nextRun(body.trigger),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      await this.ctx.records.reviseWithin(
        trx,
        { type: 'automation', id: made.id },
        user,
        changesOf({}, revised(made)),
        'created',
      );
      return made;
    });
    this.triggers.forget();
    return { ...row, secret };
  }

  async update(user: AuthUser, id: number, body: ReturnType<typeof automationPatch.parse>) {
    this.check(user, 'update');
    const existing = await this.show(user, id);
    const merged = { ...existing, ...body } as AutomationBody;
    await this.checkValues(merged);
    const set: Record<string, unknown> = { updated_at: new Date() };
    for (const [key, value] of Object.entries(body)) {
      if (value === undefined) continue;
      set[key] = ['trigger', 'conditions', 'actions'].includes(key) ? JSON.stringify(value) : value;
    }
    // A schedule resumed runs at its next time, not once for the times it missed while paused.
    if (body.trigger || body.enabled) set.next_run_at = this.triggers.nextRun(merged.trigger);
    const row = await this.db.transaction().execute(async (trx) => {
      const saved = await trx
        .updateTable('automations')
        .set(set)
        .where('id', '=', id)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      await this.ctx.records.reviseWithin(
        trx,
        { type: 'automation', id },
        user,
        changesOf(revised(existing), revised(saved)),
      );
      return saved;
    });
    this.triggers.forget();
    return row;
  }

  async remove(user: AuthUser, id: number) {
    this.check(user, 'delete');
    await this.show(user, id);
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('automations').set({ deleted_at: new Date() }).where('id', '=', id).execute();
      await this.ctx.records.reviseWithin(trx, { type: 'automation', id }, user, {}, 'deleted');
    });
    this.triggers.forget();
  }

  /** Pause (`enabled: false`) or resume: a paused automation starts no runs, and its queued ones are skipped. */
  setEnabled(user: AuthUser, id: number, enabled: boolean) {
    return this.update(user, id, { enabled });
  }

  async runs(user: AuthUser, id: number, page: number, perPage: number) {
    await this.show(user, id);
    const base = this.db.selectFrom('automation_runs').where('automation_id', '=', id);
    const counted = await base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const data = await base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    const total = Number(counted.n);
    return {
      data: data.map((row) => ({ ...row, id: Number(row.id), trigger: triggerShown(row.trigger) })),
      meta: pageMetaOf(page, perPage, total, data.length),
    };
  }

  /** A failed run again: the actions it did stay done; it goes on from the one that failed. */
  async retry(user: AuthUser, id: number, runId: number) {
    this.check(user, 'update');
    await this.show(user, id);
    const run = await this.db
      .selectFrom('automation_runs')
      .select(['id', 'status', 'steps'])
      .where('id', '=', runId)
      .where('automation_id', '=', id)
      .executeTakeFirst();
    if (!run) throw notFound(`This automation has no run ${runId}.`);
    if (run.status !== 'failed') throw new HttpError(409, 'Only a failed run can be tried again.');
    const kept = (run.steps as unknown as RunStep[]).filter((step) => step.outcome !== 'failed');
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('automation_runs')
        .set({ status: 'queued', error: null, finished_at: null, steps: JSON.stringify(kept) })
        .where('id', '=', runId)
        .execute();
      await enqueueJob(trx, AUTOMATION_RUN_JOB, { run_id: runId }, { maxAttempts: 5 });
    });
    setImmediate(this.wake);
    return (await this.runs(user, id, 1, 100)).data.find((row) => row.id === runId)!;
  }

  /** "Test with this record": what each action would do, nothing done. */
  async test(user: AuthUser, id: number, recordId: number | null, body?: unknown) {
    this.check(user, 'read');
    return this.runner.dryRun(await this.row(id), recordId, body);
  }

  /** The automation a message was sent to, if it takes messages (checked by the incoming route). */
  async forMessage(id: number): Promise<(AutomationRow & { secret: string }) | null> {
    const automation = await this.stored(id);
    return automation?.trigger.kind === 'webhook' ? automation : null;
  }

  /** What needs more than the shape: record types that exist, conditions that compile, webhook addresses allowed. */
  private async checkValues(body: AutomationBody) {
    const needsRecords = RECORD_TRIGGERS.has(body.trigger.kind);
    if (needsRecords && !body.record_type)
      throw fieldError('record_type', 'Choose the kind of record this automation watches.');
    const def = body.record_type ? this.ctx.resources.byType(body.record_type) : undefined;
    if (body.record_type && !def) throw fieldError('record_type', `There is no record type "${body.record_type}".`);
    if (def && (body.trigger.kind === 'field_changed' || body.trigger.kind === 'date_reached')) {
      const fields = await this.ctx.records.fields(def);
      if (!(body.trigger.field in fields))
        throw fieldError('trigger.field', `${def.singular} has no field "${body.trigger.field}".`);
    }
    if (body.conditions !== undefined && body.conditions !== null) {
      if (!def) throw fieldError('conditions', 'Conditions need a record type.');
      parseFilterTree(body.conditions);
    }
    for (const [path, action] of actionsWithPaths(body.actions as Action[])) {
      if (action.kind === 'set_fields' && !def)
        throw fieldError(`actions.${path}`, 'Setting fields needs a record type: the record that set it off.');
      if (action.kind === 'create_record' && !this.ctx.resources.byType(action.record_type))
        throw fieldError(`actions.${path}.record_type`, `There is no record type "${action.record_type}".`);
      if (action.kind === 'webhook') {
        const problem = this.deliveries.addresses.problem(action.url);
        if (problem) throw fieldError(`actions.${path}.url`, problem);
      }
      if (action.kind === 'branch') {
        if (!def) throw fieldError(`actions.${path}.if`, 'A branch needs a record type to test.');
        parseFilterTree(action.if);
      }
    }
  }
}

/** What an automation's revision compares: what its makers set. */
const revised = (row: Record<string, unknown>) => {
  const { name, description, record_type, trigger, conditions, actions, enabled } = row;
  return { name, description, record_type, trigger, conditions, actions, enabled };
};

/**
 * A run's trigger as the log shows it: what set it off, without the record's values and changes it keeps for the
 * run (those may include fields the reader's role hides; the run reads the record as its owner).
 */
function triggerShown(trigger: unknown) {
  const { record: _record, changes: _changes, body: _body, ...shown } = trigger as Record<string, unknown>;
  return shown;
}
