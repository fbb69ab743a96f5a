import { type Kysely, sql } from 'kysely';
import { dayIn } from '../../common/relative-dates.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { loadAuthUser } from '../auth/load-user.js';
import type { DB } from '../db/schema.generated.js';
import { compileFilter } from '../filters/compile-filter.js';
import { parseFilterTree } from '../filters/filter-tree.js';
import { HttpError, ValidationError } from '../http/errors.js';
import { enqueueJobs } from '../jobs/queue.js';
import { type JobContext, jobCutOff } from '../jobs/worker.js';
import type { RecordService, WriteUnit } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';
import type { NewDelivery, WebhookDeliveries } from '../webhooks/deliveries.js';
import type { Action, PlainAction, Trigger } from './automation-shapes.js';
import { fill, fillText, type TemplateContext } from './templates.js';

export const AUTOMATION_RUN_JOB = 'automation-run';
export const AUTOMATION_EMAIL_JOB = 'automation-email';

/** An automation as stored. */
export interface AutomationRow {
  id: number;
  name: string;
  record_type: string | null;
  trigger: Trigger;
  conditions: unknown;
  actions: Action[];
  enabled: boolean;
  owner_id: number;
  deleted_at: Date | null;
}

/** What set a run off (the run's `trigger`): the record event, the date, the schedule or the message received. */
export interface RunTrigger {
  kind: Trigger['kind'];
  record_type?: string | null;
  record_id?: number | null;
  /** The record as it was (a deleted record is read from here). */
  record?: Record<string, unknown>;
  changes?: Record<string, [unknown, unknown]>;
  /** The body of an incoming webhook. */
  body?: unknown;
  /** Who made the write, if a person did. */
  user_id?: number | null;
  /** The automations that led to this run (loop protection). */
  chain?: number[];
  date?: string;
}

/** One entry of the run log: an action done (or a branch taken), when, what it did, or why it failed. */
export interface RunStep {
  path: string;
  kind: string;
  outcome: 'done' | 'failed' | 'yes' | 'no' | 'would';
  at: string;
  detail?: unknown;
  error?: string;
}

/** How a run ended. */
interface RunEnd {
  status: 'done' | 'failed' | 'skipped';
  error: string | null;
}

/** A run being carried out: what it acts on and as whom, and its log so far. */
interface RunState {
  id: number;
  automation: AutomationRow;
  owner: AuthUser;
  def: ResourceDefinition | undefined;
  record: Record<string, unknown> | null;
  context: TemplateContext;
  /** What its writes carry (loop protection). */
  cause: { runId: number; depth: number; chain: number[] };
  done: Map<string, RunStep>;
}

/** Thrown for a run that cannot go on (no record to act on, the owner may not read it): the run is skipped. */
class RunSkipped extends Error {}

export interface RunnerOptions {
  /** Tests: called after each action's step is committed (a SimulatedCrash here is a process killed there). */
  afterStep?: (runId: number, path: string) => Promise<void> | void;
}

const errorText = (error: unknown) => {
  if (error instanceof ValidationError)
    return `${error.message} ${Object.entries(error.errors)
      .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
      .join('; ')}`.trim();
  return error instanceof Error ? error.message : String(error);
};

/**
 * Carries out automation runs (docs/automations.md "Runs"): as a job, after the write that set it off has committed;
 * acting as the automation's owner through the data service, so their permissions and field rules apply. Each
 * action commits in one transaction with its entry in the run log, so a run picked up again after a restart skips
 * what it did and does the rest: nothing twice, nothing lost. Emails and webhook messages are queued as jobs in that
 * transaction. A dry run ("test with this record") walks the same path and says what each action would do.
 */
export class AutomationRunner {
  options: RunnerOptions = {};

