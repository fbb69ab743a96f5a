import formbody from '@fastify/formbody';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { AuthUser } from '../auth/auth-user.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { registerAuthRoutes } from './auth-routes.js';
import { addBuiltInRules, type ChannelRuleResult, ChannelRules } from './channel-rules.js';
import { Hub } from './hub.js';
import { OutboxPublisher } from './outbox.js';
import { ProcessRelay } from './process-relay.js';
import {
  DEFAULT_ACTIVITY_TIMEOUT_SECONDS,
  DEFAULT_PONG_TIMEOUT_SECONDS,
  encodeData,
  isValidSocketId,
  MAX_CLIENT_FRAME_BYTES,
} from './protocol.js';
import { createPusherApiPublisher, type Publisher } from './pusher-api-publisher.js';
import { Signer } from './signing.js';

export interface PublishOptions {
  /** The `X-Socket-Id` of the browser that caused the event, which already knows (Laravel's `toOthers()`). */
  exceptSocketId?: string;
}

export interface Realtime {
  /** Deliver `event` with `data` to every subscriber of each channel, in this and every other server process. */
  publish(channels: string[], event: string, data: unknown, options?: PublishOptions): Promise<void>;
  /** Authorise subscriptions to private-/presence- channels whose name matches `pattern`. Rules are tried in order; no matching rule = refused. For presence channels the rule may return the member info object instead of true. */
  addChannelRule(
    pattern: RegExp,
    rule: (user: AuthUser, match: RegExpMatchArray) => ChannelRuleResult | Promise<ChannelRuleResult>,
  ): void;
  close(): Promise<void>;
  /** Browsers connected to this process's hub now. */
  connections(): number;
  /**
   * Whether events can reach browsers now: the outside hub answers, or, with the embedded hub, this process hears the
   * other processes (its LISTEN connection is open).
   */
  hubUp(): Promise<boolean>;
  /** Events waiting in the outbox for the outside hub to answer (realtime/outbox.ts); none with the embedded hub. */
  outboxEvents(): Promise<number>;
}

export interface RealtimeOptions {
  config: Config;
  database: Database;
  /** Relay `client-*` events between browsers on private and presence channels. Off, as on Pusher by default. */
  clientEvents?: boolean;
  activityTimeoutSeconds?: number;
  pongTimeoutSeconds?: number;
}

/**
 * Mounts the embedded Pusher-protocol hub (`GET /app/:key`) and the channel auth endpoints on `app`, and
 * returns the publisher the rest of the server uses. See docs/realtime.md.
 */
export async function registerRealtime(app: FastifyInstance, options: RealtimeOptions): Promise<Realtime> {
  const { config, database } = options;
  const secret = config.pusher.secret ?? config.appKey;
  if (!secret) {
    throw new Error(
      'Realtime needs a signing secret: set PUSHER_APP_SECRET or APP_KEY (pass the generated app key when neither is set).',
    );
  }
  const signer = new Signer(config.pusher.key, secret);
  const rules = new ChannelRules();
  addBuiltInRules(rules);

  const hub = new Hub({
    signer,
    clientEvents: options.clientEvents ?? false,
    activityTimeoutSeconds: options.activityTimeoutSeconds ?? DEFAULT_ACTIVITY_TIMEOUT_SECONDS,
    pongTimeoutSeconds: options.pongTimeoutSeconds ?? DEFAULT_PONG_TIMEOUT_SECONDS,
    // Client events travel like published ones, so they reach browsers connected to other processes too.
    // (`relay` is only needed once sockets connect, well after it exists.)
    relay: (message) => relay.publish(message),
    log: app.log,
  });
  const relay = await ProcessRelay.start(database, (message) => hub.deliver(message), app.log);
  hub.start();
  // Events other processes published while this one's LISTEN connection was lost never reached its browsers: they are
  // told to reconnect, and fetch what they show again once they listen (client/realtime/catchUp.ts).
  const stopMissing = database.onNotificationsMissed(() => hub.reconnectAll('Events may have been missed'));
  const outbox = config.pusher.external
    ? new OutboxPublisher(createPusherApiPublisher(config.pusher, secret), database, app.log)
    : null;
  await outbox?.start();
  const publisher: Publisher = outbox ?? relay;

  // preClose, not onClose: sockets must be told to go before the HTTP server waits for its connections. Added
  // before @fastify/websocket so ours runs first and clients get 4200 (reconnect now) rather than a bare close.
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      stopMissing();
      await outbox?.close();
      relay.close();
      await hub.close();
    })());
  app.addHook('preClose', close);

  // The app may have registered these already (for other routes); registering twice would fail or double-parse.
  if (!app.hasDecorator('websocketServer'))
    await app.register(websocket, { options: { maxPayload: MAX_CLIENT_FRAME_BYTES } });
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) await app.register(formbody);

  app.get<{ Params: { key: string }; Querystring: { protocol?: string } }>(
    '/app/:key',
    // The Pusher protocol over a websocket (docs/realtime.md): no HTTP answer to declare, left out of the OpenAPI document.
    { websocket: true, schema: { hide: true }, config: { permission: 'public' } },
    (socket, request) => hub.accept(socket, request.params.key, request.query.protocol),
  );
  registerAuthRoutes(app, signer, rules);

  return {
    async publish(channels, event, data, publishOptions) {
      if (channels.length === 0) return;
      const except = isValidSocketId(publishOptions?.exceptSocketId) ? publishOptions.exceptSocketId : undefined;
      await publisher.publish({ channels, event, data: encodeData(data), except });
    },
    addChannelRule(pattern, rule) {
      rules.add(pattern, rule);
    },
    close,
    connections: () => hub.connectionCount,
    hubUp: async () => (outbox ? outbox.hubUp() : database.health.up && database.listening),
    outboxEvents: async () => (outbox ? outbox.waiting() : 0),
  };
}
