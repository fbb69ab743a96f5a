/**
 * The realtime connection (loaded on demand after sign-in): laravel-echo over pusher-js, configured from
 * /api/system/config, on the person's own channel, their role's channel and the public system channel.
 */
import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import type { HttpClient } from '../http/client';
import type { RealtimeConfig } from '../system/types';
import { channelsFor, EVENT_NAMESPACE, type Me } from './events';
import type { PresenceLink, PresenceMember } from './hub';
import { pusherOptions } from './pusherOptions';

export interface ConnectOptions {
  config: RealtimeConfig & { channel?: string };
  me: Me;
  http: HttpClient;
  onEvent: (eventName: string, payload: unknown) => void;
  /** The socket came back after a break (a restart or deploy may have happened meanwhile). */
  onReconnect: () => void;
  /**
   * Every channel is subscribed (at the start and again after each break): from now on no change is missed, but
   * what the screen fetched before this moment may predate a change that was announced before anyone listened.
   */
  onListening: () => void;
}

export interface RealtimeConnection extends PresenceLink {
  disconnect(): void;
}

type PresenceChannel = ReturnType<Pusher['subscribe']> & {
  members?: { each(callback: (member: PresenceMember) => void): void };
};

/** Joins a presence channel on this socket; `onMembers` hears the whole member list at each change. */
function joinPresence(pusher: Pusher, name: string, onMembers: (members: PresenceMember[]) => void): () => void {
  const channel = pusher.subscribe(name) as PresenceChannel;
  const refresh = () => {
    const members: PresenceMember[] = [];
    channel.members?.each((member) => members.push(member));
    onMembers(members);
  };
  const events = ['pusher:subscription_succeeded', 'pusher:member_added', 'pusher:member_removed'];
  for (const event of events) channel.bind(event, refresh);
  if (channel.subscribed) refresh();
  return () => {
    for (const event of events) channel.unbind(event, refresh);
    pusher.unsubscribe(name);
  };
}

export function connectRealtime({
  config,
  me,
  http,
  onEvent,
  onReconnect,
  onListening,
}: ConnectOptions): RealtimeConnection {
  const options = pusherOptions(config, window.location, {
    fetch: (input, init) => window.fetch(input, init),
    csrfToken: async () => {
      await http.ensureCsrfCookie();
      return http.csrfToken();
    },
  });
  const pusher = new Pusher(config.key, options as ConstructorParameters<typeof Pusher>[1]);
  const echo = new Echo({
    broadcaster: 'pusher',
    key: config.key,
    client: pusher,
    namespace: EVENT_NAMESPACE,
    withoutInterceptors: true,
  });

  const channels = channelsFor(me);
  const listened = [
    echo.private(channels.user),
    ...(channels.role ? [echo.private(channels.role)] : []),
    echo.channel(config.channel || channels.system),
  ];
  const subscribed = new Set<number>();
  listened.forEach((channel, index) => {
    channel.listenToAll(onEvent);
    channel.subscribed(() => {
      subscribed.add(index);
      if (subscribed.size === listened.length) onListening();
    });
  });

  let wasConnected = false;
  let interrupted = false;
  pusher.connection.bind('state_change', ({ current }: { previous: string; current: string }) => {
    if (current === 'connected') {
      if (wasConnected && interrupted) onReconnect();
      wasConnected = true;
      interrupted = false;
    } else if (current === 'connecting' || current === 'unavailable' || current === 'disconnected') {
      subscribed.clear();
      if (wasConnected) interrupted = true;
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
  return {
    joinPresence: (name, onMembers) => joinPresence(pusher, name, onMembers),
    disconnect: () => {
      http.setSocketIdProvider(() => undefined);
      echo.disconnect();
    },
  };
}
