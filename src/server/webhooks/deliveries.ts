import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import pLimit, { type LimitFunction } from 'p-limit';
import type { AppContext } from '../app-context.js';
import { loadAuthUser } from '../auth/load-user.js';
import type { DB } from '../db/schema.generated.js';
import { enqueueJob, enqueueJobs } from '../jobs/queue.js';
import type { JobContext } from '../jobs/worker.js';
import { OutboundAddresses, OutboundRefused, postJson } from './outbound.js';
import { signedHeaders } from './signing.js';

export const WEBHOOK_DELIVERY_JOB = 'webhook-delivery';

/** A message as a delivery job reads it to send. */
interface Sendable {
  id: number | string;
  message_id: string;
  url: string;
  payload: unknown;
  attempts: number | string;
  created_at: Date;
  webhook_id: number | null;
  secret: string | null;
}

/** A URL's receiver: its scheme, host and port (an unreadable URL stands for itself; postJson refuses it). */
const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : url);

/** Messages queued to one delivery job (sent side by side, their outcomes written together). */
const DELIVERIES_PER_JOB = 16;

/** Messages in the delivery jobs they are queued to, DELIVERIES_PER_JOB to a job, in order. */
function byDeliveryJob<T>(messages: readonly T[]): T[][] {
  const jobs: T[][] = [];
  for (let start = 0; start < messages.length; start += DELIVERIES_PER_JOB)
    jobs.push(messages.slice(start, start + DELIVERIES_PER_JOB));
  return jobs;
}
/** How often a delivery job tells the queue it is still sending. */
const HEARTBEAT_MS = 30_000;
/**
 * Delivery jobs a worker claims at once (BatchHandlerOptions.batch): their messages sent side by side (at most
 * IN_FLIGHT_PER_ENDPOINT to one receiver) and their outcomes written in one transaction. A turn of the worker holds
 * what gathered while it held back (a few seconds of updates: hundreds of messages under steady use).
 */
export const DELIVERY_JOBS_PER_BATCH = 32;
/** Messages in flight to one receiver (scheme, host and port) at once, from this process. */
const IN_FLIGHT_PER_ENDPOINT = 4;

/** A message to send: for a webhook, or for an automation's webhook action (signed with the automation's secret). */
export interface NewDelivery {
  webhookId?: number;
  automationId?: number;
  automationRunId?: number;
  /** `site.updated`, `automation.run`... */
  event: string;
  url: string;
  data: unknown;
}

/** What came of one attempt at a message. */
interface AttemptOutcome {
  id: number;
  webhookId: number | null;
  attempts: number;
  status: number | null;
  ms: number | null;
  error: string | null;
  at: Date;
  /** When it is tried again (it failed and time remains), or null. */
  next: Date | null;
}

/** A message not sent this time: its receiver did not answer one sent just before it (see `attempt`). */
interface PutOff {
  id: number;
  note: string;
  /** When it is tried, or null once WEBHOOK_RETRY_HOURS have passed since it was made. */
  next: Date | null;
}

/**
 * Deliveries of signed webhook messages (docs/webhooks.md): each message is a row queued with the job that sends it,
 * in the caller's transaction, so it is sent once it commits and never lost. Each attempt repeats the message's
 * `webhook-id`; a failed one is tried again after WEBHOOK_RETRY_SECONDS (the last delay repeated) until
 * WEBHOOK_RETRY_HOURS after the first; WEBHOOK_PAUSE_AFTER failed attempts in a row pause a webhook and tell its owner.
 */
export class WebhookDeliveries {
  readonly addresses: OutboundAddresses;
  /** Told when a webhook is paused (the service forgets the webhooks it keeps in memory). */
  onPaused: () => void = () => {};
  /** Per receiver, the limit of messages in flight. */
  private readonly endpoints = new Map<string, LimitFunction>();

  constructor(
    private readonly ctx: AppContext,
    private readonly wake: () => void,
  ) {
    this.addresses = new OutboundAddresses(ctx.config.webhooks.allowNetworks);
  }