  constructor(
    private readonly ctx: AppContext,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  private get db(): Kysely<DB> {
    return this.ctx.db;
  }

  /**
   * A run job: its runs carried out together. Their rows, automations, owners, records (one read under each owner's
   * access) and conditions (one query per automation) are read first; then, round by round, each run's next action is
   * done, all of a round's in one transaction with their steps in the run log (a write to records in a savepoint of
   * its own, so a failing one fails only its run; webhook messages and emails queued in one statement each); the
   * runs' ends are written together. On the embedded database each statement waits its turn beside the writes of
   * people, so a job of 50 runs costs about as many turns as one run did.
   */
  async runJob(runIds: readonly number[], job: JobContext): Promise<void> {
    const runs = await this.db
      .selectFrom('automation_runs')
      .selectAll()
      .where('id', 'in', [...runIds])
      .where('status', 'in', ['queued', 'running'])
      .orderBy('id')
      .execute();
    if (!runs.length) return;
    const automations = new Map(
      (
        (await this.db
          .selectFrom('automations')
          .selectAll()
          .where('id', 'in', [...new Set(runs.map((run) => run.automation_id))])
          .execute()) as unknown as AutomationRow[]
      ).map((automation) => [Number(automation.id), automation]),
    );
    const ends = new Map<number, RunEnd>();
    const live = runs.filter((run) => {
      const automation = automations.get(Number(run.automation_id));
      if (automation?.enabled && !automation.deleted_at) return true;
      const reason = !automation || automation.deleted_at ? 'The automation was deleted.' : 'The automation is paused.';
      ends.set(Number(run.id), { status: 'skipped', error: reason });
      return false;
    });
    if (live.length)
      await this.db
        .updateTable('automation_runs')
        .set({ status: 'running', started_at: sql`coalesce(started_at, now())`, attempts: sql`attempts + 1` })
        .where(
          'id',
          'in',
          live.map((run) => run.id),
        )
        .execute();
    let active = await this.prepare(live, automations, ends);
    while (active.length) {
      await this.round(active, ends, job);
      active = active.filter((state) => !ends.has(state.id));
    }
    await this.finish(ends);
  }

  /** The runs' states: owner, record and context; runs that cannot go on (or do not meet the conditions) end here. */
  private async prepare(
    runs: readonly { id: number | string; automation_id: number; depth: number; trigger: unknown; steps: unknown }[],
    automations: Map<number, AutomationRow>,
    ends: Map<number, RunEnd>,
  ): Promise<RunState[]> {
    const states: RunState[] = [];
    for (const automation of automations.values()) {
      const ofAutomation = runs.filter((run) => Number(run.automation_id) === Number(automation.id));
      if (!ofAutomation.length) continue;
      try {
        const owner = await this.ownerOf(automation);
        const def = this.typeOf(automation);
        const triggers = ofAutomation.map((run) => run.trigger as unknown as RunTrigger);
        const records = await this.subjects(owner, def, triggers);
        const meeting =
          def && automation.conditions !== null && automation.conditions !== undefined
            ? await this.meeting(
                owner,
                def,
                records.filter((record) => record).map((record) => Number(record!.id)),
                automation.conditions,
              )
            : null;
        for (const [index, run] of ofAutomation.entries()) {
          const trigger = triggers[index]!;
          const record = records[index] ?? null;
          const id = Number(run.id);
          if (def && trigger.record_id && !record)
            ends.set(id, { status: 'skipped', error: this.unreadable(def, trigger.record_id) });
          else if (record && meeting && !meeting.has(Number(record.id)))
            ends.set(id, { status: 'skipped', error: 'The record did not meet the conditions.' });
          else
            states.push({
              id,
              automation,
              owner,
              def,
              record,
              context: this.context(automation, trigger, def, record),
              cause: { runId: id, depth: run.depth, chain: [...(trigger.chain ?? []), automation.id] },
              done: new Map((run.steps as RunStep[]).map((step) => [step.path, step])),
            });
        }
      } catch (error) {
        if (jobCutOff(error)) throw error;
        for (const run of ofAutomation)
          ends.set(Number(run.id), {
            status: error instanceof RunSkipped ? 'skipped' : 'failed',
            error: errorText(error),
          });
      }
    }
    return states.sort((a, b) => a.id - b.id);
  }

  /**
   * One round: each run's next action (the branches before it decided), done in one transaction with the round's
   * steps; a run with no action left ends `done`, one whose action fails ends `failed` with the step saying why.
   */
  private async round(active: readonly RunState[], ends: Map<number, RunEnd>, job: JobContext) {
    const work: Array<{ state: RunState; path: string; action: PlainAction; planned: Record<string, unknown> }> = [];
    const steps: Array<{ state: RunState; step: RunStep }> = [];
    /** The run ends (a branch's condition failing to read: with no step, as no action was tried). */
    const failed = (state: RunState, action: { path: string; kind: string } | null, error: unknown) => {
      if (jobCutOff(error)) throw error;
      if (error instanceof RunSkipped) return ends.set(state.id, { status: 'skipped', error: error.message });
      if (action)
        steps.push({
          state,
          step: { ...action, outcome: 'failed', at: new Date().toISOString(), error: errorText(error) },
        });
      ends.set(state.id, { status: 'failed', error: errorText(error) });
    };
    for (const state of active) {
      const decided: RunStep[] = [];
      let next: { path: string; action: PlainAction } | null = null;
      try {
        next = await this.nextAction(state.automation.actions, '', state.done, decided, (branch) =>
          this.branchTaken(state, branch),
        );
      } catch (error) {
        failed(state, null, error);
        continue;
      }
      for (const step of decided) steps.push({ state, step });
      if (!next) {
        ends.set(state.id, { status: 'done', error: null });
        continue;
      }
      try {
        // Worked out before the transaction: on the embedded database a read outside it would wait for it to end.
        work.push({
          state,
          ...next,
          planned: await this.describe(next.action, state.context, state.record, state.def),
        });
      } catch (error) {
        failed(state, { path: next.path, kind: next.action.kind }, error);
      }
    }
    if (!work.length && !steps.length) return;
    const doneSteps: Array<{ state: RunState; step: RunStep }> = [];
    await this.ctx.records.inOneTransaction(async (unit) => {
      await job.holdClaim(unit.trx);
      const trx = unit.trx as Kysely<DB>;
      const messages: Array<{ item: (typeof work)[number]; delivery: NewDelivery }> = [];
      const emails: Array<{ item: (typeof work)[number]; to: string }> = [];
      for (const item of work) {
        const { state, action, planned } = item;
        const done = (detail: Record<string, unknown>) =>
          doneSteps.push({
            state,
            step: { path: item.path, kind: action.kind, outcome: 'done', at: new Date().toISOString(), detail },
          });
        if (action.kind === 'webhook') {
          messages.push({ item, delivery: this.message(state, action.url) });
          continue;
        }
        if (action.kind === 'email') {
          for (const to of planned.to as string[]) emails.push({ item, to });
          done(planned);
          continue;
        }
        const kept = unit.afterCommit.length;
        await sql`savepoint automation_action`.execute(trx);
        try {
          done(await this.perform(action, planned, state, unit));
          await sql`release savepoint automation_action`.execute(trx);
        } catch (error) {
          if (jobCutOff(error)) throw error;
          await sql`rollback to savepoint automation_action`.execute(trx);
          unit.afterCommit.length = kept;
          failed(state, { path: item.path, kind: action.kind }, error);
        }
      }
      const deliveryIds = await this.deliveries.enqueueMany(
        trx,
        messages.map((message) => message.delivery),
      );
      for (const [index, { item }] of messages.entries())
        doneSteps.push({
          state: item.state,
          step: {
            path: item.path,
            kind: 'webhook',
            outcome: 'done',
            at: new Date().toISOString(),
            detail: { ...item.planned, delivery_id: deliveryIds[index] },
          },
        });
      await enqueueJobs(
        trx,
        AUTOMATION_EMAIL_JOB,
        emails.map(({ item, to }) => ({ payload: { ...item.planned, to } })),
        { maxAttempts: 5 },
      );
      await this.appendSteps(trx, [...steps, ...doneSteps]);
    });
    for (const { state, step } of [...steps, ...doneSteps]) state.done.set(step.path, step);
    for (const { state, step } of doneSteps) await this.options.afterStep?.(state.id, step.path);
  }

  /** What the automation would do for this record (or, with none, for a schedule or message), doing nothing. */
  async dryRun(automation: AutomationRow, recordId: number | null, body?: unknown) {
    const owner = await this.ownerOf(automation);
    const trigger: RunTrigger = {
      kind: automation.trigger.kind,
      record_type: automation.record_type,
      record_id: recordId,
      body,
    };
    const def = this.typeOf(automation);
    const [record = null] = await this.subjects(owner, def, [trigger]);
    if (def && recordId && !record) throw new RunSkipped(this.unreadable(def, recordId));
    const conditionsMet = !(def && record) || (await this.meets(owner, def, record, automation.conditions));
    const done = new Map<string, RunStep>();
    const steps: RunStep[] = [];
    if (conditionsMet) {
      const context = this.context(automation, trigger, def, record);
      const decide = async (branch: Extract<Action, { kind: 'branch' }>) =>
        def && record && (await this.meets(owner, def, record, branch.if)) ? 'yes' : 'no';
      for (;;) {
        const next = await this.nextAction(automation.actions, '', done, steps, decide);
        if (!next) break;
        const step: RunStep = {
          path: next.path,
          kind: next.action.kind,
          outcome: 'would',
          at: new Date().toISOString(),
          detail: await this.describe(next.action, context, record, def),
        };
        steps.push(step);
        done.set(step.path, step);
      }
    }
    return { conditions_met: conditionsMet, record, steps };
  }

  /**
   * The next action of a run not yet in its log (`done`), walking actions in order; a branch not yet decided is
   * decided by `decide`, its step added to `done` and to `decided`, and its side walked.
   */
  private async nextAction(
    actions: readonly Action[],
    prefix: string,
    done: Map<string, RunStep>,
    decided: RunStep[],
    decide: (branch: Extract<Action, { kind: 'branch' }>) => Promise<'yes' | 'no'>,
  ): Promise<{ path: string; action: PlainAction } | null> {
    for (const [index, action] of actions.entries()) {
      const path = `${prefix}${index}`;
      const before = done.get(path);
      if (action.kind !== 'branch') {
        if (!before) return { path, action };
        continue;
      }
      let taken = before?.outcome === 'yes' || before?.outcome === 'no' ? before.outcome : null;
      if (!taken) {
        taken = await decide(action);
        const step: RunStep = { path, kind: 'branch', outcome: taken, at: new Date().toISOString() };
        done.set(path, step);
        decided.push(step);
      }
      const next = await this.nextAction(
        taken === 'yes' ? action.yes : (action.no ?? []),
        `${path}.${taken}.`,
        done,
        decided,
        decide,
      );
      if (next) return next;
    }
    return null;
  }

  private async branchTaken(state: RunState, branch: Extract<Action, { kind: 'branch' }>): Promise<'yes' | 'no'> {
    const { owner, def, record } = state;
    return def && record && (await this.meets(owner, def, record, branch.if)) ? 'yes' : 'no';
  }

  private async ownerOf(automation: AutomationRow): Promise<AuthUser> {
    const owner = await loadAuthUser(this.ctx.db, automation.owner_id);
    if (!owner) throw new RunSkipped("The automation's owner no longer has an account.");
    return owner;
  }

  private typeOf(automation: AutomationRow): ResourceDefinition | undefined {
    const def = automation.record_type ? this.ctx.resources.byType(automation.record_type) : undefined;
    if (automation.record_type && !def)
      throw new RunSkipped(`There is no record type "${automation.record_type}" any more.`);
    return def;
  }

  private unreadable(def: ResourceDefinition, recordId: number) {
    return `The automation's owner may not read ${def.singular.toLowerCase()} ${recordId}.`;
  }

  /**
   * The records the runs are about, in their order, read as the owner reads them now in one read (a deleted one as
   * it was); null for a run about no record, or about one the owner may not read.
   */
  private async subjects(
    owner: AuthUser,
    def: ResourceDefinition | undefined,
    triggers: readonly RunTrigger[],
  ): Promise<Array<Record<string, unknown> | null>> {
    if (!def) return triggers.map(() => null);
    const records: RecordService = this.ctx.records;
    try {
      const deleted = triggers.filter((trigger) => trigger.kind === 'deleted' && trigger.record_id);
      if (deleted.length) records.authorize(owner, def, 'read');
      const copies = await records.readerCopies(
        owner,
        def,
        deleted.map((trigger) => trigger.record ?? { id: trigger.record_id }),
      );
      const ids = triggers
        .filter((trigger) => trigger.kind !== 'deleted' && trigger.record_id)
        .map((trigger) => Number(trigger.record_id));
      const current = ids.length ? await records.showMany(owner, def, ids) : [];
      const byId = new Map(current.map((record) => [Number(record.id), record as Record<string, unknown>]));
      return triggers.map((trigger) => {
        if (!trigger.record_id) return null;
        if (trigger.kind === 'deleted') return (copies[deleted.indexOf(trigger)] as Record<string, unknown>) ?? null;
        return byId.get(Number(trigger.record_id)) ?? null;
      });
    } catch (error) {
      if (error instanceof HttpError && [403, 404].includes(error.statusCode)) return triggers.map(() => null);
      throw error;
    }
  }

  /** Of these records, the ids of those meeting a filter (the view filter structure), as the owner may read them. */
  private async meeting(
    owner: AuthUser,
    def: ResourceDefinition,
    ids: readonly number[],
    filter: unknown,
  ): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const tree = parseFilterTree(filter);
    const { records } = this.ctx;
    const condition = await compileFilter(tree, records.filterScope(owner, await records.visibleFields(owner, def)));
    const found = await (await records.visibleRows(records.db, def, owner, 'with'))
      .select('t.id')
      .where('t.id', 'in', [...new Set(ids)])
      .where(condition)
      .execute();
    return new Set(found.map((row: { id: unknown }) => Number(row.id)));
  }

