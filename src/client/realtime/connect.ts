/**
 * The realtime connection (loaded on demand after sign-in): laravel-echo over pusher-js, configured from
 * /api/system/config, on the person's own channel, their role's channel and the public system channel.
 */
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import type { HttpClient } from '../http/client';
import type { RealtimeConfig } from '../system/types';
import { EVENT_NAMESPACE, channelsFor, type Me } from './events';
import { pusherOptions } from './pusherOptions';

export interface ConnectOptions {
  config: RealtimeConfig & { channel?: string };
  me: Me;
  http: HttpClient;
  onEvent: (eventName: string, payload: unknown) => void;
  /** The socket came back after a break (a restart or deploy may have happened meanwhile). */
  onReconnect: () => void;
}

export function connectRealtime({ config, me, http, onEvent, onReconnect }: ConnectOptions): () => void {
  const options = pusherOptions(config, window.location, {
    fetch: (input, init) => window.fetch(input, init),
    csrfToken: async () => {
      await http.ensureCsrfCookie();
      return http.csrfToken();
    },
  });
  const pusher = new Pusher(config.key, options as ConstructorParameters<typeof Pusher>[1]);
  const echo = new Echo({ broadcaster: 'pusher', key: config.key, client: pusher, namespace: EVENT_NAMESPACE, withoutInterceptors: true });

  const channels = channelsFor(me);
  echo.private(channels.user).listenToAll(onEvent);
  if (channels.role) echo.private(channels.role).listenToAll(onEvent);
  echo.channel(config.channel || channels.system).listenToAll(onEvent);

  let wasConnected = false;
  let interrupted = false;
  pusher.connection.bind('state_change', ({ current }: { previous: string; current: string }) => {
    if (current === 'connected') {
      if (wasConnected && interrupted) onReconnect();
      wasConnected = true;
      interrupted = false;
    } else if (wasConnected && (current === 'connecting' || current === 'unavailable' || current === 'disconnected')) {
      interrupted = true;
    }
  });
  pusher.connection.bind('connected', () => {
    try {
      pusher.signin();
    } catch (error) {
      console.error('Realtime sign-in failed:', error);
    }
  });

  http.setSocketIdProvider(() => pusher.connection.socket_id || undefined);
  return () => {
    http.setSocketIdProvider(() => undefined);
    echo.disconnect();
  };
}
