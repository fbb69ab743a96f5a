import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { sameSecret } from '../auth/same-secret.js';
import { messageAnswer, noQuery } from '../http/contracts.js';
import { jobCounts, jobQueueLag } from '../jobs/queue.js';

/**
 * `GET /metrics` in the Prometheus text format, for the operator's scraper (docs/operations.md): requests and their
 * latency by route, whether the database answers, jobs waiting, running and failed by type, the queue's depth and lag,
 * browsers connected to this process, whether the realtime hub takes events and how many wait in the outbox for it,
 * the database pool, and the process's own figures (memory, event-loop lag, CPU). Off unless METRICS_TOKEN is set; the scraper sends it
 * as `Authorization: Bearer <token>`. Each process answers for itself: scrape every process.
 */
export function registerMetrics(app: FastifyInstance, ctx: AppContext) {
  const token = ctx.config.metricsToken;
  // Each app has a registry of its own: tests build many apps in one process.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method and route.',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // What needs the database is read with a fallback: while it is away the scrape still answers, database_up 0 first.
  const unknownWhileAway = async (read: () => Promise<void>, away: () => void) => {
    try {
      if (!ctx.database.health.up) throw new Error('The database does not answer.');
      await read();
    } catch {
      away();
    }
  };
  new Gauge({
    name: 'database_up',
    help: 'Whether the database answers this process (1) or not (0: requests that need it answer 503, jobs wait).',
    registers: [registry],
    collect() {
      this.set(ctx.database.health.up ? 1 : 0);
    },
  });
  new Gauge({
    name: 'jobs',
    help: 'Background jobs (imports, exports, undo) waiting, running and failed, by type.',
    labelNames: ['type', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      await unknownWhileAway(
        async () => {
          for (const row of await jobCounts(ctx.db)) this.set({ type: row.type, status: row.status }, row.count);
        },
        () => {},
      );
    },
  });
  // One query for both figures of a scrape.
  let queueAtScrape: ReturnType<typeof jobQueueLag> | null = null;
  const queue = () => (queueAtScrape ??= jobQueueLag(ctx.db));
  const queueGauges = [
    ['jobs_due', 'Jobs due to run now that no process has taken yet (the queue depth).', 'due'],
    [
      'jobs_lag_seconds',
      'How long the oldest job due to run has waited for a process (0 when none waits).',
      'lagSeconds',
    ],
  ] as const;
  for (const [name, help, figure] of queueGauges) {
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        await unknownWhileAway(
          async () => this.set((await queue())[figure]),
          () => this.set(Number.NaN),
        );
      },
    });
  }
  new Gauge({
    name: 'websocket_connections',
    help: 'Browsers connected to this process for live updates.',
    registers: [registry],
    collect() {
      this.set(ctx.realtime.connections());
    },
  });
  new Gauge({
    name: 'realtime_hub_up',
    help: 'Whether realtime events reach browsers now: the outside hub answers, or (embedded hub) this process hears the others.',
    registers: [registry],
    async collect() {
      this.set((await ctx.realtime.hubUp().catch(() => false)) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'realtime_outbox_events',
    help: 'Realtime events waiting in the database for the outside hub to answer, all processes together.',
    registers: [registry],
    async collect() {
      await unknownWhileAway(
        async () => this.set(await ctx.realtime.outboxEvents()),
        () => this.set(Number.NaN),
      );
    },
  });
  // Read as the scrape arrives, before its own queries (jobs, outbox) take connections from the pool.
  let poolAtScrape: ReturnType<NonNullable<typeof ctx.database.poolStats>> | null = null;
  const poolStats = ctx.database.poolStats;
  if (poolStats) {
    new Gauge({
      name: 'database_pool_connections',
      help: 'PostgreSQL connections of this process, by state: open, idle, requests waiting for one, and max (the pool size).',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = poolAtScrape ?? poolStats();
        this.set({ state: 'max' }, stats.max);
        this.set({ state: 'open' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }

  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern (/api/sites/:id), never the path, so the number of series stays bounded.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    const labels = { method: request.method, route };
    requests.inc({ ...labels, status: String(reply.statusCode) });
    latency.observe(labels, reply.elapsedTime / 1000);
  });

  app.get(
    '/metrics',
    {
      schema: {
        querystring: noQuery,
        response: {
          200: { description: 'Prometheus text format.', content: { 'text/plain': { schema: z.string() } } },
          401: messageAnswer,
          404: messageAnswer,
        },
      },
      config: { permission: 'public' },
    },
    async (request, reply) => {
      if (!token) return reply.status(404).send({ message: 'Metrics are off: set METRICS_TOKEN to turn them on.' });
      if (!sameSecret(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '', token))
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer')
          .send({ message: 'Send the metrics token as a bearer token.' });
      poolAtScrape = poolStats?.() ?? null;
      queueAtScrape = null;
      reply.type(registry.contentType);
      return registry.metrics();
    },
  );
}
