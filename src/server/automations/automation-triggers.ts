import { randomUUID } from 'node:crypto';
import { Cron } from 'croner';
import { type Kysely, sql } from 'kysely';
import { dayIn } from '../../common/relative-dates.js';
import type { AppContext } from '../app-context.js';
import { loadAuthUser } from '../auth/load-user.js';
import type { DB } from '../db/schema.generated.js';
import type { RecordEvent } from '../events/app-events.js';
import { enqueueJob } from '../jobs/queue.js';
import { AUTOMATION_RUN_JOB, type AutomationRow, type RunTrigger } from './automation-runner.js';
import { CRON_DAYS, type Trigger } from './automation-shapes.js';

/** How long the automations of a record type are kept in memory (other processes' changes show within this). */
const KEPT_MS = 5_000;
/** Records one date trigger fires for per check, at most (the rest the next minute). */
const DATE_BATCH = 1_000;

/**
 * What sets automations off (docs/automations.md "Triggers"): record events from the bus (after the write
 * committed, never in its request), the scheduler's check each minute (schedules in the organization's time zone,
 * dates reached), and messages received. Each firing is a run row made with its job in one transaction; loop
 * protection stops a run that automations set off more than AUTOMATION_MAX_DEPTH deep in a row, or more than
 * AUTOMATION_RUNS_PER_RECORD_PER_MINUTE times for one record, and says so in the run log.
 */
export class AutomationTriggers {
  private kept = new Map<string, { at: number; automations: Promise<AutomationRow[]> }>();

  constructor(
    private readonly ctx: AppContext,
    private readonly wake: () => void,
  ) {}

  private get db(): Kysely<DB> {
    return this.ctx.db;
  }

  /** Forgets the automations kept in memory (one was made, changed, paused or deleted). */
  forget() {
    this.kept.clear();
  }

  async onRecordEvent(event: RecordEvent) {
    if (event.id === null || !['created', 'updated', 'deleted'].includes(event.event)) return;
    const automations = await this.automationsOf(event.type);
    for (const automation of automations) {
      if (!firesOn(automation.trigger, event)) continue;
      const depth = event.cause ? event.cause.depth + 1 : 0;
      const chain = event.cause?.chain ?? [];
      await this.start(automation, {
        key: `event:${randomUUID()}`,
        depth,
        trigger: {
          kind: automation.trigger.kind,
          record_type: event.type,
          record_id: event.id,
          record: event.event === 'deleted' ? event.record : undefined,
          changes: event.changes,
          user_id: event.user?.id ?? null,
          chain,
        },
      });
    }
  }

  /** A message received at the automation's address (signature and size checked by the route). */
  async onMessage(automation: AutomationRow, body: unknown) {
    return this.start(automation, { key: `webhook:${randomUUID()}`, depth: 0, trigger: { kind: 'webhook', body } });
  }

  /**
   * A run, unless loop protection stops it (then the run is logged `stopped`, saying why). `key` makes a firing
   * once only (a date reached for a record, a schedule's time).
   */
  async start(
    automation: AutomationRow,
    firing: { key: string; depth: number; trigger: RunTrigger },
  ): Promise<number | null> {
    const { maxDepth, runsPerRecordPerMinute } = this.ctx.config.automations;
    const { trigger } = firing;
    let stopped: string | null = null;
    if (firing.depth >= maxDepth) stopped = await this.loopMessage(automation, trigger.chain ?? [], firing.depth);
    else if (trigger.record_id) {
      const recent = await this.db
        .selectFrom('automation_runs')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('automation_id', '=', automation.id)
        .where('record_id', '=', trigger.record_id)
        .where('created_at', '>', sql<Date>`now() - interval '1 minute'`)
        .where('status', '!=', 'stopped')
        .executeTakeFirstOrThrow();
      if (Number(recent.n) >= runsPerRecordPerMinute)
        stopped = `Stopped: it already ran ${recent.n} times for this record within a minute (at most ${runsPerRecordPerMinute}); the automations may be setting each other off.`;
    }
    const id = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('automation_runs')
        .values({
          automation_id: automation.id,
          status: stopped ? 'stopped' : 'queued',
          trigger_key: firing.key,
          trigger: JSON.stringify(trigger),
          record_type: trigger.record_type ?? null,
          record_id: trigger.record_id ?? null,
          depth: firing.depth,
          error: stopped,
          finished_at: stopped ? new Date() : null,
        })
        .onConflict((oc) => oc.columns(['automation_id', 'trigger_key']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (row && !stopped) await enqueueJob(trx, AUTOMATION_RUN_JOB, { run_id: Number(row.id) }, { maxAttempts: 5 });
      return row ? Number(row.id) : null;
    });
    if (stopped) this.ctx.records.logError(new Error(stopped), `Automation ${automation.id} "${automation.name}"`);
    else if (id) setImmediate(this.wake);
    return id;
  }

