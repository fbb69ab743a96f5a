import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useConfig } from '../app/hooks';
import { sendPageView } from './pageView';

/** Sends one analytics page view per navigation to the configured endpoint (none by default). */
export function PageViewTracker() {
  const { pathname, search } = useLocation();
  const { analytics_url: endpoint } = useConfig();
  useEffect(() => {
    if (!endpoint) return;
    // Let the page set its title first.
    const timer = setTimeout(() => {
      sendPageView(
        endpoint,
        {
          path: `${pathname}${search}`,
          title: document.title,
          referrer: document.referrer,
          timestamp: new Date().toISOString(),
        },
        {
          sendBeacon: typeof navigator.sendBeacon === 'function' ? navigator.sendBeacon.bind(navigator) : undefined,
          fetch: window.fetch.bind(window),
        },
      );
    }, 0);
    return () => clearTimeout(timer);
  }, [endpoint, pathname, search]);
  return null;
}