  /** Whether the record meets a filter (the view filter structure), as the owner may read it. */
  private async meets(
    owner: AuthUser,
    def: ResourceDefinition,
    record: Record<string, unknown>,
    filter: unknown,
  ): Promise<boolean> {
    if (filter === null || filter === undefined) return true;
    return (await this.meeting(owner, def, [Number(record.id)], filter)).has(Number(record.id));
  }

  private context(
    automation: AutomationRow,
    trigger: RunTrigger,
    def: ResourceDefinition | undefined,
    record: Record<string, unknown> | null,
  ): TemplateContext {
    const now = new Date();
    return {
      ...(def && record ? { [def.type.replace(/-/g, '_')]: record } : {}),
      record,
      webhook: trigger.body ?? null,
      automation: { id: automation.id, name: automation.name },
      today: dayIn(now, this.ctx.config.timeZone),
      now: now.toISOString(),
    };
  }

  /** An action's values with the placeholders filled, and whom it reaches: the run log's detail and the dry run's. */
  private async describe(
    action: PlainAction,
    context: TemplateContext,
    record: Record<string, unknown> | null,
    def: ResourceDefinition | undefined,
  ): Promise<Record<string, unknown>> {
    switch (action.kind) {
      case 'set_fields':
        if (!def || !record) throw new RunSkipped('This automation has no record to set fields on.');
        return { record_type: def.type, id: record.id, values: fill(action.values, context) };
      case 'create_record':
        return { record_type: action.record_type, values: fill(action.values, context) };
      case 'notify':
        return {
          people: await this.recipients(action, context, record),
          title: fillText(action.title, context),
          body: action.body ? fillText(action.body, context) : null,
        };
      case 'email':
        return {
          to: action.to.map((to) => fillText(to, context)).filter(Boolean),
          subject: fillText(action.subject, context),
          text: fillText(action.text, context),
        };
      case 'webhook':
        return { url: action.url };
    }
  }

