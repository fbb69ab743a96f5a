import type Pusher from 'pusher-js';

type Channel = ReturnType<Pusher['subscribe']>;

/** Resolves when the hub confirms the subscription to `channel`; rejects when it refuses or says nothing for 30 s. */
export function subscribed(channel: Channel): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the hub did not confirm a subscription within 30 s')), 30_000);
    channel.bind('pusher:subscription_succeeded', () => {
      clearTimeout(timer);
      resolve();
    });
    channel.bind('pusher:subscription_error', (error: unknown) => {
      clearTimeout(timer);
      reject(new Error(`subscription refused: ${JSON.stringify(error)}`));
    });
  });
}
