import Pusher from 'pusher';
import type { Config } from '../config/config.js';
import type { RelayMessage } from './process-relay.js';
import { USER_CHANNEL_PREFIX } from './protocol.js';

/** The Pusher HTTP API takes at most 100 channels per trigger. */
const CHANNELS_PER_TRIGGER = 100;
/** A hub that does not answer within this long is taken for away (the event waits in the outbox, realtime/outbox.ts). */
const REQUEST_TIMEOUT_MS = 5_000;

export interface Publisher {
  publish(message: RelayMessage): Promise<void>;
}

/**
 * Publishing to an outside Pusher-compatible service (Pusher, Soketi, Reverb) over its HTTP API, which then
 * delivers to every browser itself; this is how the app scales past one process without sharing sockets.
 */
export function createPusherApiPublisher(
  settings: Config['pusher'],
  secret: string,
): Publisher & { reachable(): Promise<boolean> } {
  if (!settings.host) throw new Error('Realtime: PUSHER_HOST is needed to publish to an outside Pusher service.');
  const client = new Pusher({
    appId: settings.appId,
    key: settings.key,
    secret,
    host: settings.host,
    port: settings.port === undefined ? undefined : String(settings.port),
    useTLS: (settings.scheme ?? 'https') === 'https',
    timeout: REQUEST_TIMEOUT_MS,
  });
  return {
    /** Whether the service answers at all (any HTTP status, even a refusal of this query). */
    async reachable() {
      try {
        await client.get({ path: '/channels' });
        return true;
      } catch (error) {
        return typeof (error as { status?: unknown }).status === 'number';
      }
    },
    async publish(message) {
      // The SDK refuses `#server-to-user-` names in trigger; they have an API call of their own.
      const users = message.channels.filter((channel) => channel.startsWith(USER_CHANNEL_PREFIX));
      const channels = message.channels.filter((channel) => !channel.startsWith(USER_CHANNEL_PREFIX));
      const params = message.except ? { socket_id: message.except } : undefined;
      const calls: Array<Promise<unknown>> = [];
      for (let start = 0; start < channels.length; start += CHANNELS_PER_TRIGGER) {
        calls.push(
          client.trigger(channels.slice(start, start + CHANNELS_PER_TRIGGER), message.event, message.data, params),
        );
      }
      for (const channel of users) {
        calls.push(client.sendToUser(channel.slice(USER_CHANNEL_PREFIX.length), message.event, message.data));
      }
      await Promise.all(calls);
    },
  };
}
