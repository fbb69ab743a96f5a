import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import pLimit, { type LimitFunction } from 'p-limit';
import type { AppContext } from '../app-context.js';
import { loadAuthUser } from '../auth/load-user.js';
import type { DB } from '../db/schema.generated.js';
import { enqueueJob } from '../jobs/queue.js';
import type { JobContext } from '../jobs/worker.js';
import { OutboundAddresses, postJson } from './outbound.js';
import { signedHeaders } from './signing.js';

export const WEBHOOK_DELIVERY_JOB = 'webhook-delivery';
/** Messages a worker claims at once and sends side by side (JobHandlerOptions.together). */
export const DELIVERIES_TOGETHER = 16;
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
    const messageId = `msg_${randomUUID().replace(/-/g, '')}`;
    const payload = { type: delivery.event, timestamp: new Date().toISOString(), data: delivery.data };
    const row = await db
      .insertInto('webhook_deliveries')
      .values({
        webhook_id: delivery.webhookId ?? null,
        automation_id: delivery.automationId ?? null,
        automation_run_id: delivery.automationRunId ?? null,
        message_id: messageId,
        event: delivery.event,
        url: delivery.url,
        payload: JSON.stringify(payload),
        next_attempt_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueueJob(db, WEBHOOK_DELIVERY_JOB, { delivery_id: Number(row.id) }, { maxAttempts: 3 });
    setImmediate(this.wake);
    return Number(row.id);
  }

  /** Queues the job of a message held back (its webhook was paused) to be tried now. */
  async requeue(db: Kysely<DB>, deliveryId: number) {
    await enqueueJob(db, WEBHOOK_DELIVERY_JOB, { delivery_id: deliveryId }, { maxAttempts: 3 });
    setImmediate(this.wake);
  }

  /** The job: one attempt at a message, and the next one queued if it failed and time remains. */
  async attempt(deliveryId: number, job: JobContext): Promise<void> {
    const db: Kysely<DB> = this.ctx.db;
    const delivery = await db
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
      .where('d.id', '=', deliveryId)
      .executeTakeFirst();
    if (delivery?.status !== 'pending' || !delivery.secret) return;
    if (delivery.webhook_id && (delivery.paused_at || delivery.webhook_deleted_at)) {
      await db.updateTable('webhook_deliveries').set({ status: 'paused' }).where('id', '=', deliveryId).execute();
      return;
    }
    const body = JSON.stringify(delivery.payload);
    const headers = signedHeaders(delivery.secret, delivery.message_id, Math.floor(Date.now() / 1000), body);
    const { timeoutSeconds } = this.ctx.config.webhooks;
    let outcome: { status: number | null; ms: number | null; error: string | null };
    try {
      const answer = await this.inFlight(delivery.url)(() =>
        postJson(delivery.url, body, headers, this.addresses, timeoutSeconds * 1000),
      );
      const ok = answer.status >= 200 && answer.status < 300;
      outcome = { ...answer, error: ok ? null : `The receiver answered ${answer.status}.` };
    } catch (error) {
      outcome = { status: null, ms: null, error: error instanceof Error ? error.message : String(error) };
    }
    const attempts = Number(delivery.attempts) + 1;
    const next = outcome.error ? this.nextAttempt(attempts, new Date(delivery.created_at)) : null;
    let paused = false;
    await db.transaction().execute(async (trx) => {
      await job.holdClaim(trx);
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status: outcome.error ? (next ? 'pending' : 'failed') : 'delivered',
          attempts,
          response_status: outcome.status,
          response_ms: outcome.ms,
          error: outcome.error?.slice(0, 1_000) ?? null,
          last_attempt_at: new Date(),
          next_attempt_at: next,
          delivered_at: outcome.error ? null : new Date(),
        })
        .where('id', '=', deliveryId)
        .execute();
      if (next)
        await enqueueJob(trx, WEBHOOK_DELIVERY_JOB, { delivery_id: deliveryId }, { runAt: next, maxAttempts: 3 });
      if (delivery.webhook_id) paused = await this.count(trx, delivery.webhook_id, !outcome.error);
    });
    if (paused && delivery.webhook_id) {
      this.onPaused();
      await this.tellOwnerOfPause(delivery.webhook_id);
    }
  }

  /** The limit of messages in flight to the URL's receiver (an unreadable URL is refused by postJson itself). */
  private inFlight(url: string): LimitFunction {
    const origin = URL.canParse(url) ? new URL(url).origin : url;
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

  /** Counts a webhook's attempt: a success resets its failures, a failure adds one; true when this one paused it. */
  private async count(trx: Kysely<DB>, webhookId: number, ok: boolean): Promise<boolean> {
    if (ok) {
      await trx.updateTable('webhooks').set({ failures: 0 }).where('id', '=', webhookId).execute();
      return false;
    }
    const row = await trx
      .updateTable('webhooks')
      .set({
        failures: sql`failures + 1`,
        paused_at: sql`case when paused_at is null and failures + 1 >= ${this.ctx.config.webhooks.pauseAfter} then now() else paused_at end`,
      })
      .where('id', '=', webhookId)
      .returning(['failures', 'paused_at'])
      .executeTakeFirst();
    return Boolean(row?.paused_at) && Number(row?.failures) === this.ctx.config.webhooks.pauseAfter;
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
        link: `/webhooks/${webhook.id}/show`,
      },
      { system: true },
    );
  }
}