  /** Queues a message (in `db`: pass the transaction that decides it); the worker is woken after the caller's commit. */
  async enqueue(db: Kysely<DB>, delivery: NewDelivery): Promise<number> {
    const [id] = await this.enqueueMany(db, [delivery]);
    return id!;
  }

  /**
   * Queues messages in two statements (their rows, then jobs of DELIVERIES_PER_JOB messages each), in `db`: the
   * transaction that decides them. Their ids, in order.
   */
  async enqueueMany(db: Kysely<DB>, deliveries: readonly NewDelivery[]): Promise<number[]> {
    if (!deliveries.length) return [];
    const now = new Date();
    const rows = deliveries.map((delivery) => ({
      webhook_id: delivery.webhookId ?? null,
      automation_id: delivery.automationId ?? null,
      automation_run_id: delivery.automationRunId ?? null,
      message_id: `msg_${randomUUID().replace(/-/g, '')}`,
      event: delivery.event,
      url: delivery.url,
      payload: JSON.stringify({ type: delivery.event, timestamp: now.toISOString(), data: delivery.data }),
      next_attempt_at: now,
    }));
    const inserted = await db.insertInto('webhook_deliveries').values(rows).returning(['id', 'message_id']).execute();
    const idOf = new Map(inserted.map((row) => [row.message_id, Number(row.id)]));
    const ids = rows.map((row) => idOf.get(row.message_id)!);
    const jobs = byDeliveryJob(ids).map((part) => ({ payload: { delivery_ids: part } }));
    await enqueueJobs(db, WEBHOOK_DELIVERY_JOB, jobs, { maxAttempts: 3 });
    setImmediate(this.wake);
    return ids;
  }

  /** Queues the job of a message held back (its webhook was paused) to be tried now. */
  async requeue(db: Kysely<DB>, deliveryId: number) {
    await enqueueJob(db, WEBHOOK_DELIVERY_JOB, { delivery_ids: [deliveryId] }, { maxAttempts: 3 });
    setImmediate(this.wake);
  }

