import type pg from 'pg';
import type { DatabaseHealth } from './database-health.js';

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 5_000;

/**
 * The one connection of a process that LISTENs (PostgreSQL), outside the pool: a pooled connection goes back to the
 * pool and would stop hearing. When it is lost (the server restarted, the network dropped) it is made again with a
 * growing pause, and at once when the database is found up again; every channel is listened to again, and the
 * `onMissed` listeners hear that notifications sent meanwhile never arrived (the schema cache empties itself, the
 * realtime hub tells its browsers to reconnect and fetch again).
 */
export class PostgresListener {
  private client: pg.Client | null = null;
  private opening: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private pause = FIRST_RETRY_MS;
  private lost = false;
  private closed = false;
  private readonly channels = new Map<string, Array<(payload: string) => void>>();
  private readonly missed = new Set<() => void>();
  private readonly stopWatching: () => void;

  constructor(
    private readonly newClient: () => pg.Client,
    private readonly quote: (identifier: string) => string,
    private readonly health: DatabaseHealth,
  ) {
    this.stopWatching = health.onChange((up) => {
      if (up && this.lost) this.reconnectSoon(0);
    });
  }

  /** Whether the LISTEN connection is open now. */
  get connected(): boolean {
    return this.client !== null;
  }

  async listen(channel: string, listener: (payload: string) => void): Promise<void> {
    const known = this.channels.get(channel);
    if (known) {
      known.push(listener);
      return;
    }
    this.channels.set(channel, [listener]);
    if (this.lost) return; // listened to once the connection is back
    await this.open();
    await this.client?.query(`LISTEN ${this.quote(channel)}`);
  }

  onMissed(listener: () => void): () => void {
    this.missed.add(listener);
    return () => {
      this.missed.delete(listener);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopWatching();
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private open(): Promise<void> {
    if (this.client) return Promise.resolve();
    this.opening ??= this.connect().finally(() => {
      this.opening = null;
    });
    return this.opening;
  }

  private async connect(): Promise<void> {
    const client = this.newClient();
    // Without a listener an 'error' on this connection would end the process.
    client.on('error', (error) => this.drop(client, error));
    client.on('end', () => this.drop(client, new Error('Connection terminated unexpectedly')));
    client.on('notification', (message) => {
      for (const listener of this.channels.get(message.channel) ?? []) listener(message.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${this.quote(channel)}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
  }

  private drop(client: pg.Client, error: unknown) {
    // A client still connecting reports its failure to whoever opened it; one already replaced is forgotten.
    if (this.closed || this.client !== client) return;
    this.client = null;
    this.health.report(error);
    if (!this.lost) {
      this.lost = true;
      this.reconnectSoon(FIRST_RETRY_MS);
    }
  }

  private reconnectSoon(ms: number) {
    if (this.closed) return;
    if (this.retry) clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.reconnect();
    }, ms);
    this.retry.unref();
  }

  private async reconnect() {
    try {
      await this.open();
    } catch (error) {
      this.health.report(error);
      this.pause = Math.min(this.pause * 2, LONGEST_RETRY_MS);
      this.reconnectSoon(this.pause);
      return;
    }
    if (this.closed || !this.client) return;
    this.lost = false;
    this.pause = FIRST_RETRY_MS;
    for (const listener of [...this.missed]) {
      try {
        listener();
      } catch (error) {
        console.error('A listener of missed notifications failed:', error);
      }
    }
  }
}
