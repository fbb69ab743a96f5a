import { isConnectionLost } from './connection-errors.js';

/** Probes after a loss: the first soon, then less often, never more than a second apart, so a return is seen at once. */
const FIRST_PROBE_MS = 100;
const LONGEST_PROBE_GAP_MS = 1_000;

export type HealthListener = (up: boolean, reason: string | null) => void;

/**
 * Whether the database answers, as this process last found it. Any part that loses a connection reports the error
 * (`report`); one that says the server is gone marks the database down, and from then on a fresh connection is tried
 * (`probe`) with a growing pause until one answers, when it is marked up again. Listeners hear each change: the job
 * worker pauses and resumes, the LISTEN connection is made again, read caches empty themselves, /api/ready answers
 * 503 meanwhile. The embedded database is in the process (`DatabaseHealth.inProcess()`): errors never take it down,
 * only its thread stopping does, until the thread has started again (`stopped`, `started`).
 */
export class DatabaseHealth {
  private isUp = true;
  private closed = false;
  private since = Date.now();
  private lastReason: string | null = null;
  private readonly listeners = new Set<HealthListener>();

  constructor(private readonly probe: (() => Promise<void>) | null) {}

  static inProcess(): DatabaseHealth {
    return new DatabaseHealth(null);
  }

  get up(): boolean {
    return this.isUp;
  }

  /** Why the database was last taken for down (the driver's message), null while up. */
  get reason(): string | null {
    return this.isUp ? null : this.lastReason;
  }

  /** Milliseconds since the last change (or since opening). */
  get forMs(): number {
    return Date.now() - this.since;
  }

  onChange(listener: HealthListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** A connection or statement failed: when the error says the server is gone, the database is down until a probe answers. */
  report(error: unknown): void {
    if (!this.probe || this.closed || !this.isUp || !isConnectionLost(error)) return;
    this.lastReason = error instanceof Error ? error.message : String(error);
    this.change(false);
    void this.probeUntilUp();
  }

  /** The embedded database's thread stopped: down until it has started again (no probe: its owner says when). */
  stopped(reason: string): void {
    if (this.closed || !this.isUp) return;
    this.lastReason = reason;
    this.change(false);
  }

  started(): void {
    if (this.closed || this.isUp) return;
    this.change(true);
  }

  close(): void {
    this.closed = true;
    this.listeners.clear();
  }

  private change(up: boolean) {
    this.isUp = up;
    this.since = Date.now();
    for (const listener of [...this.listeners]) {
      try {
        listener(up, this.lastReason);
      } catch (error) {
        console.error('A database health listener failed:', error);
      }
    }
  }

  private async probeUntilUp(): Promise<void> {
    let pause = FIRST_PROBE_MS;
    while (!this.closed) {
      await new Promise((resolve) => setTimeout(resolve, pause).unref());
      if (this.closed) return;
      try {
        await this.probe!();
        this.change(true);
        return;
      } catch (error) {
        this.lastReason = error instanceof Error ? error.message : String(error);
        pause = Math.min(pause * 2, LONGEST_PROBE_GAP_MS);
      }
    }
  }
}
