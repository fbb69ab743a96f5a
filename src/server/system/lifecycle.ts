import type { FastifyInstance } from 'fastify';

/**
 * The process's way out (main.ts, on SIGTERM): `drain()` starts it. From then on /api/ready answers 503 so the
 * balancer stops sending work here, answers ask their clients to close the connection, and the job worker gives its
 * job back for another process; requests are still served until main.ts closes the app after SHUTDOWN_DRAIN_SECONDS.
 * Closing the app without a drain (tests) drains first too (`registerDrain`).
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

/**
 * The drain's part in the HTTP server, registered before anything else: closing the app drains first (its first
 * preClose hook, so /api/ready says 503 before any other hook runs), and while draining every answer asks the client to
 * close its connection, so a balancer's kept connections to this process are gone before it stops listening.
 */
export function registerDrain(app: FastifyInstance, lifecycle: Lifecycle) {
  app.addHook('preClose', async () => {
    void lifecycle.drain();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (lifecycle.draining) reply.header('connection', 'close');
  });
}
