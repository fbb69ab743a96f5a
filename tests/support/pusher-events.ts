/** Resolves with the first `event` a pusher-js channel or connection fires, or fails after `ms`. */
export function next<T = any>(emitter: { bind(event: string, fn: (data: any) => void): unknown }, event: string, ms = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${event}`)), ms);
    emitter.bind(event, (data: T) => {
      clearTimeout(timer);
      resolve(data);
    });
  });
}
