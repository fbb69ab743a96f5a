import { Cron } from 'croner';
import { type Kysely, sql } from 'kysely';
import { dayIn } from '../../common/relative-dates.js';
import type { AppContext } from '../app-context.js';
import { loadAuthUser } from '../auth/load-user.js';
import type { DB } from '../db/schema.generated.js';
import { enqueueJobs } from '../jobs/queue.js';
import type { RecordChange } from '../records/record-changes.js';
import { AUTOMATION_RUN_JOB, type AutomationRow, type RunTrigger } from './automation-runner.js';
import { CRON_DAYS, type Trigger } from './automation-shapes.js';

/** How long the automations of a record type are kept in memory (other processes' changes show within this). */
const KEPT_MS = 5_000;
/** Records one date trigger fires for per check, at most (the rest the next minute). */
const DATE_BATCH = 1_000;
/** Runs one job carries out, one after another (an import's thousands of runs are not thousands of jobs). */
const RUNS_PER_JOB = 50;
/** Run rows per insert statement. */
const INSERT_SLICE = 500;

/** A run to write: its automation, what set it off, and why loop protection stops it (or null). */
export interface PlannedRun {
  automation: AutomationRow;
  /** The outbox change it comes from (null: a schedule, a date, a message). */
  changeId: number | null;
  key: string;
  depth: number;
  trigger: RunTrigger;
  stopped: string | null;
}