  /** A write to records (set fields, create a record, notify) in the round's transaction; what it did. */
  private async perform(
    action: Exclude<PlainAction, { kind: 'webhook' | 'email' }>,
    detail: Record<string, unknown>,
    run: RunState,
    unit: WriteUnit,
  ): Promise<Record<string, unknown>> {
    const { records } = this.ctx;
    const options = { unit, cause: run.cause };
    switch (action.kind) {
      case 'set_fields': {
        const id = Number(run.record!.id);
        await records.update(run.owner, run.def!, id, detail.values, options);
        return detail;
      }
      case 'create_record': {
        const target = this.ctx.resources.byType(action.record_type);
        if (!target) throw new RunSkipped(`There is no record type "${action.record_type}".`);
        const made = await records.create(run.owner, target, detail.values, options);
        return { ...detail, id: made.record.id };
      }
      case 'notify': {
        const notifications = this.ctx.resources.get('notifications')!;
        const link = run.def && run.record ? `/${run.def.name}/${run.record.id}/show` : undefined;
        for (const userId of detail.people as number[])
          await records.create(
            run.owner,
            notifications,
            { user_id: userId, title: detail.title, body: detail.body, ...(link ? { link } : {}) },
            { ...options, system: true },
          );
        return detail;
      }
    }
  }