  private async loopMessage(automation: AutomationRow, chain: number[], depth: number) {
    const ids = [...new Set([...chain, automation.id])];
    const names = await this.db.selectFrom('automations').select(['id', 'name']).where('id', 'in', ids).execute();
    const named = ids.map((id) => `"${names.find((row) => row.id === id)?.name ?? id}"`).join(', ');
    return `Stopped: a loop. Automations set each other off ${depth} times in a row (${named}); at most ${this.ctx.config.automations.maxDepth} are allowed. Change their triggers or conditions so that one's change does not set the other off.`;
  }

  /** The scheduler's check (every minute): schedules due, and dates reached today. */
  async tick(now = new Date()) {
    const automations = (await this.db
      .selectFrom('automations')
      .selectAll()
      .where('deleted_at', 'is', null)
      .where('enabled', '=', true)
      .where(sql<boolean>`trigger->>'kind' in ('schedule', 'date_reached')`)
      .execute()) as unknown as AutomationRow[];
    for (const automation of automations) {
      if (automation.trigger.kind === 'schedule') await this.scheduleDue(automation, now);
      else await this.datesReached(automation, now);
    }
  }

  /** When a schedule fires next after `after`, in the organization's time zone. */
  nextRun(trigger: Trigger, after = new Date()): Date | null {
    if (trigger.kind !== 'schedule') return null;
    const [hour, minute] = trigger.at.split(':').map(Number);
    const days = trigger.days?.length ? trigger.days.map((day) => CRON_DAYS[day]).join(',') : '*';
    return new Cron(`${minute} ${hour} * * ${days}`, { timezone: this.ctx.config.timeZone }).nextRun(after);
  }

  private async scheduleDue(automation: AutomationRow & { next_run_at?: Date | null }, now: Date) {
    const due = automation.next_run_at ? new Date(automation.next_run_at) : null;
    if (due && due <= now)
      await this.start(automation, {
        key: `schedule:${due.toISOString()}`,
        depth: 0,
        trigger: { kind: 'schedule', date: due.toISOString() },
      });
    if (!due || due <= now)
      await this.db
        .updateTable('automations')
        .set({ next_run_at: this.nextRun(automation.trigger, now) })
        .where('id', '=', automation.id)
        .execute();
  }

  /** Records whose date field is `days` before today (a run per record and date, once), as the owner reads them. */
  private async datesReached(automation: AutomationRow, now: Date) {
    if (automation.trigger.kind !== 'date_reached' || !automation.record_type) return;
    const def = this.ctx.resources.byType(automation.record_type);
    const owner = await loadAuthUser(this.ctx.db, automation.owner_id);
    if (!def || !owner) return;
    const today = dayIn(now, this.ctx.config.timeZone);
    const date = new Date(`${today}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() - automation.trigger.days);
    const day = date.toISOString().slice(0, 10);
    const filter = { all: [{ field: automation.trigger.field, op: 'eq', value: day }] };
    const ids = await this.ctx.records.matchingIds(owner, def, { filters: JSON.stringify(filter) }, DATE_BATCH * 5);
    const fired = new Set(
      (
        await this.db
          .selectFrom('automation_runs')
          .select('trigger_key')
          .where('automation_id', '=', automation.id)
          .where('trigger_key', 'like', `date:${automation.trigger.field}:${day}:%`)
          .execute()
      ).map((row) => row.trigger_key),
    );
    let started = 0;
    for (const id of ids) {
      const key = `date:${automation.trigger.field}:${day}:${id}`;
      if (fired.has(key)) continue;
      if (++started > DATE_BATCH) break;
      await this.start(automation, {
        key,
        depth: 0,
        trigger: { kind: 'date_reached', record_type: def.type, record_id: id, date: day },
      });
    }
  }

  private automationsOf(type: string): Promise<AutomationRow[]> {
    const kept = this.kept.get(type);
    if (kept && Date.now() - kept.at < KEPT_MS) return kept.automations;
    const automations = this.db
      .selectFrom('automations')
      .selectAll()
      .where('record_type', '=', type)
      .where('deleted_at', 'is', null)
      .where('enabled', '=', true)
      .execute() as unknown as Promise<AutomationRow[]>;
    this.kept.set(type, { at: Date.now(), automations });
    automations.catch(() => this.kept.delete(type));
    return automations;
  }
}

/** Whether a record event sets this trigger off. */
function firesOn(trigger: Trigger, event: RecordEvent): boolean {
  switch (trigger.kind) {
    case 'created':
    case 'updated':
    case 'deleted':
      return trigger.kind === event.event;
    case 'field_changed': {
      const change = event.event === 'updated' ? event.changes?.[trigger.field] : undefined;
      if (!change) return false;
      const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
      return (
        (trigger.from === undefined || same(change[0], trigger.from)) &&
        (trigger.to === undefined || same(change[1], trigger.to))
      );
    }
    default:
      return false;
  }
}
