import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import type { RelayMessage } from './process-relay.js';
import type { Publisher } from './pusher-api-publisher.js';

/** The advisory lock of the one process sending the outbox at a time: any fixed number no other code uses. */
const OUTBOX_LOCK = 7_240_114_002;
/** Tries to send the outbox: soon after a failure, then less often, never more than two seconds apart. */
const FIRST_TRY_MS = 200;
const LONGEST_TRY_GAP_MS = 2_000;
/** Events kept longer than this are dropped unsent: the browsers have long since reconnected and fetched again. */
const KEPT_AT_MOST = '10 minutes';
const BATCH = 100;
/**
 * For this long after the outbox emptied, a process looks before publishing directly: another process may just have
 * kept an event (it had not heard yet that the outbox was empty), and a later event must not overtake it.
 */
const LOOK_FIRST_MS = 10_000;

/** Whether the hub refused the event itself (a 4xx: a bad signature, too large): keeping it would not help. */
function refusedByHub(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** NOTIFY channel of the outbox: `kept` (a process keeps events: every process keeps its own behind them) and
 * `sent:<id>` (the outbox was sent up to that row and found empty). */
const OUTBOX_CHANNEL = 'om_realtime_outbox';

/**
 * Publishing to an outside hub (the standalone hub, Soketi, Pusher) without losing what is published while it is away
 * (docs/realtime.md "When the hub is away"). An event the hub does not take (no answer, a 5xx) is kept in the table
 * `realtime_outbox`, and the process says so to the others: from then on every process keeps its events there too,
 * behind it, until the outbox is empty again, so they leave in the order they were kept. One process at a time sends
 * the outbox (an advisory lock), oldest first, each event deleted once the hub took it, trying again with a growing
 * pause (at most two seconds) while the hub does not answer; the one that finds it empty tells the others, which then
 * publish directly again once every event they kept has left (looking first, for a while, that no other process has
 * just kept one).
 */
export class OutboxPublisher implements Publisher {
  /** Events go to the outbox, behind those kept before. */
  private backlog = false;
  /** The last row this process kept: it publishes directly again once the outbox was sent past it. */
  private lastKeptId = 0;
  /** Events this process kept so far: a send that found the outbox empty while more were kept sends again. */
  private kept = 0;
  /**
   * This process kept an event not yet known to have left. Its sends go on until one has, also after it stopped
   * keeping: a notice that the outbox is empty may come while its event is being kept, and another process may be
   * sending at that moment (the lock busy), which would otherwise leave the event there unsent.
   */
  private unsent = false;
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private sendAgain = false;
  private pause = FIRST_TRY_MS;
  private closed = false;
  /** Until then, look whether the outbox holds events before publishing directly (LOOK_FIRST_MS). */
  private lookFirstUntil = 0;

  constructor(
    private readonly hub: Publisher & { reachable(): Promise<boolean> },
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Listens to the other processes, and sends what a process that stopped may have left in the outbox (events
   * published meanwhile go behind it: LOOK_FIRST_MS).
   */
  async start(): Promise<void> {
    await this.database.listen(OUTBOX_CHANNEL, (payload) => {
      if (payload === 'kept') this.backlog = true;
      const sent = /^sent:(\d+)$/.exec(payload);
      if (sent && this.lastKeptId <= Number(sent[1])) {
        this.leaveBacklog();
        this.unsent = false;
      }
    });
    this.lookFirstUntil = Date.now() + LOOK_FIRST_MS;
    this.sendSoon(0);
  }

  async publish(message: RelayMessage): Promise<void> {
    if (!this.backlog && Date.now() < this.lookFirstUntil && (await this.waiting().catch(() => 0)) > 0)
      this.backlog = true;
    if (!this.backlog) {
      try {
        await this.hub.publish(message);
        return;
      } catch (error) {
        if (refusedByHub(error)) throw error;
        this.log.warn(
          { err: error },
          'realtime: the hub does not answer; events wait in the outbox and are sent when it does',
        );
        this.backlog = true;
        await this.database.notify(OUTBOX_CHANNEL, 'kept').catch(() => {});
      }
    }
    const { rows } = await sql<{
      id: number;
    }>`insert into realtime_outbox (message) values (${JSON.stringify(message)}) returning id`.execute(
      this.database.db,
    );
    this.lastKeptId = Math.max(this.lastKeptId, Number(rows[0]!.id));
    this.kept++;
    this.unsent = true;
    this.sendSoon(0);
  }

  /** Whether the hub answers now (asked at each metrics scrape). */
  hubUp(): Promise<boolean> {
    return this.hub.reachable();
  }

  /** Whether this process's events go to the outbox now (behind events kept before). */
  get keeping(): boolean {
    return this.backlog;
  }

  /** Events waiting in the outbox, every process's. */
  async waiting(): Promise<number> {
    const { rows } = await sql<{ count: number }>`select count(*)::int as count from realtime_outbox`.execute(
      this.database.db,
    );
    return Number(rows[0]?.count ?? 0);
  }

  private leaveBacklog() {
    if (this.backlog) this.lookFirstUntil = Date.now() + LOOK_FIRST_MS;
    this.backlog = false;
  }

  /** Stops sending (after the event in hand) and waits for the send under way. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.sending;
  }

  /** One send at a time; `ms` 0 sends now (or right after the send under way), else after that pause. */
  private sendSoon(ms: number) {
    if (this.closed) return;
    if (this.sending) {
      if (ms === 0) this.sendAgain = true;
      return;
    }
    if (this.timer) {
      if (ms > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sending = this.send().finally(() => {
        this.sending = null;
        const again = this.sendAgain;
        this.sendAgain = false;
        if (this.backlog || this.unsent) this.sendSoon(again ? 0 : this.pause);
      });
    }, ms);
    this.timer.unref();
  }

  private async send(): Promise<void> {
    const keptBefore = this.kept;
    let result: { outcome: 'empty' | 'hub down'; lastId: number } | null;
    try {
      result = await this.database.exclusivelyIfFree(OUTBOX_LOCK, () => this.sendAll());
    } catch (error) {
      this.log.warn({ err: error }, 'realtime: could not send the outbox');
      result = { outcome: 'hub down', lastId: 0 };
    }
    if (result?.outcome === 'empty') {
      this.pause = FIRST_TRY_MS;
      // Kept another meanwhile: it is sent at once (sendSoon). Otherwise every event this process kept has left.
      if (this.kept === keptBefore) {
        this.leaveBacklog();
        this.unsent = false;
      } else this.sendAgain = true;
      if (result.lastId) await this.database.notify(OUTBOX_CHANNEL, `sent:${result.lastId}`).catch(() => {});
      return;
    }
    // The hub still does not answer, or another process is sending (this one's events too): look again later.
    this.pause = Math.min(this.pause * 2, LONGEST_TRY_GAP_MS);
  }

  /** Sends the outbox oldest first until it is empty or the hub stops answering; `lastId`: the last row sent. */
  private async sendAll(): Promise<{ outcome: 'empty' | 'hub down'; lastId: number }> {
    const db = this.database.db;
    const expired = await sql`delete from realtime_outbox where created_at < now() - ${KEPT_AT_MOST}::interval`.execute(
      db,
    );
    const dropped = Number(expired.numAffectedRows ?? 0);
    if (dropped) this.log.warn({ dropped }, `realtime: events older than ${KEPT_AT_MOST} were dropped unsent`);
    let lastId = 0;
    while (!this.closed) {
      const { rows } = await sql<{
        id: number;
        message: string;
      }>`select id, message from realtime_outbox order by id limit ${BATCH}`.execute(db);
      if (!rows.length) {
        if (lastId) this.log.info({ lastId }, 'realtime: the hub answers again; the events kept meanwhile were sent');
        return { outcome: 'empty', lastId };
      }
      for (const row of rows) {
        try {
          await this.hub.publish(JSON.parse(row.message));
        } catch (error) {
          if (!refusedByHub(error)) return { outcome: 'hub down', lastId };
          this.log.error({ err: error }, 'realtime: the hub refused a kept event; it is dropped');
        }
        await sql`delete from realtime_outbox where id = ${row.id}`.execute(db);
        lastId = Number(row.id);
        if (this.closed) break;
      }
    }
    return { outcome: 'hub down', lastId };
  }
}
