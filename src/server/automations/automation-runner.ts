import { type Kysely, sql } from 'kysely';
import { dayIn } from '../../common/relative-dates.js';
import type { AppContext } from '../app-context.js';
import type { AuthUser } from '../auth/auth-user.js';
import { loadAuthUser } from '../auth/load-user.js';
import type { DB } from '../db/schema.generated.js';
import { compileFilter } from '../filters/compile-filter.js';
import { parseFilterTree } from '../filters/filter-tree.js';
import { HttpError, ValidationError } from '../http/errors.js';
import { enqueueJob } from '../jobs/queue.js';
import { type JobContext, jobCutOff } from '../jobs/worker.js';
import type { WriteUnit } from '../records/record-service.js';
import type { ResourceDefinition } from '../records/resource.js';
import type { WebhookDeliveries } from '../webhooks/deliveries.js';
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

  async run(runId: number, job: JobContext): Promise<void> {
    const run = await this.db.selectFrom('automation_runs').selectAll().where('id', '=', runId).executeTakeFirst();
    if (!run || !['queued', 'running'].includes(run.status)) return;
    const automation = (await this.db
      .selectFrom('automations')
      .selectAll()
      .where('id', '=', run.automation_id)
      .executeTakeFirstOrThrow()) as unknown as AutomationRow;
    if (!automation.enabled || automation.deleted_at) {
      await this.finish(
        runId,
        'skipped',
        automation.deleted_at ? 'The automation was deleted.' : 'The automation is paused.',
      );
      return;
    }
    await this.db
      .updateTable('automation_runs')
      .set({ status: 'running', started_at: sql`coalesce(started_at, now())`, attempts: sql`attempts + 1` })
      .where('id', '=', runId)
      .execute();
    const trigger = run.trigger as unknown as RunTrigger;
    const done = new Map((run.steps as unknown as RunStep[]).map((step) => [step.path, step]));
    let current: { path: string; kind: string } | null = null;
    try {
      const owner = await this.ownerOf(automation);
      const { def, record } = await this.subject(automation, trigger, owner);
      if (def && record && !(await this.meets(owner, def, record, automation.conditions))) {
        await this.finish(runId, 'skipped', 'The record did not meet the conditions.');
        return;
      }
      const cause = { runId, depth: run.depth, chain: [...(trigger.chain ?? []), automation.id] };
      const context = this.context(automation, trigger, def, record);
      await this.walk(automation.actions, '', done, async (path, action) => {
        if (action.kind === 'branch') {
          const taken = def && record && (await this.meets(owner, def, record, action.if)) ? 'yes' : 'no';
          await this.appendStep(this.db, runId, { path, kind: 'branch', outcome: taken, at: new Date().toISOString() });
          return taken;
        }
        current = { path, kind: action.kind };
        // Worked out before the transaction: on the embedded database a read outside it would wait for it to end.
        const planned = await this.describe(action, context, record, def);
        await this.ctx.records.inOneTransaction(async (unit) => {
          await job.holdClaim(unit.trx);
          const detail = await this.perform(action, planned, {
            owner,
            def,
            record,
            context,
            unit,
            runId,
            automation,
            cause,
          });
          await this.appendStep(unit.trx as Kysely<DB>, runId, {
            path,
            kind: action.kind,
            outcome: 'done',
            at: new Date().toISOString(),
            detail,
          });
        });
        current = null;
        await this.options.afterStep?.(runId, path);
        return undefined;
      });
      await this.finish(runId, 'done', null);
    } catch (error) {
      if (jobCutOff(error)) throw error;
      if (error instanceof RunSkipped) return this.finish(runId, 'skipped', error.message);
      const failed = current as { path: string; kind: string } | null;
      if (failed)
        await this.appendStep(this.db, runId, {
          ...failed,
          outcome: 'failed',
          at: new Date().toISOString(),
          error: errorText(error),
        });
      await this.finish(runId, 'failed', errorText(error));
    }
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
    const { def, record } = await this.subject(automation, trigger, owner);
    const conditionsMet = !(def && record) || (await this.meets(owner, def, record, automation.conditions));
    const steps: RunStep[] = [];
    if (conditionsMet) {
      const context = this.context(automation, trigger, def, record);
      await this.walk(automation.actions, '', new Map(), async (path, action) => {
        const at = new Date().toISOString();
        if (action.kind === 'branch') {
          const taken = def && record && (await this.meets(owner, def, record, action.if)) ? 'yes' : 'no';
          steps.push({ path, kind: 'branch', outcome: taken, at });
          return taken;
        }
        steps.push({
          path,
          kind: action.kind,
          outcome: 'would',
          at,
          detail: await this.describe(action, context, record, def),
        });
        return undefined;
      });
    }
    return { conditions_met: conditionsMet, record, steps };
  }

  /** Walks actions in order; a branch's answer picks its side. Steps already in `done` are not done again. */
  private async walk(
    actions: readonly Action[],
    prefix: string,
    done: Map<string, RunStep>,
    step: (path: string, action: Action) => Promise<'yes' | 'no' | undefined>,
  ): Promise<void> {
    for (const [index, action] of actions.entries()) {
      const path = `${prefix}${index}`;
      const before = done.get(path);
      if (before?.outcome === 'done') continue;
      const taken = before?.outcome === 'yes' || before?.outcome === 'no' ? before.outcome : await step(path, action);
      if (action.kind === 'branch' && taken) {
        const side = taken === 'yes' ? action.yes : (action.no ?? []);
        await this.walk(side, `${path}.${taken}.`, done, step);
      }
    }
  }

  private async ownerOf(automation: AutomationRow): Promise<AuthUser> {
    const owner = await loadAuthUser(this.ctx.db, automation.owner_id);
    if (!owner) throw new RunSkipped("The automation's owner no longer has an account.");
    return owner;
  }

  /** The record the run is about, read as the owner reads it now (a deleted one as it was). */
  private async subject(automation: AutomationRow, trigger: RunTrigger, owner: AuthUser) {
    const def = automation.record_type ? this.ctx.resources.byType(automation.record_type) : undefined;
    if (automation.record_type && !def)
      throw new RunSkipped(`There is no record type "${automation.record_type}" any more.`);
    if (!def || !trigger.record_id) return { def, record: null };
    try {
      if (trigger.kind === 'deleted') {
        this.ctx.records.authorize(owner, def, 'read');
        return {
          def,
          record: await this.ctx.records.readerCopy(owner, def, trigger.record ?? { id: trigger.record_id }),
        };
      }
      return { def, record: (await this.ctx.records.show(owner, def, trigger.record_id)) as Record<string, unknown> };
    } catch (error) {
      if (error instanceof HttpError && [403, 404].includes(error.statusCode))
        throw new RunSkipped(`The automation's owner may not read ${def.singular.toLowerCase()} ${trigger.record_id}.`);
      throw error;
    }
  }

  /** Whether the record meets a filter (the view filter structure), as the owner may read it. */
  async meets(
    owner: AuthUser,
    def: ResourceDefinition,
    record: Record<string, unknown>,
    filter: unknown,
  ): Promise<boolean> {
    if (filter === null || filter === undefined) return true;
    const tree = parseFilterTree(filter);
    const { records } = this.ctx;
    const condition = await compileFilter(tree, records.filterScope(owner, await records.visibleFields(owner, def)));
    const found = await (await records.visibleRows(records.db, def, owner, 'with'))
      .select('t.id')
      .where('t.id', '=', Number(record.id))
      .where(condition)
      .executeTakeFirst();
    return Boolean(found);
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

  private async perform(
    action: PlainAction,
    detail: Record<string, unknown>,
    run: {
      owner: AuthUser;
      def: ResourceDefinition | undefined;
      record: Record<string, unknown> | null;
      context: TemplateContext;
      unit: WriteUnit;
      runId: number;
      automation: AutomationRow;
      cause: { runId: number; depth: number; chain: number[] };
    },
  ): Promise<Record<string, unknown>> {
    const { records } = this.ctx;
    const options = { unit: run.unit, cause: run.cause };
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
      case 'email':
        for (const to of detail.to as string[])
          await enqueueJob(run.unit.trx, AUTOMATION_EMAIL_JOB, { ...detail, to }, { maxAttempts: 5 });
        return detail;
      case 'webhook': {
        const deliveryId = await this.deliveries.enqueue(run.unit.trx as Kysely<DB>, {
          automationId: run.automation.id,
          automationRunId: run.runId,
          event: 'automation.webhook',
          url: action.url,
          data: {
            automation: { id: run.automation.id, name: run.automation.name },
            record_type: run.def?.type ?? null,
            record: run.record,
            webhook: run.context.webhook,
          },
        });
        return { ...detail, delivery_id: deliveryId };
      }
    }
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

  async appendStep(db: Kysely<DB>, runId: number, step: RunStep) {
    await db
      .updateTable('automation_runs')
      .set({ steps: sql`steps || ${JSON.stringify([step])}::jsonb` })
      .where('id', '=', runId)
      .execute();
  }

  /** The run's job was given up (its process stopped on every attempt): the run is failed, saying so. */
  giveUp(runId: number, reason: string) {
    return this.finish(runId, 'failed', reason);
  }

  private async finish(runId: number, status: 'done' | 'failed' | 'skipped', error: string | null) {
    await this.db
      .updateTable('automation_runs')
      .set({ status, error: error?.slice(0, 2_000) ?? null, finished_at: new Date() })
      .where('id', '=', runId)
      .execute();
  }

  /** The email job: one address sent the mail (through SMTP_URL, else the log). */
  async sendEmail(payload: { to: string; subject: string; text: string }) {
    await this.ctx.sendMail({ to: payload.to, subject: payload.subject, text: payload.text });
  }
}
