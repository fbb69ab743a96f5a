import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerPusherHttpApi } from './http-api.js';
import { Hub } from './hub.js';
import { DEFAULT_ACTIVITY_TIMEOUT_SECONDS, DEFAULT_PONG_TIMEOUT_SECONDS, MAX_CLIENT_FRAME_BYTES } from './protocol.js';
import { Signer } from './signing.js';

export interface HubServerOptions {
  appId: string;
  key: string;
  secret: string;
  port: number;
  host: string;
  /** Relay `client-*` events between browsers (Pusher's "enable client events"); off by default, as on Pusher. */
  clientEvents?: boolean;
  logLevel?: string;
  /** Seconds after start during which sockets that subscribe hear what was published before them (Hub). */
  catchUpSeconds?: number;
}

/** Long enough for every browser to come back after a restart of the hub (pusher-js retries for about a minute). */
const DEFAULT_CATCH_UP_SECONDS = 120;

/**
 * The project's Pusher-protocol hub as a process of its own (`npm run hub`): browsers connect to it (`/app/{key}`),
 * the app processes publish to it over the Pusher HTTP API (their `PUSHER_*` settings name it) and sign the
 * browsers' private and presence subscriptions with the same secret. One hub holds every socket, so presence on a
 * record shows everyone, whichever app process they use.
 */
export async function startHubServer(
  options: HubServerOptions,
): Promise<{ app: FastifyInstance; hub: Hub; url: string }> {
  const app = Fastify({ logger: { level: options.logLevel ?? 'info' } });
  const hub: Hub = new Hub({
    signer: new Signer(options.key, options.secret),
    clientEvents: options.clientEvents ?? false,
    activityTimeoutSeconds: DEFAULT_ACTIVITY_TIMEOUT_SECONDS,
    pongTimeoutSeconds: DEFAULT_PONG_TIMEOUT_SECONDS,
    // Every socket is here: a client event goes straight to its channel.
    relay: async (message) => hub.deliver(message),
    log: app.log,
    catchUpSeconds: options.catchUpSeconds ?? DEFAULT_CATCH_UP_SECONDS,
  });
  // Sockets are told to reconnect (4200) before the server waits for its connections.
  app.addHook('preClose', () => hub.close());
  await app.register(websocket, { options: { maxPayload: MAX_CLIENT_FRAME_BYTES } });
  app.get<{ Params: { key: string }; Querystring: { protocol?: string } }>(
    '/app/:key',
    { websocket: true },
    (socket, request) => hub.accept(socket, request.params.key, request.query.protocol),
  );
  registerPusherHttpApi(app, {
    appId: options.appId,
    key: options.key,
    secret: options.secret,
    deliver: (message) => hub.deliver(message),
  });
  app.get('/health', async () => ({ status: 'ok', connections: hub.connectionCount }));
  const url = await app.listen({ port: options.port, host: options.host });
  return { app, hub, url };
}
