/**
 * The process's way out (main.ts, on SIGTERM): `drain()` starts it. From then on /api/ready answers 503 so the
 * balancer stops sending work here, answers ask their clients to close the connection, and the job worker gives its
 * job back for another process; requests are still served until main.ts closes the app after SHUTDOWN_DRAIN_SECONDS.
 * Closing the app without a drain (tests) drains first too (system-routes.ts preClose).
 */
export class Lifecycle {
  private drainStarted: Promise<void> | null = null;
  private readonly hooks: Array<() => Promise<void> | void> = [];

  get draining(): boolean {
    return this.drainStarted !== null;
  }

  /** `hook` runs when the drain starts (the job worker stops claiming and lets its job go). */
  onDrain(hook: () => Promise<void> | void): void {
    this.hooks.push(hook);
  }

  /** Starts the drain; resolves once every hook has finished. Safe to call twice. */
  drain(): Promise<void> {
    this.drainStarted ??= Promise.allSettled(this.hooks.map(async (hook) => hook())).then(() => {});
    return this.drainStarted;
  }
}
