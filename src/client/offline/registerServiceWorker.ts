/**
 * Registers the service worker (vite.config.ts, docs/offline.md) in production builds; the development server and the
 * unit tests run without one. The worker takes over as soon as it is installed (`skipWaiting`, `clientsClaim`) and
 * page loads go to the network first, so the next load after a deploy is the new build without a prompt; an open
 * page is not reloaded under the person (the deploy notice already asks them to refresh when they are ready).
 */
import { Workbox } from 'workbox-window';
import { http, mainData, session } from '../app/services';
import { START_PATH } from '../app/startAnswer';

export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  // On the first visit the app read its start answer, settings and record types before the worker was there to keep
  // them: ask again through it, so the app can start with no connection from the next load on. The answers are not
  // taken into the open page (the same data; taking it would rebuild the routes under the person).
  workbox.addEventListener('controlling', (event) => {
    if (event.isUpdate || !session.user) return;
    void mainData.warm(['config', 'features', 'schemas']);
    void http.get(START_PATH, { refreshSessionOnFailure: false }).catch(() => undefined);
  });
  await workbox
    .register()
    .catch((error: unknown) => console.error('The offline service worker could not be installed:', error));
}