/**
 * What sets automations off (docs/automations.md "Triggers"): record changes from the outbox (after the write
 * committed, never in its request: the `record-changes` job), the scheduler's check each minute (schedules in the
 * organization's time zone, dates reached), and messages received. Each firing is a run row made with its job in
 * one transaction; loop
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

  /**
   * The runs these committed record changes (from the outbox) set off, worked out before the transaction that takes
   * them (on the embedded database a read outside that transaction would wait for it): one per automation whose
   * trigger fires, keyed by the change, or `stopped` by loop protection with the reason.
   */
  async plan(changes: readonly RecordChange[]): Promise<PlannedRun[]> {
    const planned: PlannedRun[] = [];
    for (const type of new Set(changes.map((change) => change.record_type))) {
      const ofType = changes.filter((change) => change.record_type === type);
      for (const automation of await this.automationsOf(type)) {
        const firing = ofType.filter((change) => firesOn(automation.trigger, change));
        if (!firing.length) continue;
        const recent = await this.recentRuns(
          automation.id,
          firing.map((change) => change.record_id),
        );
        for (const change of firing) {
          const depth = change.cause ? change.cause.depth + 1 : 0;
          const chain = change.cause?.chain ?? [];
          const run: PlannedRun = {
            automation,
            changeId: change.id,
            key: `change:${change.id}`,
            depth,
            trigger: {
              kind: automation.trigger.kind,
              record_type: change.record_type,
              record_id: change.record_id,
              record: change.event === 'deleted' ? (change.record ?? undefined) : undefined,
              changes: change.changes,
              user_id: change.user_id,
              chain,
            },
            stopped: null,
          };
          const count = recent.get(change.record_id) ?? 0;
          run.stopped = await this.stopReason(automation, depth, chain, count);
          if (!run.stopped) recent.set(change.record_id, count + 1);
          planned.push(run);
        }
      }
    }
    return planned;
  }

  /** Runs of `automationId` for each of these records within the last minute (loop protection's rate). */
  private async recentRuns(automationId: number, recordIds: readonly number[]): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('automation_runs')
      .select(['record_id', sql<number>`count(*)::int`.as('n')])
      .where('automation_id', '=', automationId)
      .where('record_id', 'in', [...new Set(recordIds)])
      .where('created_at', '>', sql<Date>`now() - interval '1 minute'`)
      .where('status', '!=', 'stopped')
      .groupBy('record_id')
      .execute();
    return new Map(rows.map((row) => [Number(row.record_id), Number(row.n)]));
  }

  /** Why loop protection stops a run (too deep a chain, too many runs for the record within a minute), or null. */
  private async stopReason(automation: AutomationRow, depth: number, chain: number[], recentForRecord: number) {
    const { maxDepth, runsPerRecordPerMinute } = this.ctx.config.automations;
    if (depth >= maxDepth) return this.loopMessage(automation, chain, depth);
    if (recentForRecord >= runsPerRecordPerMinute)
      return `Stopped: it already ran ${recentForRecord} times for this record within a minute (at most ${runsPerRecordPerMinute}); the automations may be setting each other off.`;
    return null;
  }

  /**
   * Writes planned runs in `trx` (the transaction that takes their changes from the outbox, or the firing's own):
   * each a run row (once per automation and key), those not stopped queued in jobs of RUNS_PER_JOB runs. A stopped
   * one is logged; the worker is woken after the caller's commit.
   */
  async write(trx: Kysely<DB>, planned: readonly PlannedRun[]): Promise<Array<number | null>> {
    const ids: Array<number | null> = [];
    const queued: number[] = [];
    for (let start = 0; start < planned.length; start += INSERT_SLICE) {
      const slice = planned.slice(start, start + INSERT_SLICE);
      const rows = await trx
        .insertInto('automation_runs')
        .values(
          slice.map((run) => ({
            automation_id: run.automation.id,
            status: run.stopped ? 'stopped' : 'queued',
            trigger_key: run.key,
            trigger: JSON.stringify(run.trigger),
            record_type: run.trigger.record_type ?? null,
            record_id: run.trigger.record_id ?? null,
            depth: run.depth,
            error: run.stopped,
            finished_at: run.stopped ? new Date() : null,
          })),
        )
        .onConflict((oc) => oc.columns(['automation_id', 'trigger_key']).doNothing())
        .returning(['id', 'automation_id', 'trigger_key'])
        .execute();
      const byKey = new Map(rows.map((row) => [`${row.automation_id}:${row.trigger_key}`, Number(row.id)]));
      for (const run of slice) {
        const id = byKey.get(`${run.automation.id}:${run.key}`) ?? null;
        ids.push(id);
        if (id && !run.stopped) queued.push(id);
      }
    }
    const jobs = [];
    for (let start = 0; start < queued.length; start += RUNS_PER_JOB)
      jobs.push({ payload: { run_ids: queued.slice(start, start + RUNS_PER_JOB) } });
    await enqueueJobs(trx, AUTOMATION_RUN_JOB, jobs, { maxAttempts: 5 });
    for (const run of planned)
      if (run.stopped)
        this.ctx.records.logError(new Error(run.stopped), `Automation ${run.automation.id} "${run.automation.name}"`);
    if (queued.length) setImmediate(this.wake);
    return ids;
  }

  /**
   * A message received at the automation's address (signature and size checked by the route); a message sent again
   * with the same `webhook-id` (the sender retrying) starts no second run.
   */
  async onMessage(automation: AutomationRow, messageId: string, body: unknown) {
    return this.start(automation, { key: `webhook:${messageId}`, depth: 0, trigger: { kind: 'webhook', body } });
  }

  /**
   * A run, unless loop protection stops it (then the run is logged `stopped`, saying why). `key` makes a firing
   * once only (a date reached for a record, a schedule's time).
   */
  async start(
    automation: AutomationRow,
    firing: { key: string; depth: number; trigger: RunTrigger },
  ): Promise<number | null> {
    const { trigger } = firing;
    const recent = trigger.record_id
      ? ((await this.recentRuns(automation.id, [trigger.record_id])).get(trigger.record_id) ?? 0)
      : 0;
    const stopped = await this.stopReason(automation, firing.depth, trigger.chain ?? [], recent);
    const [id] = await this.db
      .transaction()
      .execute((trx) => this.write(trx, [{ automation, changeId: null, ...firing, stopped }]));
    return id ?? null;
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

/** Whether a record change sets this trigger off. */
function firesOn(trigger: Trigger, event: RecordChange): boolean {
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