  /** A webhook action's message: the automation, the record and an incoming message's body, to `url`. */
  private message(run: RunState, url: string): NewDelivery {
    return {
      automationId: run.automation.id,
      automationRunId: run.id,
      event: 'automation.webhook',
      url,
      data: {
        automation: { id: run.automation.id, name: run.automation.name },
        record_type: run.def?.type ?? null,
        record: run.record,
        webhook: run.context.webhook,
      },
    };
  }

  /** The people a notice goes to: those named (ids or placeholders), the role's members, the record's owner. */
  private async recipients(
    action: Extract<PlainAction, { kind: 'notify' }>,
    context: TemplateContext,
    record: Record<string, unknown> | null,
  ): Promise<number[]> {
    const ids = new Set<number>();
    for (const person of action.people ?? []) {
      const value = Number(fill(person, context));
      if (Number.isInteger(value) && value > 0) ids.add(value);
    }
    if (action.record_owner && record) {
      const owner = Number(record.user_id ?? record.organizer_id ?? record.owner_id);
      if (Number.isInteger(owner) && owner > 0) ids.add(owner);
    }
    let query = this.db.selectFrom('users as u').select('u.id').where('u.deleted_at', 'is', null);
    if (action.role) {
      const role = action.role;
      const members = await query
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .where('r.slug', '=', role)
        .limit(500)
        .execute();
      for (const member of members) ids.add(member.id);
    }
    if (!ids.size) return [];
    query = query.where('u.id', 'in', [...ids]);
    return (await query.orderBy('u.id').execute()).map((row) => row.id);
  }

