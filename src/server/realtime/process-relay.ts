import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../db/database.js';

/** One event on its way to the sockets of every server process. `data` is already the protocol's JSON string. */
export interface RelayMessage {
  channels: string[];
  event: string;
  data: string;
  /** Socket that caused the event and should not get it back (Laravel's `toOthers()`, client events). */
  except?: string;
  /** Sender of a client event on a presence channel, passed on as the frame's `user_id`. */
  userId?: string;
}

const NOTIFY_CHANNEL = 'realtime_events';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; keep a margin. */
const NOTIFY_LIMIT_BYTES = 7900;
/** Spilled payloads only need to live until every listener has read them. */
const SPILL_RETENTION = '10 minutes';

/**
 * Carries events between server processes over LISTEN/NOTIFY on one channel. Every process, the sender
 * included, hears each event and hands it to its own sockets, so there is one delivery path whether one
 * process runs or ten. A payload too big for NOTIFY is stored in `realtime_payloads` and only its row id is
 * notified, so large events arrive whole rather than trimmed. On PGlite, NOTIFY is in-process and has no
 * size limit, so nothing is stored.
 */
export class ProcessRelay {
  private closed = false;
  /** Delivery is serialised so a large event that needs a lookup does not overtake a later small one. */
  private queue: Promise<void> = Promise.resolve();
  private spillTable: Promise<void> | undefined;

  private constructor(
    private readonly database: Database,
    private readonly deliver: (message: RelayMessage) => void,
    private readonly log: FastifyBaseLogger,
  ) {}

  static async start(
    database: Database,
    deliver: (message: RelayMessage) => void,
    log: FastifyBaseLogger,
  ): Promise<ProcessRelay> {
    const relay = new ProcessRelay(database, deliver, log);
    await database.listen(NOTIFY_CHANNEL, (payload) => relay.receive(payload));
    return relay;
  }

  async publish(message: RelayMessage): Promise<void> {
    const payload = JSON.stringify(message);
    if (this.database.kind !== 'postgres' || Buffer.byteLength(payload) <= NOTIFY_LIMIT_BYTES) {
      await this.database.notify(NOTIFY_CHANNEL, payload);
      return;
    }
    const ref = await this.spill(payload);
    await this.database.notify(NOTIFY_CHANNEL, JSON.stringify({ ref }));
  }

  /** Database.listen has no way to stop listening; a closed relay just stops delivering. */
  close(): void {
    this.closed = true;
  }

  private receive(payload: string): void {
    if (this.closed) return;
    this.queue = this.queue
      .then(async () => {
        const message = await this.read(payload);
        if (message && !this.closed) this.deliver(message);
      })
      .catch((error) => this.log.error({ err: error }, 'realtime: could not deliver an event'));
  }

  private async read(payload: string): Promise<RelayMessage | null> {
    let message = JSON.parse(payload);
    if (typeof message?.ref === 'number') {
      const { rows } = await sql<{
        payload: string;
      }>`select payload from realtime_payloads where id = ${message.ref}`.execute(this.database.db);
      if (!rows[0]) throw new Error(`realtime: stored event ${message.ref} is gone`);
      message = JSON.parse(rows[0].payload);
    }
    const valid =
      Array.isArray(message?.channels) && typeof message.event === 'string' && typeof message.data === 'string';
    return valid ? (message as RelayMessage) : null;
  }

  private async spill(payload: string): Promise<number> {
    const db = this.database.db;
    this.spillTable ??= createSpillTable(this.database).catch((error) => {
      this.spillTable = undefined;
      throw error;
    });
    await this.spillTable;
    await sql`delete from realtime_payloads where created_at < now() - ${SPILL_RETENTION}::interval`.execute(db);
    const { rows } = await sql<{
      id: number;
    }>`insert into realtime_payloads (payload) values (${payload}) returning id`.execute(db);
    return Number(rows[0]!.id);
  }
}

/**
 * Made on first use rather than by a migration: it is a scratch table of this module alone. Two processes
 * creating it at the same moment can trip over each other's catalog rows; the loser finds it made.
 */
async function createSpillTable(database: Database): Promise<void> {
  const create = sql`create table if not exists realtime_payloads (
    id bigserial primary key,
    payload text not null,
    created_at timestamptz not null default now()
  )`;
  try {
    await create.execute(database.db);
  } catch (error: any) {
    if (error?.code !== '23505' && error?.code !== '42P07') throw error;
  }
}
