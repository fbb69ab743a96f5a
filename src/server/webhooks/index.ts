import fp from 'fastify-plugin';
import type { Feature, FeaturePlugin } from '../app-context.js';
import { DELIVERY_JOBS_PER_BATCH, WEBHOOK_DELIVERY_JOB, WebhookDeliveries } from './deliveries.js';
import { registerWebhookRoutes } from './routes.js';
import { WebhookService } from './webhook-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Outgoing webhooks and their deliveries (automations send theirs through it). */
    webhooks: WebhookService;
  }
}

/** The messages a delivery job sends: `delivery_ids`, or `delivery_id` (a job queued before they were batched). */
const deliveryIdsOf = (payload: { delivery_id?: unknown; delivery_ids?: unknown[] }): number[] =>
  (payload.delivery_ids ?? [payload.delivery_id]).map(Number);

/**
 * Outgoing webhooks (docs/webhooks.md): the routes and the delivery job. Their messages are made from committed record
 * changes by the automations feature's `record-changes` job (automations/record-changes-job.ts).
 */
const webhooks: FeaturePlugin = async (app, { ctx }) => {
  const deliveries = new WebhookDeliveries(ctx, () => app.jobs.wake());
  const service = new WebhookService(ctx, deliveries);
  app.decorate('webhooks', service);
  app.jobs.registerBatch(
    WEBHOOK_DELIVERY_JOB,
    (payloads, job) => deliveries.attempt(payloads.flatMap(deliveryIdsOf), job),
    { batch: DELIVERY_JOBS_PER_BATCH, holdsDatabase: true },
  );
  registerWebhookRoutes(app, service);
};

export const webhooksFeature: Feature = { plugin: fp(webhooks, { name: 'webhooks', dependencies: ['jobs'] }) };