  /** Steps added to the runs' logs, in one statement. */
  private async appendSteps(db: Kysely<DB>, steps: ReadonlyArray<{ state: RunState; step: RunStep }>) {
    const byRun = new Map<number, RunStep[]>();
    for (const { state, step } of steps) byRun.set(state.id, [...(byRun.get(state.id) ?? []), step]);
    if (!byRun.size) return;
    const rows = [...byRun].map(([id, added]) => sql`(${id}::bigint, ${JSON.stringify(added)}::jsonb)`);
    await sql`update automation_runs as r set steps = r.steps || v.steps
      from (values ${sql.join(rows)}) as v(id, steps) where r.id = v.id`.execute(db);
  }

  /** The run job was given up (its process stopped on every attempt): its runs are failed, saying so. */
  giveUp(runIds: readonly number[], reason: string) {
    return this.finish(new Map(runIds.map((id) => [id, { status: 'failed' as const, error: reason }])));
  }

  /** The runs' ends, written together. */
  private async finish(ends: ReadonlyMap<number, RunEnd>) {
    if (!ends.size) return;
    const rows = [...ends].map(
      ([id, end]) => sql`(${id}::bigint, ${end.status}::text, ${end.error?.slice(0, 2_000) ?? null}::text)`,
    );
    await sql`update automation_runs as r set status = v.status, error = v.error, finished_at = now()
      from (values ${sql.join(rows)}) as v(id, status, error) where r.id = v.id`.execute(this.db);
  }

  /** The email job: one address sent the mail (through SMTP_URL, else the log). */
  async sendEmail(payload: { to: string; subject: string; text: string }) {
    await this.ctx.sendMail({ to: payload.to, subject: payload.subject, text: payload.text });
  }
}
