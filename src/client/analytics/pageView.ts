/**
 * Analytics page views (SPEC section 7): one per navigation, sent to `analytics_url` from the system
 * config. Off when no endpoint is configured (the default).
 */
export interface PageView {
  path: string;
  title: string;
  referrer: string;
  timestamp: string;
}

export interface Transport {
  sendBeacon?: (url: string, data: Blob) => boolean;
  fetch?: typeof fetch;
}

export function sendPageView(endpoint: string | null | undefined, view: PageView, transport: Transport): boolean {
  if (!endpoint) return false;
  const body = JSON.stringify(view);
  try {
    if (transport.sendBeacon?.(endpoint, new Blob([body], { type: 'application/json' }))) return true;
    if (transport.fetch) {
      void transport
        .fetch(endpoint, {
          method: 'POST',
          body,
          headers: { 'Content-Type': 'application/json' },
          keepalive: true,
          credentials: 'omit',
        })
        .catch(() => undefined);
      return true;
    }
  } catch {
    // Analytics must never break navigation.
  }
  return false;
}
