import { sql } from 'kysely';
import type { MessageChannel } from '../../common/messages.js';
import type { AppContext } from '../app-context.js';
import type { JobContext } from '../jobs/worker.js';
import { hasProvider, MESSAGES_JOB, noProviderDetail } from './message-service.js';
import { SmsRefused, sendSms } from './sms-provider.js';

const CHANNELS: MessageChannel[] = ['sms', 'email'];
/** Copies taken at once (within the rate): small, so a stopping process gives back little. */
const BATCH = 20;
/** A copy left `sending` this long was being sent by a process that stopped: it is queued again. */
const STALE_SENDING_MINUTES = 5;
const MAX_ATTEMPTS = 3;
/** Any number: the transaction-level lock that makes two processes take turns counting the minute's rate. */
const RATE_LOCK = 7_036_001;

interface Copy {
  id: number;
  channel: MessageChannel;
  address: string;
  subject: string | null;
  body: string;
  attempts: number;
}

/**
 * The job that sends the queued copies (docs/messages.md): at most MESSAGES_PER_MINUTE a channel over any minute,
 * none before its `send_after` (quiet hours), none to an address that opted out since it was queued. When it stops
 * with copies still waiting (the rate, quiet hours), it queues itself for when the next one may go. A copy is taken
 * (`sending`) before it is sent and marked after, so a process killed mid-send leaves it to be sent again after
 * STALE_SENDING_MINUTES: at least once, never lost.
 */
export class MessageSender {
  constructor(private readonly ctx: AppContext) {}

  async run(job: JobContext): Promise<void> {
    await this.ctx.db
      .updateTable('messages')
      .set({ status: 'queued' })
      .where('status', '=', 'sending')
      .where('attempted_at', '<', new Date(Date.now() - STALE_SENDING_MINUTES * 60_000))
      .execute();
    for (const channel of CHANNELS) {
      while (!job.stopping) {
        const copies = await this.take(channel);
        if (!copies.length) break;
        for (const copy of copies) await this.deliver(copy);
        await job.heartbeat();
      }
    }
    await this.scheduleNext();
  }

  /** The next due copies of `channel` the minute's rate allows, marked `sending`. */
  private take(channel: MessageChannel): Promise<Copy[]> {
    const perMinute = this.ctx.config.messages.perMinute;
    return this.ctx.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${RATE_LOCK})`.execute(trx);
      // The minute's count, from the database so that it holds across restarts and processes: copies the provider
      // answered within the last minute (`attempted_at` is set when it answers, so never before the text reached it),
      // and every copy still out (`sending`), by this process or by one that stopped mid-send.
      const counted = await sql<{ count: number }>`select
          (select count(*) from messages where channel = ${channel} and status = 'sending')
          + (select count(*) from messages where channel = ${channel} and status <> 'sending'
              and attempted_at > now() - interval '1 minute') as count`.execute(trx);
      const room = Math.min(BATCH, perMinute - Number(counted.rows[0]?.count ?? 0));
      if (room <= 0) return [];
      const rows = await sql<Copy>`update messages set status = 'sending', attempted_at = now(), attempts = attempts + 1
        where id in (
          select id from messages
          where status = 'queued' and channel = ${channel} and send_after <= now()
          order by send_after, id
          limit ${room}
          for update skip locked
        )
        returning id, channel, address, subject, body, attempts`.execute(trx);
      return rows.rows.map((row) => ({ ...row, id: Number(row.id) }));
    });
  }

  private async deliver(copy: Copy): Promise<void> {
    const optedOut = await this.ctx.db
      .selectFrom('message_opt_outs')
      .select('reason')
      .where('channel', '=', copy.channel)
      .where('address', '=', copy.address)
      .executeTakeFirst();
    if (optedOut) return this.mark(copy.id, { status: 'opted_out', detail: optedOut.reason }, false);
    if (!hasProvider(this.ctx.config, copy.channel))
      return this.mark(copy.id, { status: 'not_sent', detail: noProviderDetail(copy.channel) }, false);
    const sms = this.ctx.config.messages.sms;
    try {
      if (copy.channel === 'sms') {
        const providerId = await sendSms(sms!, copy.address, copy.body);
        return this.mark(copy.id, { status: 'sent', detail: null, provider_id: providerId || null });
      }
      await this.ctx.sendMail({ to: copy.address, subject: copy.subject ?? '', text: copy.body });
      return this.mark(copy.id, { status: 'sent', detail: null });
    } catch (error) {
      const retry = !(error instanceof SmsRefused) || error.retry;
      const detail = (error as Error).message.slice(0, 500);
      if (retry && copy.attempts < MAX_ATTEMPTS)
        return this.mark(copy.id, {
          status: 'queued',
          detail,
          send_after: new Date(Date.now() + copy.attempts * 60_000),
        });
      return this.mark(copy.id, { status: 'failed', detail });
    }
  }

  /**
   * Records how a copy's attempt ended. One that went to the provider takes the time it answered as `attempted_at`,
   * which the rate counts; one that never left (opted out, no provider) is no attempt and counts for nothing.
   */
  private async mark(
    id: number,
    values: { status: string; detail: string | null; provider_id?: string | null; send_after?: Date },
    wentOut = true,
  ): Promise<void> {
    await this.ctx.db
      .updateTable('messages')
      .set({ ...values, attempted_at: wentOut ? sql<Date>`now()` : null })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Queues this job again for when the next copy may go: the end of a rate's minute, or the first `send_after` to
   * come; nothing when nothing waits or a run is already queued by then.
   */
  private async scheduleNext(): Promise<void> {
    const { next } = await this.ctx.db
      .selectFrom('messages')
      .select(sql<Date | null>`min(greatest(send_after, now() + interval '1 second'))`.as('next'))
      .where('status', '=', 'queued')
      .executeTakeFirstOrThrow();
    if (!next) return;
    // Due now but not taken: the minute's rate is used up, and room comes back within seconds as the minute moves on.
    const waitsForRate = new Date(next).getTime() <= Date.now() + 1_000;
    const runAt = waitsForRate ? new Date(Date.now() + 5_000) : new Date(next);
    await sql`insert into jobs (type, payload, run_at)
      select ${MESSAGES_JOB}, '{}'::jsonb, ${runAt}
      where not exists (select 1 from jobs where type = ${MESSAGES_JOB} and status = 'queued' and run_at <= ${runAt})`.execute(
      this.ctx.db,
    );
  }
}
