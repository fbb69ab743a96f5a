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

/** Whether the hub refused the event itself (a 4xx: a bad signature, too large): keeping it would not help. */
function refusedByHub(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/**
 * Publishing to an outside hub (the standalone hub, Soketi, Pusher) without losing what is published while it is away
 * (docs/realtime.md "When the hub is away"). An event the hub does not take (no answer, a 5xx) is kept in the table
 * `realtime_outbox`; from then on this process keeps every event there, behind it, until the outbox is empty again, so
 * they leave in order. One process at a time sends the outbox (an advisory lock), oldest first, each event deleted once
 * the hub took it; it tries again with a growing pause, at most two seconds apart, while the hub does not answer.
 */
export class OutboxPublisher implements Publisher {
  /** This process kept events not yet sent: new ones go behind them. */
  private backlog = false;
  /** Events this process kept so far: a send that found the outbox empty while more were kept sends again. */
  private kept = 0;
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private pause = FIRST_TRY_MS;
  private closed = false;

  constructor(
    private readonly hub: Publisher & { reachable(): Promise<boolean> },
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  async publish(message: RelayMessage): Promise<void> {
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
      }
    }
    this.backlog = true;
    await sql`insert into realtime_outbox (message) values (${JSON.stringify(message)})`.execute(this.database.db);
    this.kept++;
    this.sendAfter(0);
  }

  /** Whether the hub answers now (asked at each metrics scrape); false while events wait for it. */
  async hubUp(): Promise<boolean> {
    return !this.backlog && (await this.hub.reachable());
  }

  /** Events waiting in the outbox, every process's. */
  async waiting(): Promise<number> {
    const { rows } = await sql<{ count: number }>`select count(*)::int as count from realtime_outbox`.execute(
      this.database.db,
    );
    return Number(rows[0]?.count ?? 0);
  }

  /** Sends what waits, if anything (at start: a process may have stopped with events kept). */
  resume(): void {
    this.backlog = true;
    this.sendAfter(0);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** One send at a time; another is scheduled after it while events wait. */
  private sendAfter(ms: number) {
    if (this.closed || this.timer || this.sending) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sending = this.send().finally(() => {
        this.sending = null;
        if (this.backlog) this.sendAfter(this.pause);
      });
    }, ms);
    this.timer.unref();
  }

  private async send(): Promise<void> {
    const keptBefore = this.kept;
    let outcome: 'empty' | 'hub down' | 'busy';
    try {
      outcome = (await this.database.exclusivelyIfFree(OUTBOX_LOCK, () => this.sendAll())) ?? 'busy';
    } catch (error) {
      this.log.warn({ err: error }, 'realtime: could not send the outbox');
      outcome = 'hub down';
    }
    if (outcome === 'empty') {
      // Empty: back to publishing directly, unless this process kept another event meanwhile (send that one now).
      this.pause = 0;
      if (this.kept === keptBefore) {
        this.backlog = false;
        this.pause = FIRST_TRY_MS;
      }
      return;
    }
    // The hub still does not answer, or another process is sending (this one's events too): look again later.
    this.pause = Math.min(Math.max(this.pause, FIRST_TRY_MS / 2) * 2, LONGEST_TRY_GAP_MS);
  }

  /** Sends the outbox oldest first until it is empty or the hub stops answering. */
  private async sendAll(): Promise<'empty' | 'hub down'> {
    const db = this.database.db;
    const expired = await sql`delete from realtime_outbox where created_at < now() - ${KEPT_AT_MOST}::interval`.execute(
      db,
    );
    const dropped = Number(expired.numAffectedRows ?? 0);
    if (dropped) this.log.warn({ dropped }, `realtime: events older than ${KEPT_AT_MOST} were dropped unsent`);
    let sent = 0;
    for (;;) {
      const { rows } = await sql<{
        id: number;
        message: string;
      }>`select id, message from realtime_outbox order by id limit ${BATCH}`.execute(db);
      if (!rows.length) {
        if (sent) this.log.info({ sent }, 'realtime: the hub answers again; the events kept meanwhile were sent');
        return 'empty';
      }
      for (const row of rows) {
        try {
          await this.hub.publish(JSON.parse(row.message));
        } catch (error) {
          if (!refusedByHub(error)) return 'hub down';
          this.log.error({ err: error }, 'realtime: the hub refused a kept event; it is dropped');
        }
        await sql`delete from realtime_outbox where id = ${row.id}`.execute(db);
        sent++;
      }
    }
  }
}