  /**
   * The job: one attempt at each of these messages, sent side by side, their outcomes written together in one
   * transaction, with the next attempt of each that failed queued if time remains.
   */
  async attempt(deliveryIds: readonly number[], job: JobContext): Promise<void> {
    const db: Kysely<DB> = this.ctx.db;
    const found = await db
      .selectFrom('webhook_deliveries as d')
      .leftJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .leftJoin('automations as a', 'a.id', 'd.automation_id')
      .select([
        'd.id',
        'd.status',
        'd.message_id',
        'd.url',
        'd.payload',
        'd.attempts',
        'd.created_at',
        'd.webhook_id',
        'w.paused_at',
        'w.deleted_at as webhook_deleted_at',
        sql<string | null>`coalesce(w.secret, a.secret)`.as('secret'),
      ])
      .where('d.id', 'in', [...deliveryIds])
      .where('d.status', '=', 'pending')
      .orderBy('d.id')
      .execute();
    const held = found.filter((delivery) => delivery.webhook_id && (delivery.paused_at || delivery.webhook_deleted_at));
    if (held.length)
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'paused' })
        .where(
          'id',
          'in',
          held.map((delivery) => delivery.id),
        )
        .execute();
    const sending = found.filter((delivery) => delivery.secret && !held.includes(delivery));
    if (!sending.length) return;
    // A slow receiver can keep a job's messages in flight for minutes: the claim is kept alive meanwhile.
    const beat = setInterval(() => void job.heartbeat().catch(() => {}), HEARTBEAT_MS);
    // A receiver that gave no answer (down, its name not found, the time passed) gets none of its other messages this
    // time: a batch holds hundreds, four in flight at a time, and waiting out each one's failure would keep the worker,
    // and every job queued behind it (a bulk edit, an import), for minutes. They are put off, not counted as failures.
    const unanswered = new Map<string, string>();
    const results = await Promise.all(
      sending.map((delivery) => this.sendUnlessUnanswered(delivery, unanswered)),
    ).finally(() => clearInterval(beat));
    const outcomes = results.filter((result): result is AttemptOutcome => 'attempts' in result);
    const putOff = results.filter((result): result is PutOff => !('attempts' in result));
    const pausedWebhooks = await db.transaction().execute(async (trx) => {
      await job.holdClaim(trx);
      await this.record(trx, outcomes);
      await this.putOff(trx, putOff);
      const retries = outcomes.filter((outcome) => outcome.next);
      await enqueueJobs(
        trx,
        WEBHOOK_DELIVERY_JOB,
        retries.map((outcome) => ({ payload: { delivery_ids: [outcome.id] }, runAt: outcome.next })),
        { maxAttempts: 3 },
      );
      const paused: number[] = [];
      for (const webhookId of new Set(outcomes.map((outcome) => outcome.webhookId)))
        if (
          webhookId &&
          (await this.count(
            trx,
            webhookId,
            outcomes.filter((outcome) => outcome.webhookId === webhookId).map((outcome) => !outcome.error),
          ))
        )
          paused.push(webhookId);
      return paused;
    });
    for (const webhookId of pausedWebhooks) {
      this.onPaused();
      await this.tellOwnerOfPause(webhookId);
    }
  }

  /**
   * One attempt at a message in its turn among those to its receiver (IN_FLIGHT_PER_ENDPOINT at a time), or, when the
   * receiver already gave no answer this time (`unanswered`, by origin), the message put off to its next attempt's time.
   */
  private sendUnlessUnanswered(delivery: Sendable, unanswered: Map<string, string>): Promise<AttemptOutcome | PutOff> {
    const origin = originOf(delivery.url);
    return this.inFlight(origin)(async () => {
      const earlier = unanswered.get(origin);
      if (earlier !== undefined)
        return {
          id: Number(delivery.id),
          note: `Not sent yet: the receiver did not answer the message before it (${earlier}).`,
          next: this.nextAttempt(Math.max(1, Number(delivery.attempts)), new Date(delivery.created_at)),
        };
      const outcome = await this.send(delivery);
      if (outcome.status === null && outcome.error !== null && !outcome.refused) unanswered.set(origin, outcome.error);
      return outcome;
    });
  }

  /** One attempt at a message: its signed POST, and what came of it (the next attempt's time if it failed). */
  private async send(delivery: Sendable): Promise<AttemptOutcome & { refused?: boolean }> {
    const body = JSON.stringify(delivery.payload);
    const headers = signedHeaders(delivery.secret!, delivery.message_id, Math.floor(Date.now() / 1000), body);
    const { timeoutSeconds } = this.ctx.config.webhooks;
    let answer: { status: number | null; ms: number | null; error: string | null; refused?: boolean };
    try {
      const answered = await postJson(delivery.url, body, headers, this.addresses, timeoutSeconds * 1000);
      const ok = answered.status >= 200 && answered.status < 300;
      answer = { ...answered, error: ok ? null : `The receiver answered ${answered.status}.` };
    } catch (error) {
      answer = {
        status: null,
        ms: null,
        error: error instanceof Error ? error.message : String(error),
        refused: error instanceof OutboundRefused,
      };
    }
    const attempts = Number(delivery.attempts) + 1;
    return {
      ...answer,
      id: Number(delivery.id),
      webhookId: delivery.webhook_id,
      attempts,
      at: new Date(),
      next: answer.error ? this.nextAttempt(attempts, new Date(delivery.created_at)) : null,
    };
  }

  /** The outcomes of attempts, written in one statement. */
  private async record(trx: Kysely<DB>, outcomes: readonly AttemptOutcome[]) {
    const rows = outcomes.map(
      (outcome) =>
        sql`(${outcome.id}::bigint, ${outcome.error ? (outcome.next ? 'pending' : 'failed') : 'delivered'}::text,
          ${outcome.attempts}::int, ${outcome.status}::int, ${outcome.ms}::int, ${outcome.error?.slice(0, 1_000) ?? null}::text,
          ${outcome.at}::timestamptz, ${outcome.next}::timestamptz, ${outcome.error ? null : outcome.at}::timestamptz)`,
    );
    await sql`update webhook_deliveries as d set status = v.status, attempts = v.attempts,
        response_status = v.response_status, response_ms = v.response_ms, error = v.error, last_attempt_at = v.at,
        next_attempt_at = v.next, delivered_at = v.delivered_at
      from (values ${sql.join(rows)}) as v(id, status, attempts, response_status, response_ms, error, at, next, delivered_at)
      where d.id = v.id`.execute(trx);
  }

  /** Messages put off (`sendUnlessUnanswered`): still pending, their attempts as they were, tried at `next`. */
  private async putOff(trx: Kysely<DB>, messages: readonly PutOff[]) {
    if (!messages.length) return;
    const rows = messages.map(
      (message) =>
        sql`(${message.id}::bigint, ${message.next ? 'pending' : 'failed'}::text, ${message.note.slice(0, 1_000)}::text, ${message.next}::timestamptz)`,
    );
    await sql`update webhook_deliveries as d set status = v.status, error = v.error, next_attempt_at = v.next
      from (values ${sql.join(rows)}) as v(id, status, error, next)
      where d.id = v.id`.execute(trx);
    const jobs = byDeliveryJob(messages.filter((message) => message.next)).map((part) => ({
      payload: { delivery_ids: part.map((message) => message.id) },
      runAt: new Date(Math.max(...part.map((message) => message.next!.getTime()))),
    }));
    await enqueueJobs(trx, WEBHOOK_DELIVERY_JOB, jobs, { maxAttempts: 3 });
  }

  /** The limit of messages in flight to one receiver (an origin: see originOf). */
  private inFlight(origin: string): LimitFunction {
    let limit = this.endpoints.get(origin);
    if (!limit) {
      limit = pLimit(IN_FLIGHT_PER_ENDPOINT);
      this.endpoints.set(origin, limit);
    }
    return limit;
  }

  /** When a message that failed `attempts` times is tried again; null once WEBHOOK_RETRY_HOURS have passed. */
  nextAttempt(attempts: number, firstAt: Date): Date | null {
    const { retrySeconds, retryHours } = this.ctx.config.webhooks;
    const delay = retrySeconds[Math.min(attempts - 1, retrySeconds.length - 1)] ?? 0;
    const at = new Date(Date.now() + delay * 1000);
    return at.getTime() <= firstAt.getTime() + retryHours * 3_600_000 ? at : null;
  }

  /**
   * Counts a webhook's attempts, in the order made: a success resets its failures, a failure adds one; true when
   * these took it to WEBHOOK_PAUSE_AFTER failures in a row (then it is paused).
   */
  private async count(trx: Kysely<DB>, webhookId: number, oks: readonly boolean[]): Promise<boolean> {
    const lastOk = oks.lastIndexOf(true);
    const added = oks.length - 1 - lastOk;
    const base = lastOk >= 0 ? sql<number>`0` : sql<number>`failures`;
    const { pauseAfter } = this.ctx.config.webhooks;
    const row = await trx
      .updateTable('webhooks')
      .set({
        failures: sql`${base} + ${added}`,
        paused_at: sql`case when paused_at is null and ${base} + ${added} >= ${pauseAfter} then now() else paused_at end`,
      })
      .where('id', '=', webhookId)
      .returning(['failures', 'paused_at'])
      .executeTakeFirst();
    const failures = Number(row?.failures);
    return Boolean(row?.paused_at) && failures >= pauseAfter && failures - added < pauseAfter;
  }

  private async tellOwnerOfPause(webhookId: number) {
    const webhook = await this.ctx.db
      .selectFrom('webhooks')
      .select(['id', 'name', 'owner_id', 'failures'])
      .where('id', '=', webhookId)
      .executeTakeFirstOrThrow();
    const owner = await loadAuthUser(this.ctx.db, webhook.owner_id);
    const notifications = this.ctx.resources.get('notifications');
    if (!owner || !notifications) return;
    await this.ctx.records.create(
      owner,
      notifications,
      {
        user_id: owner.id,
        title: `Webhook "${webhook.name}" paused`,
        body: `Its last ${webhook.failures} attempts failed, so no more messages are sent to it. Fix the receiver, then resume the webhook.`,
        link: '/webhooks',
      },
      { system: true },
    );
  }
}
