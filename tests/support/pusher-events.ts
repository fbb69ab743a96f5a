import Pusher from 'pusher-js';
/** Resolves with the first `event` a pusher-js channel or connection fires, or fails after `ms`. */
export function next<T = any>(
  emitter: { bind(event: string, fn: (data: any) => void): unknown },
  event: string,
  ms = 5_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${event}`)), ms);
    emitter.bind(event, (data: T) => {
      clearTimeout(timer);
      resolve(data);
    });
  });
}

/**
 * A browser's realtime connection to a hub on loopback (the standalone hub or an app process): its private and
 * presence subscriptions authorised by `authorize` (the app's /broadcasting/auth with the person's cookies), as
 * laravel-echo does.
 */
export function hubBrowser(
  key: string,
  port: number,
  authorize: (body: { socket_id: string; channel_name: string }) => Promise<{ status: number; body: any }>,
): Pusher {
  return new Pusher(key, {
    cluster: 'mt1',
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    channelAuthorization: {
      endpoint: '/broadcasting/auth',
      transport: 'ajax',
      customHandler: ({ socketId, channelName }, callback) => {
        authorize({ socket_id: socketId, channel_name: channelName })
          .then((answer) =>
            answer.status === 200
              ? callback(null, answer.body)
              : callback(new Error(`refused: ${answer.status}`), null),
          )
          .catch((error: Error) => callback(error, null));
      },
    },
  });
}
