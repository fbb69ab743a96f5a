import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import { sameSecret } from '../auth/same-secret.js';
import { messageAnswer, noQuery } from '../http/contracts.js';
import { jobCounts } from '../jobs/queue.js';

/**
 * `GET /metrics` in the Prometheus text format, for the operator's scraper (docs/operations.md): requests and their
 * latency by route, jobs waiting, running and failed by type, browsers connected to this process, the database pool,
 * and the process's own figures (memory, event-loop lag, CPU). Off unless METRICS_TOKEN is set; the scraper sends it
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
  new Gauge({
    name: 'jobs',
    help: 'Background jobs (imports, exports, undo) waiting, running and failed, by type.',
    labelNames: ['type', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await jobCounts(ctx.db)) this.set({ type: row.type, status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'websocket_connections',
    help: 'Browsers connected to this process for live updates.',
    registers: [registry],
    collect() {
      this.set(ctx.realtime.connections());
    },
  });
  const poolStats = ctx.database.poolStats;
  if (poolStats) {
    new Gauge({
      name: 'database_pool_connections',
      help: 'PostgreSQL connections of this process, by state (max: the pool size).',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = poolStats();
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
      reply.type(registry.contentType);
      return registry.metrics();
    },
  );
}
