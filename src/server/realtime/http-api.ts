import { createHash, createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sameSecret } from '../auth/same-secret.js';
import type { RelayMessage } from './process-relay.js';
import { isValidChannelName, USER_CHANNEL_PREFIX } from './protocol.js';

/** How far a request's auth_timestamp may be from this clock (the Pusher HTTP API's own window). */
const TIMESTAMP_WINDOW_SECONDS = 600;
/** Pusher's limits: 100 channels per event, 10 events per batch, 10 KB of data (ours: what the app sends, 1 MB). */
const MAX_CHANNELS = 100;
const MAX_BATCH = 10;
const MAX_DATA_CHARS = 1_048_576;

export interface HttpApiOptions {
  appId: string;
  key: string;
  secret: string;
  deliver(message: RelayMessage): void;
}

const eventBody = z.object({
  name: z.string().min(1).max(200),
  data: z.string().max(MAX_DATA_CHARS),
  channels: z.array(z.string()).min(1).max(MAX_CHANNELS).optional(),
  channel: z.string().optional(),
  socket_id: z
    .string()
    .regex(/^\d+\.\d+$/)
    .optional(),
});
type EventBody = z.infer<typeof eventBody>;

/**
 * The publishing half of the Pusher HTTP API (`POST /apps/{id}/events` and `/batch_events`), signed as Pusher signs
 * it: what the app's `pusher` client (and any Pusher server library) sends to the standalone hub. The hub delivers
 * each event to its sockets; `#server-to-user-{id}` reaches the sockets signed in as that user.
 */
export function registerPusherHttpApi(app: FastifyInstance, options: HttpApiOptions) {
  // The signature covers the exact body: keep it as text.
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: MAX_DATA_CHARS * 2 },
    (_request, body, done) => done(null, body),
  );

  const route = (path: string, handle: (body: unknown) => EventBody[]) =>
    app.post<{ Params: { appId: string } }>(path, async (request, reply) => {
      const refused = checkSignature(request, options);
      if (refused) return reply.status(401).send({ error: refused });
      if (request.params.appId !== options.appId) return reply.status(404).send({ error: 'Unknown app id' });
      let events: EventBody[];
      try {
        events = handle(JSON.parse(String(request.body ?? '')));
      } catch (error) {
        return reply.status(400).send({
          error:
            error instanceof z.ZodError
              ? error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')
              : 'The body is not JSON',
        });
      }
      for (const event of events) {
        const channels = event.channels ?? (event.channel ? [event.channel] : []);
        const bad = channels.find(
          (channel) => !channel.startsWith(USER_CHANNEL_PREFIX) && !isValidChannelName(channel),
        );
        if (channels.length === 0 || bad !== undefined)
          return reply.status(400).send({ error: bad ? `Invalid channel name: ${bad}` : 'Name a channel' });
      }
      for (const event of events)
        options.deliver({
          channels: event.channels ?? [event.channel!],
          event: event.name,
          data: event.data,
          except: event.socket_id,
        });
      return {};
    });

  route('/apps/:appId/events', (body) => [eventBody.parse(body)]);
  route(
    '/apps/:appId/batch_events',
    (body) => z.object({ batch: z.array(eventBody).min(1).max(MAX_BATCH) }).parse(body).batch,
  );
}

/** Why the request's Pusher signature does not hold, or null when it does. */
function checkSignature(request: FastifyRequest, options: HttpApiOptions): string | null {
  const query = request.query as Record<string, string | string[] | undefined>;
  const single = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
  if (single('auth_key') !== options.key) return 'Unknown auth_key';
  const timestamp = Number(single('auth_timestamp'));
  if (!Number.isFinite(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > TIMESTAMP_WINDOW_SECONDS)
    return 'Timestamp expired: check the clock of the sender';
  const body = String(request.body ?? '');
  if (body && single('body_md5') !== createHash('md5').update(body, 'utf8').digest('hex'))
    return 'body_md5 does not match the body';
  const signed = Object.keys(query)
    .filter((name) => name !== 'auth_signature')
    .sort()
    .map((name) => `${name}=${single(name) ?? ''}`)
    .join('&');
  const path = request.url.split('?')[0];
  const expected = createHmac('sha256', options.secret).update(`${request.method}\n${path}\n${signed}`).digest('hex');
  return sameSecret(single('auth_signature') ?? '', expected) ? null : 'Invalid signature';
}
