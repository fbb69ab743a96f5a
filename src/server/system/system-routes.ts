import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../app-context.js';
import type { Config } from '../config/config.js';
import { databaseAnswers } from '../db/database.js';
import { noQuery } from '../http/contracts.js';
import { clientDir } from './static-client.js';

/** Changes with each deploy: the package version plus a fingerprint of the built client. */
export function deployVersion(version: string) {
  const index = path.join(clientDir, 'index.html');
  const fingerprint = existsSync(index)
    ? createHash('sha1').update(readFileSync(index)).digest('hex').slice(0, 10)
    : 'dev';
  return `${version}+${fingerprint}`;
}

/**
 * Where the browser opens its realtime connection: the Pusher-protocol service's address, or for the embedded hub
 * nulls, so the browser uses the address it loaded the app from (src/client/realtime/pusherOptions.ts); nothing is
 * taken from the request's Host header.
 */
function realtimeAddress(config: Config) {
  if (!config.pusher.external) return { host: null, port: null, scheme: null, force_tls: null };
  const scheme = config.pusher.scheme ?? 'https';
  return {
    host: config.pusher.host,
    port: config.pusher.port ?? (scheme === 'https' ? 443 : 80),
    scheme,
    force_tls: scheme === 'https',
  };
}

/** The public settings the client starts with (GET /api/system/config; the start answer of bootstrap-routes.ts too). */
export function systemConfig(config: Config, version: string) {
  return {
    name: config.appName,
    logo_url: config.links.logoUrl,
    privacy_url: config.links.privacyUrl,
    terms_url: config.links.termsUrl,
    support_url: config.links.supportUrl,
    version,
    registration_enabled: config.registrationEnabled,
    analytics_url: config.analyticsUrl ?? null,
    tiles: config.tiles,
    realtime: {
      broadcaster: 'pusher',
      key: config.pusher.key,
      cluster: config.pusher.cluster,
      ...realtimeAddress(config),
      auth_endpoint: '/broadcasting/auth',
      user_auth_endpoint: '/broadcasting/user-auth',
      channel: 'system',
    },
    session: {
      idle_timeout_ms: config.session.inactivityTimeoutMs,
      countdown_seconds: config.session.inactivityCountdownSeconds,
    },
  };
}

/** GET /api/system/config: what the client starts with (systemConfig). */
export const systemConfigShape = z
  .object({
    name: z.string(),
    logo_url: z.string(),
    privacy_url: z.string(),
    terms_url: z.string(),
    support_url: z.string(),
    version: z.string(),
    registration_enabled: z.boolean(),
    analytics_url: z.string().nullable(),
    tiles: z.object({ url: z.string(), attribution: z.string() }),
    realtime: z.object({
      broadcaster: z.string(),
      key: z.string(),
      cluster: z.string(),
      /** The Pusher-protocol service's address; null for the embedded hub (the browser uses the page's address). */
      host: z.string().nullish(),
      port: z.number().int().nullable(),
      scheme: z.string().nullable(),
      force_tls: z.boolean().nullable(),
      auth_endpoint: z.string(),
      user_auth_endpoint: z.string(),
      channel: z.string(),
    }),
    session: z.object({ idle_timeout_ms: z.number(), countdown_seconds: z.number() }),
  })
  .meta({ id: 'SystemConfig' });

/** Why the process cannot take work (503). */
const unavailable = z.object({ status: z.string(), message: z.string() });

export function registerSystemRoutes(fastify: FastifyInstance, ctx: AppContext) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { config } = ctx;
  const version = deployVersion(config.version);
  const open = { permission: 'public' } as const;

  const answer = systemConfig(config, version);
  app.get(
    '/api/system/config',
    { schema: { querystring: noQuery, response: { 200: systemConfigShape } }, config: open },
    async () => answer,
  );

  app.get(
    '/api/dashboard/version',
    { schema: { querystring: noQuery, response: { 200: z.object({ version: z.string() }) } }, config: open },
    async () => ({ version }),
  );

  // Whether the process is alive: it answers while the database is away (a liveness check that restarted it then would
  // only add a restart to the outage); `database_up` says how the database is.
  app.get(
    '/api/health',
    {
      schema: {
        querystring: noQuery,
        response: {
          200: z.object({
            status: z.literal('ok'),
            database: z.enum(['pglite', 'postgres']),
            database_up: z.boolean(),
            version: z.string(),
          }),
        },
      },
      config: open,
    },
    async () => ({
      status: 'ok' as const,
      database: ctx.database.kind,
      database_up: ctx.database.health.up,
      version,
    }),
  );

  // For a load balancer: 503 while the database does not answer, and from the moment this process is told to stop
  // (system/lifecycle.ts), so new requests go to the others while it finishes those it holds (health says whether it is
  // alive; ready, whether to send it work).
  app.get(
    '/api/ready',
    {
      schema: {
        querystring: noQuery,
        response: { 200: z.object({ status: z.literal('ready'), version: z.string() }), 503: unavailable },
      },
      config: open,
    },
    async (_request, reply) => {
      if (ctx.lifecycle.draining)
        return reply.status(503).send({ status: 'stopping', message: 'This process is shutting down.' });
      if (ctx.database.health.up && (await databaseAnswers(ctx.db))) return { status: 'ready' as const, version };
      return reply.status(503).send({ status: 'unavailable', message: 'The database does not answer.' });
    },
  );
}
